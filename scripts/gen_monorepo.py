#!/usr/bin/env python3
"""Writes a synthetic Terraform/OpenTofu monorepo for benchmarks.

usage: gen_monorepo.py OUT_DIR [MODULES] [--big-merge N]

Each module directory has realistic native files (variables, resources with nested blocks,
outputs, locals), a versions.tf + versions.tofu pair, an override file, and (every third
module) a JSON primary and a JSON override. --big-merge N instead writes one directory with N
resources and N override blocks, to measure the merge alone.
"""
import os
import sys

RESOURCE = """resource "aws_security_group" "sg_{i}" {{
  name        = "${{var.name}}-sg-{i}"
  description = "Security group {i} for ${{var.name}}"
  vpc_id      = var.vpc_id

  ingress {{
    description = "HTTPS"
    from_port   = 443
    to_port     = 443
    protocol    = "tcp"
    cidr_blocks = ["10.{a}.0.0/16", "10.{b}.0.0/16"]
  }}

  ingress {{
    description = "HTTP"
    from_port   = 80
    to_port     = 80
    protocol    = "tcp"
    cidr_blocks = [for s in var.subnets : s.cidr if s.public]
  }}

  egress {{
    from_port   = 0
    to_port     = 0
    protocol    = "-1"
    cidr_blocks = ["0.0.0.0/0"]
  }}

  tags = merge(local.tags, {{
    Name = "${{var.name}}-sg-{i}"
    Tier = {i} % 2 == 0 ? "web" : "app"
  }})

  lifecycle {{
    create_before_destroy = true
    ignore_changes        = [tags["LastModified"]]
  }}
}}

resource "aws_instance" "vm_{i}" {{
  count                  = var.replicas
  ami                    = data.aws_ami.this.id
  instance_type          = var.instance_type
  vpc_security_group_ids = [aws_security_group.sg_{i}.id]
  user_data              = <<-EOT
    #!/bin/bash
    echo "instance {i}" > /etc/motd
  EOT

  root_block_device {{
    volume_size = 20
    encrypted   = true
  }}
}}
"""

VARIABLES = """variable "name" {
  description = "Name prefix."
  type        = string
  default     = "bench"
}

variable "vpc_id" {
  type = string
}

variable "replicas" {
  type    = number
  default = 2
}

variable "instance_type" {
  type    = string
  default = "t3.micro"
}

variable "subnets" {
  type = list(object({
    cidr   = string
    public = optional(bool, false)
  }))
  default = []
}

locals {
  tags = {
    Project = var.name
    Managed = "terraform"
  }
}

data "aws_ami" "this" {
  most_recent = true
  owners      = ["amazon"]
}
"""

OVERRIDE = """# Bench override: cheaper instances, one ingress rule.
resource "aws_instance" "vm_0" {
  instance_type = "t3.nano"
}

resource "aws_security_group" "sg_0" {
  ingress {
    from_port   = 22
    to_port     = 22
    protocol    = "tcp"
    cidr_blocks = ["10.0.0.0/8"]
  }
}

variable "replicas" {
  default = 1
}
"""

JSON_PRIMARY = """{
  "resource": {
    "aws_s3_bucket": {
      "logs": {
        "bucket": "${var.name}-logs",
        "tags": {"Name": "${var.name}-logs", "Kind": "logs"},
        "lifecycle": {"prevent_destroy": true}
      }
    }
  },
  "output": {
    "bucket_arn": {"value": "${aws_s3_bucket.logs.arn}"}
  }
}
"""

JSON_OVERRIDE = """{
  "//": "staging tags",
  "resource": {"aws_s3_bucket": {"logs": {"tags": {"Name": "staging-logs"}}}}
}
"""


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def module(root, m, resources):
    d = os.path.join(root, f"team{m % 20:02d}", f"module{m:05d}")
    os.makedirs(d, exist_ok=True)
    write(os.path.join(d, "variables.tf"), VARIABLES)
    write(
        os.path.join(d, "main.tf"),
        "".join(RESOURCE.format(i=i, a=(m + i) % 250, b=(m * 7 + i) % 250) for i in range(resources)),
    )
    outputs = "".join(
        f'output "sg_{i}_id" {{\n  value = aws_security_group.sg_{i}.id\n}}\n\n' for i in range(resources)
    )
    write(os.path.join(d, "outputs.tf"), outputs)
    write(os.path.join(d, "versions.tf"), 'terraform {\n  required_version = ">= 1.6"\n}\n')
    write(os.path.join(d, "versions.tofu"), 'terraform {\n  required_version = ">= 1.8"\n}\n')
    write(os.path.join(d, "override.tf"), OVERRIDE)
    if m % 3 == 0:
        write(os.path.join(d, "storage.tf.json"), JSON_PRIMARY)
        write(os.path.join(d, "storage_override.tf.json"), JSON_OVERRIDE)


def big_merge(root, n):
    d = os.path.join(root, "big")
    os.makedirs(d, exist_ok=True)
    write(
        os.path.join(d, "main.tf"),
        "".join(f'resource "terraform_data" "r{i}" {{\n  input = "base-{i}"\n  triggers_replace = [{i}]\n}}\n\n' for i in range(n)),
    )
    write(
        os.path.join(d, "override.tf"),
        "".join(f'resource "terraform_data" "r{i}" {{\n  input = "override-{i}"\n}}\n\n' for i in range(n)),
    )


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    out = args[0]
    if "--big-merge" in args:
        big_merge(out, int(args[args.index("--big-merge") + 1]))
        return
    modules = int(args[1]) if len(args) > 1 else 2000
    for m in range(modules):
        module(out, m, resources=8)


if __name__ == "__main__":
    main()
