#!/usr/bin/env bash
# Captures every output of a tflint-merge binary, for a byte-identical comparison of two builds
# (the performance work of #16 must not change a byte): every --format on examples/ and
# ../shared/corpus, both views, colour, `--diff` (safe and unsafe fixes), `rules`, `explain` of
# every rule, `merged` of every example and fixture directory in both views and both formats,
# `graph` of the Terragrunt fixtures, and `-j 1` next to `-j 2` on the corpus.
#
# usage: scripts/capture_outputs.sh BIN OUTDIR
#   then: diff -r OUTDIR_BEFORE OUTDIR_AFTER   (must print nothing)
#
# ../shared/corpus, the corpus of real modules, sits beside a development checkout and is not
# part of the repository: without it the script stops.
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: scripts/capture_outputs.sh BIN OUTDIR" >&2; exit 2; }
if [ ! -d "$(dirname "$0")/../../shared/corpus" ]; then
  echo "error: ../shared/corpus is missing: the outputs are captured on the corpus of real" \
    "modules, which sits beside a development checkout (it is not part of the repository)" >&2
  exit 2
fi
B=$(realpath "$1")
mkdir -p "$2"
O=$(realpath "$2")
cd "$(dirname "$0")/.."
for fmt in human json sarif short github checkstyle junit gitlab; do
  for t in examples ../shared/corpus; do
    n=$(basename "$t")
    "$B" --format "$fmt" --color never "$t" > "$O/$n.$fmt.out" 2> "$O/$n.$fmt.err"
    echo "exit=$?" >> "$O/$n.$fmt.out"
  done
done
# What --fix would write, as diffs (nothing is written): the safe fixes, then the unsafe ones
# too, on the examples and the corpus, each run from inside the tree (a diff leaves out files
# that `patch -p1` run from the working directory cannot reach).
for t in examples ../shared/corpus; do
  n=$(basename "$t")
  (cd "$t" && "$B" --diff . > "$O/$n.diff.out" 2> "$O/$n.diff.err"; echo "exit=$?" >> "$O/$n.diff.out")
  (cd "$t" && "$B" --diff --unsafe-fixes . > "$O/$n.diff-unsafe.out" 2> "$O/$n.diff-unsafe.err"
    echo "exit=$?" >> "$O/$n.diff-unsafe.out")
done
for j in 1 2; do
  "$B" -j "$j" --format json ../shared/corpus > "$O/corpus.j$j.out" 2>&1
  echo "exit=$?" >> "$O/corpus.j$j.out"
done
for v in terraform opentofu; do
  "$B" --view "$v" --format json examples > "$O/examples.view-$v.out" 2>&1
  echo "exit=$?" >> "$O/examples.view-$v.out"
done
"$B" --color always examples > "$O/examples.color.out" 2>&1
"$B" rules > "$O/rules.out" 2>&1
for r in $("$B" rules | awk 'NR>1{print $1}'); do "$B" explain "$r" >> "$O/explain.out" 2>&1; done
for d in $(find examples tests/fixtures -type d | sort); do
  for v in terraform opentofu; do
    for f in hcl json; do
      echo "== $d $v $f" >> "$O/merged.out"
      "$B" merged "$d" --view "$v" --format "$f" >> "$O/merged.out" 2>&1
      echo "exit=$?" >> "$O/merged.out"
    done
  done
done
for d in $(find tests/fixtures -maxdepth 3 -type d -name '*terragrunt*' -o -maxdepth 3 -type d \
  -name 'live*' | sort); do
  echo "== $d" >> "$O/graph.out"
  "$B" graph "$d" >> "$O/graph.out" 2>&1
  echo "exit=$?" >> "$O/graph.out"
done
for fmt in human json sarif; do
  for d in tests/fixtures/terragrunt tests/fixtures/merge tests/fixtures/render; do
    n=$(echo "$d" | tr / _)
    "$B" --format "$fmt" --color never "$d" > "$O/$n.$fmt.out" 2>&1
    echo "exit=$?" >> "$O/$n.$fmt.out"
  done
done
