#!/usr/bin/env python3
"""Writes a synthetic Terraform/OpenTofu monorepo for benchmarks.

usage: gen_monorepo.py OUT_DIR [MODULES] [--big-merge N [--spread K]] [--terragrunt N]
       gen_monorepo.py OUT_DIR --wide N | --chain N

Each module directory has realistic native files (variables, resources with nested blocks,
outputs, locals), a versions.tf + versions.tofu pair, an override file, and (every third
module) a JSON primary and a JSON override. --big-merge N instead writes one directory with N
resources and N override blocks, to measure the merge alone; with --spread K the same blocks
are dealt over K directories (the same bytes, in K smaller merges).

--terragrunt N also writes OUT_DIR/live: a Terragrunt tree of N terragrunt.hcl units under
account/region/env levels (account.hcl, region.hcl, env.hcl chained by imports, a root.hcl).
Even units import a common.hcl and their env.hcl; odd units include root.hcl, which reads the
hierarchy with read_terragrunt_config(find_in_parent_folders(...)) for each of them. Every unit
depends on the previous one, so the dependencies form one chain of N units. --terragrunt-cycle
closes that chain into a cycle. Pass MODULES 0 for the Terragrunt tree alone.

--wide N writes one directory of N small .tf files; --chain N a chain of N directories, each
inside the one before and each a module directory: the scale of a directory listing and of a
walk's depth.
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


def big_merge(root, n, spread=1):
    """N resources and N override blocks: in one directory `big`, or (spread > 1) the same
    blocks dealt over `spread` directories `big/part-K`, the same bytes in smaller merges."""
    for part in range(spread):
        d = os.path.join(root, "big") if spread == 1 else os.path.join(root, "big", f"part-{part}")
        os.makedirs(d, exist_ok=True)
        mine = range(part, n, spread)
        write(
            os.path.join(d, "main.tf"),
            "".join(f'resource "terraform_data" "r{i}" {{\n  input = "base-{i}"\n  triggers_replace = [{i}]\n}}\n\n' for i in mine),
        )
        write(
            os.path.join(d, "override.tf"),
            "".join(f'resource "terraform_data" "r{i}" {{\n  input = "override-{i}"\n}}\n\n' for i in mine),
        )


TG_ROOT = """locals {
  account = read_terragrunt_config(find_in_parent_folders("account.hcl"))
  region  = read_terragrunt_config(find_in_parent_folders("region.hcl"))
  env     = read_terragrunt_config(find_in_parent_folders("env.hcl"))
}

remote_state {
  backend = "s3"
  config = {
    bucket         = "bench-terraform-state"
    key            = "${path_relative_to_include()}/terraform.tfstate"
    region         = "us-east-1"
    encrypt        = true
    dynamodb_table = "terraform-locks"
  }
}
"""

TG_COMMON = """remote_state {
  backend = "s3"
  config = {
    bucket         = "bench-terraform-state"
    region         = "us-east-1"
    encrypt        = true
    dynamodb_table = "terraform-locks"
  }
}
"""

TG_IMPORT_UNIT = """import "common" {{
  config_path = find_in_parent_folders("common.hcl")
  deep_merge  = true
}}

import "env" {{
  config_path = "../env.hcl"
}}

terraform {{
  source = "tfr:///terraform-aws-modules/vpc/aws?version=5.8.1"
}}

{dependency}
inputs = merge(
  import.env.inputs,
  {{
    name = "unit-{u}"
    cidr = "10.{a}.{b}.0/24"
  }},
)
"""

TG_INCLUDE_UNIT = """include "root" {{
  path = find_in_parent_folders("root.hcl")
}}

locals {{
  env = read_terragrunt_config("${{get_terragrunt_dir()}}/../env.hcl")
}}

terraform {{
  source = "tfr:///terraform-aws-modules/security-group/aws?version=5.1.2"
}}

