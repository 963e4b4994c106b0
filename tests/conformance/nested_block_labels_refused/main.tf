resource "terraform_data" "a" {
  input = 1

  lifecycle "x" {
    create_before_destroy = "no"
  }

  provisioner "local-exec" {
    command = "base"
  }

  provisioner {
    command = "unlabelled"
  }

  connection "x" {
    host = "h"
  }
}

resource "terraform_data" "b" {
  lifecycle {
    prevent_destroy = false
  }
}
