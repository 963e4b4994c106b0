variable "environment" {
  type    = string
  default = "prod"
}

resource "aws_s3_bucket" "logs" {
  bucket = "acme-${var.environment}-logs"
}

resource "aws_s3_bucket" "assets" {
  bucket = "acme-${var.environment}-assets"
}

resource "aws_sqs_queue" "jobs" {
  count = 1
  name  = "acme-${var.environment}-jobs"
}

output "logs_bucket" {
  value = aws_s3_bucket.logs.id
}
