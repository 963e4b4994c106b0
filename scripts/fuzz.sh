#!/usr/bin/env bash
# Fuzzes one target of fuzz/ for a while: scripts/fuzz.sh TARGET SECONDS
#   TARGET: parse_native, parse_json, directory or linear_work (see fuzz/fuzz_targets/).
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). The corpus under
# fuzz/corpus/TARGET (not committed) is seeded on the first run from tests/conformance,
# tests/corpus_sample, tests/fixtures and, when it is beside the checkout, ../shared/corpus.
# Fails on a crash or a timeout (an input taking over 2 s); the input is then copied to
# tests/fuzz_regressions/TARGET/, where `cargo test --test fuzz_regressions` runs it for good:
# commit it with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET SECONDS}
seconds=${2:?usage: scripts/fuzz.sh TARGET SECONDS}
case $target in
  parse_native | parse_json | directory | linear_work) ;;
  *) echo "error: unknown target $target (parse_native, parse_json, directory, linear_work)" >&2; exit 2 ;;
esac
if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "error: the nightly toolchain is missing (rustup toolchain install nightly)" >&2
  exit 3
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "error: cargo-fuzz is missing (cargo install cargo-fuzz)" >&2
  exit 3
fi

corpus=fuzz/corpus/$target
if [ ! -d "$corpus" ] || [ -z "$(ls -A "$corpus")" ]; then
  mkdir -p "$corpus"
  python3 scripts/fuzz_seeds.py "$target" "$corpus"
  echo "seeded $corpus with $(ls "$corpus" | wc -l) inputs"
fi

artifacts=fuzz/artifacts/$target
mkdir -p "$artifacts"
before=$(ls "$artifacts")
status=0
# No sanitizer: the crate has no unsafe code, and AddressSanitizer slows every run down. The
# directory target gets small inputs (four files of a few KB are plenty to combine every
# feature), so that it runs often enough to matter.
# linear_work parses each input with 32 repeats of a part of it: small inputs keep it fast.
max_len=()
[ "$target" = directory ] && max_len=(-max_len=16384)
[ "$target" = linear_work ] && max_len=(-max_len=4096)
cargo +nightly fuzz run --sanitizer none "$target" "$corpus" -- \
  -max_total_time="$seconds" -timeout=2 -rss_limit_mb=2048 -dict=fuzz/hcl.dict "${max_len[@]}" \
  -artifact_prefix="$artifacts/" -print_final_stats=1 > "fuzz/last-$target.log" 2>&1 \
  || status=$?
# libFuzzer prints a line per new coverage: the log keeps it all, the terminal gets the end.
if [ "$status" -ne 0 ]; then
  tail -n 40 "fuzz/last-$target.log"
  mkdir -p "tests/fuzz_regressions/$target"
  for input in $(ls "$artifacts"); do
    if ! grep -qxF "$input" <<<"$before"; then
      cp "$artifacts/$input" "tests/fuzz_regressions/$target/$input"
      echo "kept $artifacts/$input as tests/fuzz_regressions/$target/$input"
    fi
  done
  echo "error: fuzzing $target found a crash or a timeout" >&2
  exit "$status"
fi
echo "fuzz $target: $seconds s, no crash or timeout (log: fuzz/last-$target.log)"
grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' "fuzz/last-$target.log" || true
