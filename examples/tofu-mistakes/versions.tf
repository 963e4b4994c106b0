terraform {
  required_version = ">= 1.6"

  backend "etcdv3" {
    endpoints = ["etcd.internal:2379"]
  }
}

provider "google" {
  region = "europe-west1"
}
