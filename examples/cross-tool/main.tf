variable "project_id" {
  description = "Project to create the bucket in."
  type        = string
}

resource "google_storage_bucket" "logs" {
  project  = var.project_id
  name     = "${var.project_id}-logs"
  location = "EU"
}

output "bucket" {
  value = google_storage_bucket.logs.url
}
