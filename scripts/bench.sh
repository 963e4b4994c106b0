#!/usr/bin/env bash
# Benchmark: tflint-merge against the read+parse floor (benches/floor.rs), on the same trees, in
# one run. For each tree it prints files, bytes, CPU and wall seconds, MB/s and peak RSS of the
# floor and of the lint, with one thread and with all cores, then a table of the performance
# goals (#16), each MET or MISSED: lint CPU <= 1.3x the floor's (1.5x on the component repository,
# #31's goal for a tree whose directories call local modules), wall -j 1 -> -j N >= 1.8x,
# lint RSS <= 2x the floor's, time linear in input size (20,000 module directories <= 10.5x the
# time of 2,000; one directory of 5,000 resources + 5,000 overrides <= 2x the same bytes over
# 100 directories; one directory of 100,000 files <= 11x the time of 10,000 and <= 5 s; a chain
# of directories 1,000 deep <= 11x the time of 100 deep; each input that was once super-linear,
# at 10x the size, <= 10.5x the CPU time: the scaling rows, which replace a wall-clock ratio
# test that failed on a busy machine, each with the read+parse floor's ratio on the same inputs; every output format of a one-line 10 MB file with 100,000
# findings <= 1 s of CPU, and <= 11x the CPU of a tenth of it: the render rows; the language
# server's hover answered within 200 ms while another document's long check runs: the server row).
#
# usage: scripts/bench.sh [--quick] [--runs K] [--trees DIR] [--bin PATH]
#   --quick      small trees (the CI smoke run: the figures are printed, nothing is asserted)
#   --runs K     the median of at least K runs of each measurement (default 5; 1 with --quick);
#                a tree whose runs are quick gets more, up to 41, until its runs have taken
#                10 seconds: a busy machine's bursts then move its medians less. The runs
#                alternate floor and lint, -j 1 and -j N, so a busy machine slows all alike.
#   --trees DIR  keep the generated trees in DIR and reuse them in later runs (the 20,000-
#                directory monorepo is large and slow to write); default: a temporary
#                directory, removed at the end
#   --bin PATH   measure this tflint-merge binary instead of building the checkout's (to compare
#                two builds on the same trees)
#
# Times come from wait4(2) (user+system CPU) and a monotonic clock (wall), per run of the
# program started directly (posix_spawn, its output in a file); peak RSS from three more runs of
# each under /usr/bin/time. CPU time is the figure to trust on a shared machine; wall times and
# the -j speed-up need an idle one.
#
# The first tree is the whole corpus of real modules, ../shared/corpus, which sits beside a
# development checkout and is not part of the repository: without it the script stops.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=false
runs=5
trees=""
bin=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=true; runs=1 ;;
    --runs) runs="$2"; shift ;;
    --trees) trees="$2"; shift ;;
    --bin) bin="$2"; shift ;;
    *) echo "usage: scripts/bench.sh [--quick] [--runs K] [--trees DIR] [--bin PATH]" >&2; exit 2 ;;
  esac
  shift
done
corpus=../shared/corpus
if [ ! -d "$corpus" ]; then
  echo "error: $corpus is missing: the benchmark measures the corpus of real modules, which sits" \
    "beside a development checkout (it is not part of the repository)" >&2
  exit 2
fi

