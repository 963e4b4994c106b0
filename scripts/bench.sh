#!/usr/bin/env bash
# Benchmark: tflint-merge against the read+parse floor (benches/floor.rs), on the same trees, in
# one run. For each tree it prints files, bytes, CPU and wall seconds, MB/s and peak RSS of the
# floor and of the lint, with one thread and with all cores, then the ratios the performance
# goals are about: lint CPU / floor CPU, the -j 1 → -j N wall speed-up, lint RSS / floor RSS;
# and the linearity checks (20,000 vs 2,000 module directories; one directory of 5,000
# resources + 5,000 overrides vs the same bytes over 100 directories).
#
# usage: scripts/bench.sh [--quick] [--runs K]
#   --quick   small trees (the CI smoke run: the figures are printed, nothing is asserted)
#   --runs K  take the median of K runs of each measurement (default 3; 1 with --quick)
set -euo pipefail
cd "$(dirname "$0")/.."

quick=false
runs=3
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=true; runs=1 ;;
    --runs) runs="$2"; shift ;;
    *) echo "usage: scripts/bench.sh [--quick] [--runs K]" >&2; exit 2 ;;
  esac
  shift
done

cargo build --release --quiet
lint=target/release/tflint-merge
floor=$(cargo bench --bench floor --no-run --message-format=json 2>/dev/null \
  | python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "floor" and m.get("executable"):
        print(m["executable"])')
[ -x "$floor" ] || { echo "error: the floor benchmark did not build" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if $quick; then
  small=50 large=500 big=500 units=200
else
  small=2000 large=20000 big=5000 units=10000
fi
python3 scripts/gen_monorepo.py "$work/small" "$small"
python3 scripts/gen_monorepo.py "$work/large" "$large"
python3 scripts/gen_monorepo.py "$work/merge" --big-merge "$big"
python3 scripts/gen_monorepo.py "$work/spread" --big-merge "$big" --spread 100
python3 scripts/gen_monorepo.py "$work/terragrunt" 0 --terragrunt "$units"

cores=$(nproc)
# measure LABEL TOOL THREADS PATH: one line `label tool threads files bytes cpu wall rss_kb`
# (the median run by wall time).
measure() {
  local label="$1" tool="$2" threads="$3" path="$4" i out
  for i in $(seq "$runs"); do
    if [ "$tool" = lint ]; then
      out=$( { /usr/bin/time -f "TIME %U %S %e %M" "$lint" --stats --format short -j "$threads" \
        "$path" >/dev/null; } 2>&1 ) || true
    else
      out=$( { /usr/bin/time -f "TIME %U %S %e %M" "$floor" -j "$threads" "$path"; } 2>&1 )
    fi
    python3 - "$label" "$tool" "$threads" "$out" <<'PY'
import sys
label, tool, threads, out = sys.argv[1:]
stats = {}
for line in out.splitlines():
    if line.startswith("TIME "):
        user, system, wall, rss = line.split()[1:]
    elif "bytes=" in line:
        stats = dict(kv.split("=", 1) for kv in line.split())
cpu = float(user) + float(system)
print(label, tool, threads, stats.get("files", "0"), stats.get("bytes", "0"), cpu, wall, rss)
PY
  done | sort -k7 -g | awk -v n="$runs" 'NR == int((n + 1) / 2)'
}

results="$work/results.txt"
for tree in corpus small large merge spread terragrunt; do
  path="$work/$tree"
  if [ "$tree" = corpus ]; then
    [ -d ../shared/corpus ] || continue
    path=../shared/corpus
  fi
  for tool in floor lint; do
    for threads in 1 "$cores"; do
      measure "$tree" "$tool" "$threads" "$path" >> "$results"
    done
  done
done

python3 - "$results" "$cores" "$small" "$large" <<'PY'
import sys
path, cores, small, large = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rows = {}
for line in open(path):
    label, tool, threads, files, byts, cpu, wall, rss = line.split()
    rows[(label, tool, threads)] = dict(files=int(files), bytes=int(byts), cpu=float(cpu),
                                        wall=float(wall), rss=int(rss))
names = {"corpus": "../shared/corpus", "small": f"monorepo {small} dirs",
         "large": f"monorepo {large} dirs", "merge": "5k+5k overrides, 1 dir",
         "spread": "same bytes, 100 dirs", "terragrunt": "terragrunt units"}
print(f"cores: {cores}")
print(f"{'tree':<26} {'tool':<6} {'-j':>3} {'files':>7} {'bytes':>11} {'cpu_s':>7} {'wall_s':>7}"
      f" {'MB/s':>7} {'rss_MB':>7}")
for (label, tool, threads), r in rows.items():
    mbs = r["bytes"] / 1e6 / max(r["wall"], 1e-3)
    print(f"{names[label]:<26} {tool:<6} {threads:>3} {r['files']:>7} {r['bytes']:>11}"
          f" {r['cpu']:>7.2f} {r['wall']:>7.2f} {mbs:>7.1f} {r['rss'] / 1024:>7.1f}")
print()
print("goals: lint CPU <= 1.3x floor CPU; -j 1 -> -j N wall >= 1.8x; lint RSS <= 2x floor RSS")
for label in names:
    f1, fn = rows.get((label, "floor", "1")), rows.get((label, "floor", cores))
    l1, ln = rows.get((label, "lint", "1")), rows.get((label, "lint", cores))
    if not (f1 and fn and l1 and ln):
        continue
    print(f"{names[label]:<26} cpu lint/floor={ln['cpu'] / max(fn['cpu'], 1e-3):5.2f}"
          f"  speed-up -j1/-j{cores}={l1['wall'] / max(ln['wall'], 1e-3):5.2f}"
          f"  rss lint/floor={ln['rss'] / max(fn['rss'], 1):5.2f}")
def wall(label):
    r = rows.get((label, "lint", cores))
    return r["wall"] if r else None
if wall("small") and wall("large"):
    print(f"linearity: {large} dirs / {small} dirs wall = {wall('large') / wall('small'):.2f}"
          f" (goal <= {1.05 * large / small:.1f})")
if wall("merge") and wall("spread"):
    m1, s1 = rows[("merge", "lint", "1")]["wall"], rows[("spread", "lint", "1")]["wall"]
    print(f"linearity: 1 dir / 100 dirs wall (-j 1) = {m1 / max(s1, 1e-3):.2f} (goal <= 2)")
PY
