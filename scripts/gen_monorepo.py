#!/usr/bin/env python3
"""Writes a synthetic Terraform/OpenTofu monorepo for benchmarks.

usage: gen_monorepo.py OUT_DIR [MODULES] [--big-merge N [--spread K]] [--terragrunt N]
       gen_monorepo.py OUT_DIR --wide N | --chain N | --components N

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

--components N writes a component repository instead: N root directories (stacks) under
OUT_DIR/live, each calling several shared modules of OUT_DIR/modules through
`../../modules/NAME`, passing their inputs and reading their outputs, and one module directory
in OUT_DIR/modules per N/25 stacks for each of eight kinds. Some shared modules call others
(`../NAME`), every third has an override file, every fifth a JSON primary and a JSON override,
every fourth an examples/basic directory that calls it (`../..`); every seventh stack has an
override file that changes a call's input, and a few pass an input or read an output that the
module does not declare (findings in every format).
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


# The shared modules of a component repository: for each kind, the inputs a caller must pass
# (besides `name`), the resource it manages, its own outputs (besides `id`, `arn`, `name`), and
# the kinds it calls itself through a local source.
COMPONENTS = {
    "bucket": ([], "aws_s3_bucket", [], []),
    "database": (["vpc_id"], "aws_db_instance", ["endpoint"], ["subnets"]),
    "iam_role": ([], "aws_iam_role", [], []),
    "instance": (["vpc_id", "subnet_id"], "aws_instance", ["private_ip"], ["security_group"]),
    "network": (["cidr"], "aws_vpc", ["cidr_block"], []),
    "security_group": (["vpc_id"], "aws_security_group", [], []),
    "service": (["vpc_id", "subnet_id"], "aws_ecs_service", ["url"], ["instance", "security_group"]),
    "subnets": (["vpc_id"], "aws_subnet", ["subnet_ids"], []),
}

# What a caller passes for each required input, from the network module every stack calls.
COMPONENT_INPUTS = {"vpc_id": "module.network.id", "subnet_id": "module.network.id",
                    "cidr": '"10.0.0.0/16"'}

COMPONENT_VARIABLES = """variable "name" {
  description = "Name of everything this module creates."
  type        = string
}

variable "environment" {
  description = "Environment this module is deployed to: dev, staging or prod."
  type        = string
  default     = "dev"

  validation {
    condition     = contains(["dev", "staging", "prod"], var.environment)
    error_message = "The environment must be dev, staging or prod."
  }
}

variable "tags" {
  description = "Tags added to every resource."
  type        = map(string)
  default     = {}
}

variable "enable_logging" {
  description = "Whether the resources send their logs to the audit bucket."
  type        = bool
  default     = true
}

variable "retention_days" {
  description = "How long logs and backups are kept."
  type        = number
  default     = 30

  validation {
    condition     = var.retention_days >= 1 && var.retention_days <= 3650
    error_message = "Retention must be between 1 and 3650 days."
  }
}

variable "kms_key_id" {
  description = "The KMS key that encrypts data at rest; the AWS-managed key when null."
  type        = string
  default     = null
}

variable "settings" {
  description = "Extra settings, passed to each resource as is."
  type        = map(string)
  default     = {}
}
"""

COMPONENT_RESOURCE = """resource "{rtype}" "{label}" {{
  name       = "${{var.name}}-{label}"
  kms_key_id = var.kms_key_id
  retention  = var.retention_days
  logging    = var.enable_logging ? {{ target = "${{var.name}}-audit", prefix = "{label}/" }} : null

  tags = merge(local.tags, {{
    Name = "${{var.name}}-{label}"
    Part = "{label}"
  }})

  dynamic "setting" {{
    for_each = var.environment == "prod" ? [1, 2] : [1]
    content {{
      key   = "setting-${{setting.value}}"
      value = length(var.tags) > 0 ? jsonencode(var.tags) : "none"
    }}
  }}

  lifecycle {{
    ignore_changes = [tags["LastModified"]]
  }}
}}

"""

COMPONENT_OVERRIDE = """# Production defaults for this module.
variable "environment" {{
  default = "prod"
}}