cargo build --release --quiet
lint=${bin:-target/release/tflint-merge}
floor=$(cargo bench --bench floor --no-run --message-format=json 2>/dev/null \
  | python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "floor" and m.get("executable"):
        print(m["executable"])')
[ -x "$floor" ] || { echo "error: the floor benchmark did not build" >&2; exit 1; }
[ -x "$lint" ] || { echo "error: no tflint-merge binary at $lint" >&2; exit 1; }
if [ -n "$trees" ]; then
  mkdir -p "$trees"
  work=$(realpath "$trees")
else
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi

if $quick; then
  small=50 large=500 big=500 units=200 wide=1000 deep=100 stacks=200
else
  small=2000 large=20000 big=5000 units=10000 wide=10000 deep=100 stacks=2000
fi
# generate NAME ARGS...: writes the tree once (a finished tree is marked, so a reused --trees
# directory never holds a half-written one).
generate() {
  local name="$1"
  shift
  [ -e "$work/$name.done" ] && return
  rm -rf "${work:?}/$name"
  python3 scripts/gen_monorepo.py "$work/$name" "$@"
  touch "$work/$name.done"
}
generate "small-$small" "$small"
generate "large-$large" "$large"
generate "merge-$big" --big-merge "$big"
generate "spread-$big" --big-merge "$big" --spread 100
generate "terragrunt-$units" 0 --terragrunt "$units"
generate "wide-$wide" --wide "$wide"
generate "wide-$((wide * 10))" --wide "$((wide * 10))"
generate "chain-$deep" --chain "$deep"
generate "chain-$((deep * 10))" --chain "$((deep * 10))"
generate "components-$stacks" --components "$stacks"

python3 - "$lint" "$floor" "$runs" "$quick" "$(nproc)" "$corpus" \
  "$work/small-$small" "$small" "$work/large-$large" "$large" \
  "$work/merge-$big" "$work/spread-$big" "$work/terragrunt-$units" "$units" \
  "$work/wide-$wide" "$work/wide-$((wide * 10))" "$wide" \
  "$work/chain-$deep" "$work/chain-$((deep * 10))" "$deep" "$work/components-$stacks" "$stacks" \
  "$work" <<'PY'
import os, statistics, subprocess, sys, time

(lint, floor, runs, quick, cores, corpus, small, n_small, large, n_large, merge, spread,
 terragrunt, n_units, wide, wider, n_wide, chain, longer, n_deep, components, n_stacks,
 work) = sys.argv[1:]
runs, cores = int(runs), int(cores)
# Quick trees are run until their runs have taken this long (or MAX_RUNS runs).
MIN_SECONDS, MAX_RUNS = 10.0, 41
trees = [("corpus", "../shared/corpus", corpus),
         ("components", f"components {n_stacks} stacks", components),
         ("small", f"monorepo {n_small} dirs", small),
         ("large", f"monorepo {n_large} dirs", large),
         ("merge", "5k+5k overrides, 1 dir" if n_small == "2000" else "big merge, 1 dir", merge),
         ("spread", "same bytes, 100 dirs", spread),
         ("terragrunt", f"terragrunt {n_units} units", terragrunt),
         ("wide", f"1 dir, {n_wide} files", wide),
         ("wider", f"1 dir, {int(n_wide) * 10} files", wider),
         ("chain", f"chain {n_deep} deep", chain),
         ("longer", f"chain {int(n_deep) * 10} deep", longer)]
trees = [t for t in trees if t[2]]
threads = ["1", str(cores)] if cores > 1 else ["1"]

def argv_of(tool, j, path):
    if tool == "lint":
        return [lint, "--stats", "--format", "short", "-j", j, path]
    return [floor, "-j", j, path]

def spawn(argv, ok=(0, 1)):
    """Runs argv with its output in a file: (output, rusage, wall seconds). posix_spawn, not
    fork: forking this script copies its page tables before the exec, about 1 ms of every wall
    time that is not the program's. wait4 gives the CPU time of the child and its children to
    the microsecond (subprocess reaps the child itself and loses it). A file, not a pipe: this
    script reading a pipe wakes at each write and takes a core from the program while it runs
    (the corpus's -j 2 speed-up read 0.02-0.05 lower)."""
    out_path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"bench-out-{os.getpid()}")
    out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    start = time.monotonic()
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, out, 1),
                                       (os.POSIX_SPAWN_DUP2, out, 2)])
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - start
    os.close(out)
    with open(out_path, "rb") as f:
        output = f.read()
    os.remove(out_path)
    # The exit status, or minus the signal that ended the program.
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status)
    if code not in ok:
        sys.exit(f"error: {' '.join(argv)} exited with {code}")
    return output, usage, wall

