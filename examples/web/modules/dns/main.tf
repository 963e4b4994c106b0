variable "zone" {
  type = string
}

resource "aws_route53_zone" "this" {
  name = var.zone
}
