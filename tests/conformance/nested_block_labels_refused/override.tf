resource "terraform_data" "b" {
  lifecycle "y" {
    prevent_destroy = true
  }

  provisioner {
    command = "override"
  }
}