def run(tool, j, path):
    """One run of the program itself: (cpu seconds, wall seconds, files, bytes). No wrapper
    stands between: one (/usr/bin/time, as this script used before) adds its own exec and exit,
    1-3 ms, to every wall time, which lowers every -j speed-up of a quick tree."""
    out, usage, wall = spawn(argv_of(tool, j, path))
    stats = {}
    for line in out.decode(errors="replace").splitlines():
        if "bytes=" in line:
            stats = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
    return (usage.ru_utime + usage.ru_stime, wall,
            int(stats.get("files", 0)), int(stats.get("bytes", 0)))

def peak_rss(tool, j, path):
    """Peak RSS in KiB of one run, from /usr/bin/time, which runs the program: a process
    started from Python counts Python's memory in its own peak (Linux keeps the peak across
    exec, and a posix_spawn child shares the parent's memory until it)."""
    rss_file = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"bench-rss-{os.getpid()}")
    spawn(["/usr/bin/time", "-o", rss_file, "-f", "%M"] + argv_of(tool, j, path))
    with open(rss_file) as f:
        rss = int(f.read().split()[-1])
    os.remove(rss_file)
    return rss

# Peak RSS varies little from run to run: the median of this many runs of each.
RSS_RUNS = 3

rows = {}
for key, _, path in trees:
    samples = {}
    started = time.monotonic()
    done = 0
    while done < runs or (quick != "true" and done < MAX_RUNS
                          and time.monotonic() - started < MIN_SECONDS):
        for tool in ("floor", "lint"):
            for j in threads:
                samples.setdefault((tool, j), []).append(run(tool, j, path))
        done += 1
    rss = {}
    for _ in range(1 if quick == "true" else RSS_RUNS):
        for tool in ("floor", "lint"):
            for j in threads:
                rss.setdefault((tool, j), []).append(peak_rss(tool, j, path))
    for (tool, j), got in samples.items():
        rows[(key, tool, j)] = dict(
            cpu=statistics.median(s[0] for s in got), wall=statistics.median(s[1] for s in got),
            rss=statistics.median(rss[(tool, j)]), files=got[0][2], bytes=got[0][3],
            runs=len(got))

print(f"cores: {cores}; medians of at least {runs} alternating runs (see runs); "
      f"CPU = user + system; peak RSS: median of {1 if quick == 'true' else RSS_RUNS} runs")
print(f"{'tree':<26} {'tool':<6} {'-j':>3} {'files':>7} {'bytes':>11} {'cpu_s':>7} {'wall_s':>7}"
      f" {'MB/s':>7} {'rss_MB':>7} {'runs':>5}")
for key, name, _ in trees:
    for tool in ("floor", "lint"):
        for j in threads:
            r = rows[(key, tool, j)]
            mbs = r["bytes"] / 1e6 / max(r["wall"], 1e-6)
            print(f"{name:<26} {tool:<6} {j:>3} {r['files']:>7} {r['bytes']:>11}"
                  f" {r['cpu']:>7.3f} {r['wall']:>7.3f} {mbs:>7.1f} {r['rss'] / 1024:>7.1f}"
                  f" {r['runs']:>5}")

def verdict(value, goal, at_most=True):
    met = value <= goal if at_most else value >= goal
    return "MET" if met else "MISSED"

n = threads[-1]
print()
print("goals (#16, #31): the corpus, the component repository and the monorepos are judged; "
      "the other trees are shown")
print(f"{'tree':<26} {'goal':<34} {'value':>7}  verdict")
def line(name, goal, value, verdict_text):
    print(f"{name:<26} {goal:<34} {value:>7.2f}  {verdict_text}")
