variable "a" {}
