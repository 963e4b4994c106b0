# Staging: everything renamed, one queue per worker pool.
variable "environment" {
  default = "staging"
}

resource "aws_s3_bucket" "logs" {
  force_destroy = true
}

resource "aws_s3_bucket" "assets" {
  force_destroy = true
}

resource "aws_sqs_queue" "jobs" {
  for_each = toset(["small", "large"])
  name     = "acme-staging-jobs-${each.key}"
}