# #31's goal for a tree where most directories call local modules: reading the modules they
# call costs more there than anywhere.
CPU_GOAL = {"components": 1.5}
for key, name, _ in trees:
    judged = key in ("corpus", "components", "small", "large")
    mark = (lambda v: v) if judged else (lambda v: f"({v})")
    f1, fn, l1, ln = (rows[(key, t, j)] for t in ("floor", "lint") for j in ("1", n))
    goal = CPU_GOAL.get(key, 1.3)
    ratio = ln["cpu"] / max(fn["cpu"], 1e-6)
    line(name, f"lint CPU / floor CPU (-j {n}) <= {goal}", ratio, mark(verdict(ratio, goal)))
    ratio1 = l1["cpu"] / max(f1["cpu"], 1e-6)
    line(name, f"lint CPU / floor CPU (-j 1) <= {goal}", ratio1, mark(verdict(ratio1, goal)))
    if n != "1":
        speed = l1["wall"] / max(ln["wall"], 1e-6)
        line(name, f"wall -j 1 / -j {n} >= 1.8", speed, mark(verdict(speed, 1.8, at_most=False)))
    rss = ln["rss"] / max(fn["rss"], 1)
    line(name, "lint RSS / floor RSS <= 2", rss, mark(verdict(rss, 2)))
def lint_figure(key, j, what):
    r = rows.get((key, "lint", j))
    return r[what] if r else None
if lint_figure("small", n, "wall") and lint_figure("large", n, "wall"):
    goal = 1.05 * int(n_large) / int(n_small)
    for what in ("wall", "cpu"):
        ratio = lint_figure("large", n, what) / max(lint_figure("small", n, what), 1e-6)
        line("linearity", f"{n_large}/{n_small} dirs {what} <= {goal:.1f}", ratio,
             verdict(ratio, goal))
for short, long, what in (("wide", "wider", "files in 1 dir"), ("chain", "longer", "chain depth")):
    if lint_figure(short, n, "wall") and lint_figure(long, n, "wall"):
        for measure in ("wall", "cpu"):
            ratio = lint_figure(long, n, measure) / max(lint_figure(short, n, measure), 1e-6)
            line("linearity", f"10x {what} {measure} <= 11", ratio, verdict(ratio, 11))
if quick != "true" and lint_figure("wider", n, "wall"):
    seconds = lint_figure("wider", n, "wall")
    line("scale", f"{int(n_wide) * 10} files in 1 dir wall <= 5 s", seconds, verdict(seconds, 5))
if lint_figure("merge", "1", "wall") and lint_figure("spread", "1", "wall"):
    for what in ("wall", "cpu"):
        ratio = lint_figure("merge", "1", what) / max(lint_figure("spread", "1", what), 1e-6)
        line("linearity", f"1 dir / 100 dirs {what} (-j 1) <= 2", ratio, verdict(ratio, 2))