resource "{rtype}" "main" {{
  tags = {{ Name = "${{var.name}}-override" }}
}}
"""


def component_name(kind, group):
    return kind if group == 0 else f"{kind}-{group}"


def component_module(root, kind, group, m):
    required, rtype, outputs, calls = COMPONENTS[kind]
    d = os.path.join(root, "modules", component_name(kind, group))
    os.makedirs(d, exist_ok=True)
    variables = COMPONENT_VARIABLES + "".join(
        f'\nvariable "{v}" {{\n  type = string\n}}\n' for v in required)
    write(os.path.join(d, "variables.tf"), variables)
    main = 'locals {\n  tags = merge(var.tags, { Module = "' + kind + '", Environment = var.environment })\n}\n\n'
    main += "".join(COMPONENT_RESOURCE.format(rtype=rtype, label=label)
                    for label in ("main", "secondary", "audit", "replica", "backup", "monitor"))
    for callee in calls:
        inputs = "".join(f"  {v} = var.{v}\n" for v in COMPONENTS[callee][0])
        main += (f'module "{callee}" {{\n  source = "../{component_name(callee, group)}"\n\n'
                 f'  name = "${{var.name}}-{callee}"\n{inputs}  tags = local.tags\n}}\n\n')
    write(os.path.join(d, "main.tf"), main)
    out = "".join(f'output "{o}" {{\n  description = "The {o} of the main {rtype}."\n'
                  f'  value       = {rtype}.main.{o}\n}}\n\n'
                  for o in ["id", "arn", "name"] + outputs)
    out += "".join(f'output "{callee}_id" {{\n  value = module.{callee}.id\n}}\n\n' for callee in calls)
    write(os.path.join(d, "outputs.tf"), out)
    write(os.path.join(d, "versions.tf"),
          'terraform {\n  required_version = ">= 1.6"\n\n  required_providers {\n'
          '    aws = {\n      source  = "hashicorp/aws"\n      version = ">= 5.0"\n    }\n  }\n}\n')
    if m % 3 == 0:
        write(os.path.join(d, "override.tf"), COMPONENT_OVERRIDE.format(rtype=rtype))
    if m % 5 == 0:
        write(os.path.join(d, "storage.tf.json"), JSON_PRIMARY)
        write(os.path.join(d, "storage_override.tf.json"), JSON_OVERRIDE)
    if m % 4 == 0:
        example = os.path.join(d, "examples", "basic")
        os.makedirs(example, exist_ok=True)
        inputs = "".join(f'  {v} = "example-{v}"\n' for v in required)
        write(os.path.join(example, "main.tf"),
              f'provider "aws" {{\n  region = "us-east-1"\n}}\n\nmodule "this" {{\n  source = "../.."\n\n'
              f'  name = "example"\n{inputs}}}\n\noutput "id" {{\n  value = module.this.id\n}}\n')


def component_stack(root, s, groups):
    envs = ("dev", "staging", "prod")
    env = envs[s % 3]
    group = s % groups
    d = os.path.join(root, "live", f"{env}-app{s:05d}")
    os.makedirs(d, exist_ok=True)
    kinds = sorted(COMPONENTS)
    # The network every stack needs, then three to five other kinds.
    chosen = ["network"] + [k for k in (kinds[(s + step * 3) % len(kinds)] for step in range(3 + s % 3))
                            if k != "network"]
    chosen = list(dict.fromkeys(chosen))
    main = ""
    for kind in chosen:
        required = COMPONENTS[kind][0]
        inputs = "".join(f"  {v} = {COMPONENT_INPUTS[v]}\n" for v in required)
        if s % 97 == 5 and kind != "network":
            inputs += '  nmae = "typo"\n'
        main += (f'module "{kind}" {{\n  source = "../../modules/{component_name(kind, group)}"\n\n'
                 f'  name           = "${{local.prefix}}-{kind}"\n  environment    = var.environment\n'
                 f'  tags           = local.tags\n  enable_logging = var.environment == "prod"\n'
                 f'  retention_days = local.retention[var.environment]\n'
                 f'  settings = {{\n    owner = "team-{s % 20:02d}"\n    tier  = "{kind}"\n  }}\n'
                 f'{inputs}}}\n\n')
    write(os.path.join(d, "main.tf"), main)
    outputs = "".join(f'output "{kind}_id" {{\n  value = module.{kind}.id\n}}\n\n'
                      f'output "{kind}_arn" {{\n  value = module.{kind}.arn\n}}\n\n' for kind in chosen)
    if s % 89 == 7:
        outputs += f'output "missing" {{\n  value = module.{chosen[-1]}.no_such_output\n}}\n'
    write(os.path.join(d, "outputs.tf"), outputs)
    write(os.path.join(d, "variables.tf"),
          f'variable "environment" {{\n  type    = string\n  default = "{env}"\n}}\n\n'
          f'variable "region" {{\n  type    = string\n  default = "us-east-1"\n}}\n\n'
          f'locals {{\n  prefix = "app{s:05d}-${{var.environment}}"\n  tags = {{\n'
          f'    Stack       = "app{s:05d}"\n    Environment = var.environment\n  }}\n'
          f'  retention = {{\n    dev     = 7\n    staging = 30\n    prod    = 365\n  }}\n}}\n')
    write(os.path.join(d, "providers.tf"),
          'terraform {\n  required_version = ">= 1.6"\n\n  backend "s3" {\n'
          f'    bucket = "state"\n    key    = "app{s:05d}/terraform.tfstate"\n    region = "us-east-1"\n  }}\n\n'
          '  required_providers {\n    aws = {\n      source  = "hashicorp/aws"\n      version = "~> 5.0"\n'
          '    }\n  }\n}\n\nprovider "aws" {\n  region = var.region\n}\n')
    if s % 7 == 0:
        write(os.path.join(d, "override.tf"),
              'module "network" {\n  cidr = "10.99.0.0/16"\n}\n')


def components(out, stacks):
    groups = max(1, stacks // 25)
    m = 0
    for group in range(groups):
        for kind in sorted(COMPONENTS):
            component_module(out, kind, group, m)
            m += 1
    for s in range(stacks):
        component_stack(out, s, groups)


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
    if "--components" in args:
        components(out, int(args[args.index("--components") + 1]))
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
