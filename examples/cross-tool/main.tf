variable "project_id" {
  type = string
}

resource "google_storage_bucket" "logs" {
  project  = var.project_id
  name     = "${var.project_id}-logs"
  location = "EU"
}

resource "google_storage_bucket" "logs" {
  project  = var.project_id
  name     = "${var.project_id}-logs-2"
  location = "EU"
}