# Inputs that were once super-linear (a quadratic path in the parser, the merge, the ignore
# comments or the config reader), each at a base size and at 10x: the CPU time of one lint run
# (-j 1, the median of the runs) must grow at most 10.5x, as a linear path does; a quadratic
# one grows about 100x. CPU time, not wall time: a busy machine's bursts move it less.
def scaling_inputs(n):
    """(name, files) of each input at size n: files maps a path below the tree to its text."""
    attributes = "".join(f"  a{i} = {i}\n" for i in range(n))
    top_level = "".join(f"a{i} = {i}\n" for i in range(n))
    repeated = "".join(f'resource "x" "r{i}" {{\n  v = {i}\n}}\n' for i in range(n // 5))
    ignored = "".join(f'module "m{i}" {{\n  # tflint-merge-ignore: module_source_not_static\n'
                      f"  source = var.s\n}}\n" for i in range(n // 2))
    return [
        ("attributes in a body", {"m/main.tf": f"locals {{\n{attributes}}}\n"}),
        # Each an `Unsupported argument` finding, as the tools refuse it.
        ("top-level attributes", {"m/main.tf": top_level}),
        ("JSON keys", {"m/main.tf.json":
                           '{"locals": {' + ", ".join(f'"k{i}": {i}' for i in range(n)) + "}}"}),
        ("repeated attribute", {"m/main.tf": repeated + "dup = 1\n" * 20}),
        ("JSON key repeated", {"m/main.tofu.json":
                                      '{"locals": {' + ", ".join(['"k": 1'] * n) + "}}"}),
        ("JSON local in N blocks", {"m/main.tofu.json":
                                        '{"locals": [' + ", ".join(['{"k": 1}'] * n) + "]}"}),
        ("findings under ignores", {"m/main.tf": ignored}),
        ("config nested deep", {".tflint-merge.yaml": "exclude: " + "[" * n + "]" * n + "\n",
                                  "m/main.tf": 'variable "a" {}\n'}),
        ("findings on one long line", {"m/main.tf.json": '{"locals": {' + ", ".join(
            ['"k": "' + "x" * 91 + '"'] * (n // 10)) + "}}"}),
        ("SARIF of findings on one long line", {"m/main.tf.json": '{"locals": {' + ", ".join(
            ['"k": "' + "x" * 91 + '"'] * (n // 10)) + "}}"}),
        ("ignores naming unknown rules", {"m/main.tf": "".join(
            f'# tflint-merge-ignore: no_such_rule_{i}\nvariable "v{i}" {{}}\n'
            for i in range(n // 2))}),
        ("fixes of one file", {"m/main.tf": "".join(
            f'# tflint-merge-ignore: module_source_not_static\nvariable "v{i}" {{}}\n'
            for i in range(n // 2))}),
    ]

base = 2_000 if quick == "true" else 20_000
scaling = {}
for size in (base, 10 * base):
    for name, files in scaling_inputs(size):
        tree = os.path.join(work, f"scaling-{size}-{name.replace(' ', '-')}")
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(tree, path)), exist_ok=True)
            with open(os.path.join(tree, path), "w") as f:
                f.write(text)
        # The whole tree, as a user runs it; the deep config is refused (exit status 2).
        # Human output for the long line (its excerpts are windowed), and SARIF (its
        # fingerprints hash the text around each finding, not the line); `--diff` computes and
        # applies every fix in memory without touching the tree.
        # Every finding rendered (`--show-all-findings`): these rows time the rendering of
        # all of them, which the bound would cut to a thousand.
        shown = {"findings on one long line": ["--format", "human", "--color", "never",
                                               "--show-all-findings"],
                 "SARIF of findings on one long line": ["--format", "sarif",
                                                        "--show-all-findings"],
                 "fixes of one file": ["--format", "short", "--diff"]}
        argv = [lint, *shown.get(name, ["--format", "short"]), "-j", "1", tree]
        # The read+parse floor on the same tree (with the lint's own parser), alternating with
        # the lint: how much of the growth the machine gives any program that reads, parses
        # and holds that much (fresh memory costs more per byte as a run takes more of it).
        floor_argv = [floor, "-j", "1", "--parser", "own", tree]
        cpu, floor_cpu = [], []
        for _ in range(runs if quick == "true" else max(runs, 5)):
            _, usage, _ = spawn(argv, ok=(0, 1, 2))
            cpu.append(usage.ru_utime + usage.ru_stime)
            _, usage, _ = spawn(floor_argv)
            floor_cpu.append(usage.ru_utime + usage.ru_stime)
        scaling[(name, size)] = statistics.median(cpu)
        scaling[(name, size, "floor")] = statistics.median(floor_cpu)
for name, _ in scaling_inputs(1):
    small_cpu, large_cpu = scaling[(name, base)], scaling[(name, 10 * base)]
    ratio = large_cpu / max(small_cpu, 1e-6)
    floor_ratio = scaling[(name, 10 * base, "floor")] / max(scaling[(name, base, "floor")], 1e-6)
    line("scaling", f"{name} x10 cpu <= 10.5", ratio,
         f"{verdict(ratio, 10.5)} (floor x10: {floor_ratio:.2f})")

# Every format of a one-line `.tf.json` file with 100,000 duplicate keys, 10 MB (10,000 keys,
# 1 MB, at the base; a tenth of both with --quick), as a user runs it: past 1,000 findings of
# one rule in one file one finding counts the others (`diagnostic::bound`). At 10x the
# findings, the CPU time (-j 1, user + system, the median of the runs) must grow at most 11x,
# and stay under a second (#36).
FORMATS = ["human", "short", "json", "sarif", "github", "checkstyle", "junit", "gitlab"]
keys = base // 2
render = {}
for size in (keys, 10 * keys):
    tree = os.path.join(work, f"render-{size}")
    os.makedirs(os.path.join(tree, "m"), exist_ok=True)
    with open(os.path.join(tree, "m", "main.tf.json"), "w") as f:
        f.write('{"locals":{' + ",".join(f'"k{i % 10}":"' + "x" * 92 + '"'
                                         for i in range(size)) + "}}")
    for fmt in FORMATS:
        argv = [lint, "--format", fmt, "--color", "never", "-j", "1", tree]
        cpu = []
        for _ in range(runs if quick == "true" else max(runs, 5)):
            _, usage, _ = spawn(argv)
            cpu.append(usage.ru_utime + usage.ru_stime)
        render[(fmt, size)] = statistics.median(cpu)
for fmt in FORMATS:
    small_cpu, large_cpu = render[(fmt, keys)], render[(fmt, 10 * keys)]
    ratio = large_cpu / max(small_cpu, 1e-6)
    line("render", f"{fmt}: x10 findings cpu <= 11", ratio, verdict(ratio, 11))
    line("render", f"{fmt}: {10 * keys - 10} findings cpu s <= 1", large_cpu,
         verdict(large_cpu, 1))

# The language server while one document's check takes long (#37): a `locals` block of 150,000
# `for` expressions, a few megabytes (15,000 with --quick), is opened in one directory; half a
# second later, while it is still being checked, another directory's document is hovered ten
# times. Each answer must come within 200 ms: checks run off the reader.
def server_hover_latencies(items):
    import json, queue, threading
    root = os.path.join(work, "server")
    for sub in ("slow", "fast"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    base = ('resource "aws_instance" "web" {\n  ami = "ami-1"\n}\n')
    with open(os.path.join(root, "fast", "main.tf"), "w") as f:
        f.write(base)
    with open(os.path.join(root, "slow", "main.tf"), "w") as f:
        f.write("")
    slow = "locals {\n" + "".join(f'  k{i} = [for x in var.l : "${{x}}-{i}" if x != "a"]\n'
                                  for i in range(items)) + "}\n"
    server = subprocess.Popen([lint, "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    inbox = queue.Queue()

    def read():
        while True:
            length = None
            header = server.stdout.readline()
            if not header:
                return
            while header.strip():
                if header.lower().startswith(b"content-length:"):
                    length = int(header.split(b":")[1])
                header = server.stdout.readline()
            inbox.put((time.monotonic(), json.loads(server.stdout.read(length))))

    threading.Thread(target=read, daemon=True).start()

    def send(message):
        body = json.dumps(message).encode()
        server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        server.stdin.flush()

    def answer_to(request_id):
        while True:
            at, message = inbox.get(timeout=60)
            if message.get("id") == request_id:
                return at

    def uri(name):
        return "file://" + os.path.join(root, name)

    send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
          "params": {"processId": None, "rootUri": "file://" + root, "capabilities": {}}})
    answer_to(0)
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    for name, text in (("fast/main.tf", base), ("slow/main.tf", slow)):
        document = {"uri": uri(name), "languageId": "terraform", "version": 1, "text": text}
        send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
              "params": {"textDocument": document}})
    time.sleep(0.5)
    latencies = []
    for request_id in range(1, 11):
        sent = time.monotonic()
        send({"jsonrpc": "2.0", "id": request_id, "method": "textDocument/hover",
              "params": {"textDocument": {"uri": uri("fast/main.tf")},
                         "position": {"line": 0, "character": 2}}})
        latencies.append(answer_to(request_id) - sent)
        time.sleep(0.05)
    send({"jsonrpc": "2.0", "id": 11, "method": "shutdown", "params": None})
    answer_to(11)
    send({"jsonrpc": "2.0", "method": "exit"})
    server.wait(timeout=60)
    return latencies


latencies = server_hover_latencies(15_000 if quick == "true" else 150_000)
slowest = max(latencies) * 1000
line("server", "hover beside a long check: ms <= 200", slowest, verdict(slowest, 200))

PY
