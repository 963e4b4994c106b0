variable "labels" {
  type    = map(string)
  default = ["team-a"]
}

module "stage" {
  source = "stage"
}

module "network" {
  source  = "terraform-google-modules/network/google"
  version = "latest"
}

resource "google_storage_bucket" "assets" {
  name     = "acme-assets"
  location = "EU"
}

resource "google_storage_bucket" "assets" {
  name     = "acme-assets-2"
  location = "EU"
}
