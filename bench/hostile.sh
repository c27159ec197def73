#!/usr/bin/env bash
# Hostile files against a release build: how long `iapsim run` takes to parse or refuse
# files of up to the 4 MB limit built to be costly (aliases, complex keys, deep nesting,
# huge maps, the most steps), and how long non-regular inputs take to be refused. The
# limit the format promises is 1 s per file whatever its anchors and aliases; each line
# prints the wall time, the peak memory and the first words of the answer. Changes nothing
# in the repository. Usage: bench/hostile.sh
set -euo pipefail
source "$(dirname "$0")/release.sh"

DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

python3 - "$DIR" <<'PY'
import sys
d = sys.argv[1]
head = "format: 1\ntitle: t\n"
def put(name, text):
    open(f"{d}/{name}", "w").write(text)
# The report's file: nine levels of aliases used as complex keys (78 s before).
t = head + "steps: []\nx: &a [a, b]\n"
prev = "a"
for i in range(9):
    t += f"? &l{i} [" + ", ".join([f"*{prev}"] * 9) + "]\n: v\n"
    prev = f"l{i}"
put("complex-key-aliases.yaml", t)
# 100 aliases (the most allowed), each level ten times the one below: 10^10 nodes as a tree.
t = head + "x:\n - &a0 [x, x, x, x, x, x, x, x, x, x]\n"
for i in range(1, 10):
    t += f" - &a{i} [" + ", ".join([f"*a{i-1}"] * 10) + "]\n"
put("alias-tree.yaml", t + "steps: *a9\n")
t = head + "steps:\n - &s0 {do: settle, say: [x, x, x, x, x, x, x, x, x, x]}\n"
for i in range(1, 10):
    t += f" - &s{i} {{do: settle, say: [" + ", ".join([f"*s{i-1}"] * 10) + "]}\n"
put("alias-in-steps.yaml", t)
# 4 MB shapes.
put("nesting.yaml", head + "steps: " + "[" * 4_000_000 + "\n")
put("many-keys.yaml", head + "steps: []\nx: {" + ", ".join(f"k{i}: 1" for i in range(350_000)) + "}\n")
put("long-story.yaml", head + "story: " + "a" * 4_000_000 + "\nsteps: []\n")
put("long-list.yaml", head + "steps: []\nx: [" + ",".join(["1"] * 2_000_000) + "]\n")
put("max-steps-parse.yaml", head + "steps:\n" + "  - do: wait 1s\n" * 20_000 + "expect: {charged: 1}\n")
# Just under the limits: the most values a file may hold, as one list and as full steps.
put("max-values-list.yaml", head + "steps: []\nx: [" + ",".join(["1"] * 199_990) + "]\n")
put("max-values-steps.yaml", head + "steps:\n"
    + "  - after: 1s\n    do: wait 1s\n    say: one more second\n" * 20_000)
put("too-many-steps.yaml", head + "steps:\n" + "  - do: settle\n" * 250_000)
put("long-title.yaml", "format: 1\ntitle: " + "t" * 4_000_000 + "\nsteps: []\n")
PY
mkfifo "$DIR/fifo.yaml"

# measure FILE: wall seconds, peak memory, exit status, the first 70 characters of the answer.
measure() {
  local code=0
  /usr/bin/time -o "$DIR/time" -f "%e s (cpu %U+%S)  %M KB" "$BIN" run --quiet "$1" >"$DIR/out" 2>"$DIR/err" || code=$?
  local status="$(tail -1 "$DIR/time")  exit $code"
  local answer=$(cat "$DIR/err" "$DIR/out" | grep -v '^$' | head -1 | sed "s|$DIR/||" | cut -c1-70)
  printf "%-26s %7s bytes  %-40s %s\n" "$(basename "$1")" "$(stat -c %s "$1")" "$status" "$answer"
}

echo "iapsim run on hostile files, release build ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
for f in "$DIR"/*.yaml /dev/zero; do measure "$f"; done

# Issue 25: numbers, intervals and outputs. Each line: wall time, peak memory, exit status,
# the first words of the answer.
python3 - "$DIR" <<'PY'
import sys
d = sys.argv[1]
head = "format: 1\ntitle: t\n"
def put(name, text):
    open(f"{d}/{name}", "w").write(text)
put("money-too-large.yaml", head + "steps: []\nexpect:\n  money: {paid-not-delivered: 99999999999999999999}\n")
put("seed-past-max.yaml", head + "seed: 18446744073709551616\nsteps: []\n")
put("retry-1ms.yaml", head + "policy: {preset: hardened, retry-interval: 1ms}\n"
    + "steps:\n  - do: store-outage on\n  - do: buy coins_100\n  - do: wait 720h\n")
put("wait-48h-in-ms.yaml", head + "steps:\n  - do: wait 172800000ms\n")
put("wait-too-long.yaml", head + "steps:\n  - do: wait 999999999h\n")
PY
echo
echo "issue 25: numbers and intervals"
for f in money-too-large seed-past-max retry-1ms wait-48h-in-ms wait-too-long; do measure "$DIR/$f.yaml"; done
# measure_flags LABEL ARGS...: like measure, for any command line.
measure_flags() {
  local label=$1 code=0
  shift
  /usr/bin/time -o "$DIR/time" -f "%e s (cpu %U+%S)  %M KB" "$BIN" "$@" >"$DIR/out" 2>"$DIR/err" || code=$?
  local answer=$(cat "$DIR/err" | grep -v '^$' | head -1 | sed "s|$DIR/||" | cut -c1-70)
  printf "%-32s %-40s %s\n" "$label" "$(tail -1 "$DIR/time")  exit $code" "$answer"
}
for speed in inf 1e19 1e309 -1; do measure_flags "play --speed $speed" play "$DIR/wait-48h-in-ms.yaml" --speed "$speed"; done
measure_flags "explore --seed 2^64" explore --seed 18446744073709551616
measure_flags "run --record onto the input" play "$DIR/wait-48h-in-ms.yaml" --record "$DIR/wait-48h-in-ms.yaml"
measure_flags "certs --out ''" certs --out ""
measure_flags "run --signed ''" run "$DIR/wait-48h-in-ms.yaml" --signed ""
