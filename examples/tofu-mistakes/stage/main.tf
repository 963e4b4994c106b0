variable "name" {
  type    = string
  default = "stage"
}

output "name" {
  value = var.name
}
