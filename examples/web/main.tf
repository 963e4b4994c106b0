variable "instance_type" {
  description = "EC2 instance type for the web servers."
  type        = string
  default     = "t3.micro"
}

variable "replicas" {
  type    = number
  default = 2
}

resource "aws_security_group" "web" {
  name = "web"

  ingress {
    from_port   = 80
    to_port     = 80
    protocol    = "tcp"
    cidr_blocks = ["0.0.0.0/0"]
  }

  ingress {
    from_port   = 443
    to_port     = 443
    protocol    = "tcp"
    cidr_blocks = ["0.0.0.0/0"]
  }
}

# Overridden in override.tf (lifecycle) and web_override.tf.json (tags).
resource "aws_instance" "web" {
  count                  = var.replicas
  ami                    = "ami-0c55b159cbfafe1f0"
  instance_type          = var.instance_type
  vpc_security_group_ids = [aws_security_group.web.id]

  tags = {
    Name = "web"
  }

  provisioner "local-exec" {
    command = "echo ${self.private_ip} >> inventory.txt"
  }

  lifecycle {
    create_before_destroy = true
  }
}

output "instance_ids" {
  value = aws_instance.web[*].id
}

# Overridden in override.tf (an input).
module "dns" {
  source = "./modules/dns"
  zone   = "example.com"
}
