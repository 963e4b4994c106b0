#!/usr/bin/env bash
# Benchmark: a synthetic monorepo (>= 2,000 module directories, >= 20 MB), the shared real-world
# corpus, and one directory with 5,000 resources + 5,000 overrides (the merge alone).
# Prints directories, files, bytes, wall seconds and MB/s for each, with all cores and with -j 1.
set -euo pipefail
cd "$(dirname "$0")/.."
modules="${1:-2000}"
cargo build --release --quiet
bin=target/release/tflint-merge
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 scripts/gen_monorepo.py "$work/monorepo" "$modules"
python3 scripts/gen_monorepo.py "$work/merge" --big-merge 5000
python3 scripts/gen_monorepo.py "$work/terragrunt" 0 --terragrunt 5000
python3 scripts/gen_monorepo.py "$work/terragrunt-cycle" 0 --terragrunt 5000 --terragrunt-cycle
python3 scripts/gen_monorepo.py "$work/mixed" "$modules" --terragrunt 5000

run() { # label, threads, path
  local label="$1" threads="$2" path="$3" stats start end
  start=$(date +%s.%N)
  # Findings are expected (exit 1); only the figures matter here.
  stats=$("$bin" --stats --format short $threads "$path" 2>&1 >/dev/null | tail -n 1) || true
  end=$(date +%s.%N)
  python3 - "$label" "$stats" "$start" "$end" <<'PY'
import sys
label, stats, start, end = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
f = dict(kv.split("=") for kv in stats.split())
wall = end - start
mb = int(f["bytes"]) / 1e6
print(f"{label:<28} dirs={f['directories']:>6} files={f['files']:>7} bytes={int(f['bytes']):>11} "
      f"wall_s={wall:7.3f} MB/s={mb / wall:7.1f}")
PY
}

echo "cores: $(nproc)"
run "monorepo (all cores)" "" "$work/monorepo"
run "monorepo (-j 1)" "-j 1" "$work/monorepo"
if [ -d ../shared/corpus ]; then
  run "shared corpus (all cores)" "" ../shared/corpus
  run "shared corpus (-j 1)" "-j 1" ../shared/corpus
fi
run "5k resources + 5k overrides" "-j 1" "$work/merge/big"
run "terragrunt 5k units (all cores)" "" "$work/terragrunt"
run "terragrunt 5k units (-j 1)" "-j 1" "$work/terragrunt"
run "terragrunt 5k-unit cycle (-j 1)" "-j 1" "$work/terragrunt-cycle"
run "monorepo + terragrunt 5k" "" "$work/mixed"
