#!/usr/bin/env bash
# Benchmark of the simulation engine through `iapsim explore` (release build): simulated
# events per second and runs per second on one core (`--jobs 1`) for `hardened`, `naive` and
# the two StoreKit 2 presets, 10,000 default-size runs each, repeated; then `--jobs 2` against `--jobs 1`; then, when
# valgrind is installed, the instructions per run (a count that does not depend on the load
# of the machine). Prints the figures; changes nothing in the repository.
# Usage: bench/explore.sh [repeats=9] [runs=10000]
set -euo pipefail
source "$(dirname "$0")/release.sh"
REPEATS=${1:-9}
RUNS=${2:-10000}

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# field JSON NAME: one number field of explore's --json object.
field() { sed -E "s/.*\"$2\":([-0-9.e+]+).*/\1/" <<<"$1"; }

# stats: min, median and max of the numbers on stdin.
stats() {
  sort -g | awk '{v[NR] = $1} END {printf "min %.0f  median %.0f  max %.0f", v[1], v[int((NR + 1) / 2)], v[NR]}'
}

# explore POLICY JOBS: one run of explore; prints "events_per_second runs_per_second seconds".
explore() {
  local json
  json=$("$BIN" explore --policy "$1" --runs "$RUNS" --seed 1 --jobs "$2" --json --out "$OUT/f" || true)
  echo "$(field "$json" events_per_second) $(field "$json" runs_per_second) $(field "$json" seconds) $(field "$json" events)"
}

echo "iapsim explore, $RUNS runs, seed 1, $REPEATS repeats ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
for policy in hardened naive sk2-hardened sk2-naive; do
  : >"$OUT/$policy"
  for ((i = 0; i < REPEATS; i++)); do explore "$policy" 1 >>"$OUT/$policy"; done
  events=$(awk '{print $4; exit}' "$OUT/$policy")
  echo "$policy, --jobs 1 ($events events in all)"
  echo "  events/s  $(awk '{print $1}' "$OUT/$policy" | stats)"
  echo "  runs/s    $(awk '{print $2}' "$OUT/$policy" | stats)"
  echo "  seconds   $(awk '{print $3}' "$OUT/$policy" | sort -g | awk '{v[NR] = $1} END {printf "min %.3f  median %.3f  max %.3f", v[1], v[int((NR + 1) / 2)], v[NR]}')"
done

# --jobs 2 against --jobs 1, alternating so that both see the same load.
: >"$OUT/j1"; : >"$OUT/j2"
for ((i = 0; i < REPEATS; i++)); do
  explore hardened 1 >>"$OUT/j1"
  explore hardened 2 >>"$OUT/j2"
done
j1=$(awk '{print $2}' "$OUT/j1" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
j2=$(awk '{print $2}' "$OUT/j2" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
echo "hardened --jobs 2: median $(printf '%.0f' "$j2") runs/s against $(printf '%.0f' "$j1") with --jobs 1 ($(awk -v a="$j2" -v b="$j1" 'BEGIN {printf "%.2fx", a / b}'))"

if command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null; then
  # valgrind reads no DWARF 5: a copy without debug information keeps the symbols it needs.
  strip --strip-debug -o "$OUT/iapsim" "$BIN"
  for policy in hardened naive sk2-hardened sk2-naive; do
    valgrind --tool=callgrind --callgrind-out-file="$OUT/cg" "$OUT/iapsim" explore --policy "$policy" \
      --runs 300 --seed 1 --out "$OUT/f" >/dev/null 2>&1 || true
    # Explorer.run(_:in:), inclusive: one whole run (schedule, world restart, steps, heal,
    # settle, verdict).
    callgrind_annotate --inclusive=yes "$OUT/cg" 2>/dev/null |
      awk -v p="$policy" '/ExplorerV3run_2inAA10RunOutcomeV/ && !done {gsub(",", "", $1)
        printf "%s: %d instructions per run (callgrind, 300 runs)\n", p, $1 / 300; done = 1}'
  done
else
  echo "(valgrind not installed: no instruction counts)"
fi