{dependency}
inputs = {{
  name = "unit-{u}-${{local.env.locals.env}}"
}}
"""


def terragrunt(root, n, cycle):
    live = os.path.join(root, "live")
    os.makedirs(live, exist_ok=True)
    write(os.path.join(live, "root.hcl"), TG_ROOT)
    write(os.path.join(live, "common.hcl"), TG_COMMON)
    accounts, regions, envs = 10, 5, 4
    per_env = max(1, -(-n // (accounts * regions * envs)))
    units = []
    for a in range(accounts):
        account = os.path.join(live, f"account{a:02d}")
        for r in range(regions):
            region = os.path.join(account, f"region{r}")
            for e in range(envs):
                env = os.path.join(region, f"env{e}")
                for k in range(per_env):
                    if len(units) < n:
                        units.append(os.path.join(env, f"unit{k:03d}"))
    made = set()
    for u, unit in enumerate(units):
        env = os.path.dirname(unit)
        region = os.path.dirname(env)
        account = os.path.dirname(region)
        if env not in made:
            made.add(env)
            if account not in made:
                made.add(account)
                os.makedirs(account, exist_ok=True)
                write(os.path.join(account, "account.hcl"), f'inputs = {{\n  account_id = "{u:012d}"\n}}\n\nlocals {{\n  account_name = "{os.path.basename(account)}"\n}}\n')
            if region not in made:
                made.add(region)
                os.makedirs(region, exist_ok=True)
                write(os.path.join(region, "region.hcl"), 'import "account" {\n  config_path = "../account.hcl"\n}\n\ninputs = merge(import.account.inputs, { aws_region = "us-east-1" })\n\nlocals {\n  aws_region = "us-east-1"\n}\n')
            os.makedirs(env, exist_ok=True)
            write(os.path.join(env, "env.hcl"), 'import "region" {\n  config_path = "../region.hcl"\n}\n\ninputs = merge(import.region.inputs, { env = "prod" })\n\nlocals {\n  env = "prod"\n}\n')
        os.makedirs(unit, exist_ok=True)
        previous = u - 1 if u > 0 else (len(units) - 1 if cycle else None)
        dependency = ""
        if previous is not None:
            path = os.path.relpath(units[previous], unit)
            dependency = f'dependency "previous" {{\n  config_path = "{path}"\n}}\n'
        template = TG_IMPORT_UNIT if u % 2 == 0 else TG_INCLUDE_UNIT
        text = template.format(dependency=dependency, u=u, a=u // 256 % 256, b=u % 256)
        write(os.path.join(unit, "terragrunt.hcl"), text)


def wide(out, files):
    os.makedirs(out, exist_ok=True)
    for i in range(files):
        write(os.path.join(out, f"v{i}.tf"), f'variable "v{i}" {{\n  default = {i}\n}}\n')


def chain(out, depth):
    # Each level is made from the one above (a relative path from the working directory
    # would pass PATH_MAX long before a thousand levels).
    os.makedirs(out, exist_ok=True)
    top = os.open(out, os.O_RDONLY)
    fd = top
    for level in range(depth):
        os.mkdir("d", dir_fd=fd)
        below = os.open("d", os.O_RDONLY, dir_fd=fd)
        if fd != top:
            os.close(fd)
        fd = below
        main = os.open("main.tf", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644, dir_fd=fd)
        os.write(main, f'variable "level_{level}" {{}}\n'.encode())
        os.close(main)
    if fd != top:
        os.close(fd)
    os.close(top)


def main():
    args = sys.argv[1:]
    if args and args[0] in ("-h", "--help"):
        print(__doc__)
        return
    if not args or args[0].startswith("-"):
        # An option where OUT_DIR belongs would otherwise become a directory named like it.
        sys.exit(__doc__)
    out = args[0]
    if "--wide" in args:
        wide(out, int(args[args.index("--wide") + 1]))
        return
    if "--chain" in args:
        chain(out, int(args[args.index("--chain") + 1]))
        return
    if "--big-merge" in args:
        spread = int(args[args.index("--spread") + 1]) if "--spread" in args else 1
        big_merge(out, int(args[args.index("--big-merge") + 1]), spread)
        return
    positional = [a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or args[i - 1] != "--terragrunt")]
    modules = int(positional[1]) if len(positional) > 1 else 2000
    for m in range(modules):
        module(out, m, resources=8)
    if "--terragrunt" in args:
        terragrunt(out, int(args[args.index("--terragrunt") + 1]), "--terragrunt-cycle" in args)


if __name__ == "__main__":
    main()
