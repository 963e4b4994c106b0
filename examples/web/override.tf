# Local development: only SSH, never destroy, and a cheaper default.
variable "instance_type" {
  default    = "t3.nano"
  description = "Cheaper for local runs."
}

variable "replicas" {
  default = "two"
}

resource "aws_security_group" "web" {
  name = "web"

  ingress {
    from_port   = 22
    to_port     = 22
    protocol    = "tcp"
    cidr_blocks = ["10.0.0.0/8"]
  }
}

resource "aws_instance" "web" {
  depends_on = [aws_security_group.web]

  tags = {
    Name = "web-dev"
  }

  provisioner "local-exec" {
    command = "echo dev"
  }

  lifecycle {
    prevent_destroy      = true
    replace_triggered_by = [aws_security_group.web]
  }
}

resource "aws_eip" "web" {
  instance = aws_instance.web[0].id
}

module "dns" {
  zome = "dev.example.com"
}
