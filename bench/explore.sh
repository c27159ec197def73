#!/usr/bin/env bash
# Benchmark of the simulation engine through `iapsim explore` (release build): simulated
# events per second and runs per second on one core (`--jobs 1`) for `hardened`, `naive` and
# the two StoreKit 2 presets, 10,000 default-size runs each, repeated; then `--jobs 2` against `--jobs 1`; then, when
# valgrind is installed, the instructions per run (a count that does not depend on the load
# of the machine). Prints the figures; changes nothing in the repository.
# With IAPSIM_BASE_BIN set to another build (an older commit's release binary), each repeat
# runs that build right after this one, so both see the same load, and the rates of both and
# their ratio are printed per preset: the way to compare builds on a host whose speed is not
# the reviewer's. IAPSIM_BIN still names this build (built here when unset).
# Usage: [IAPSIM_BASE_BIN=...] bench/explore.sh [repeats=9] [runs=10000]
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

# explore POLICY JOBS [BINARY]: one run of explore; prints "events_per_second runs_per_second
# seconds events".
explore() {
  local json
  json=$("${3:-$BIN}" explore --policy "$1" --runs "$RUNS" --seed 1 --jobs "$2" --json --out "$OUT/f" || true)
  echo "$(field "$json" events_per_second) $(field "$json" runs_per_second) $(field "$json" seconds) $(field "$json" events)"
}

# median COLUMN FILE: the median of one column.
median() { awk -v c="$1" '{print $c}' "$2" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

if [[ -n ${IAPSIM_BASE_BIN:-} ]]; then
  [[ -x $IAPSIM_BASE_BIN ]] || { echo "IAPSIM_BASE_BIN: no executable at $IAPSIM_BASE_BIN" >&2; exit 2; }
  echo "iapsim explore, $RUNS runs, seed 1, $REPEATS repeats, --jobs 1, this build ($BIN) and the base" \
    "($IAPSIM_BASE_BIN) in turn ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
  for policy in hardened naive sk2-hardened sk2-naive; do
    : >"$OUT/head"; : >"$OUT/base"
    for ((i = 0; i < REPEATS; i++)); do
      explore "$policy" 1 >>"$OUT/head"
      explore "$policy" 1 "$IAPSIM_BASE_BIN" >>"$OUT/base"
    done
    awk -v p="$policy" -v he="$(median 1 "$OUT/head")" -v hr="$(median 2 "$OUT/head")" \
      -v hn="$(median 4 "$OUT/head")" -v be="$(median 1 "$OUT/base")" -v br="$(median 2 "$OUT/base")" \
      -v bn="$(median 4 "$OUT/base")" -v runs="$RUNS" 'BEGIN {
        printf "%s, medians\n", p
        printf "  this build  events/s %9.0f  runs/s %7.0f  events/run %5.1f\n", he, hr, hn / runs
        printf "  base        events/s %9.0f  runs/s %7.0f  events/run %5.1f\n", be, br, bn / runs
        printf "  this/base   events/s %.3fx  runs/s %.3fx\n", he / be, hr / br }'
  done
  exit 0
fi

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
    # settle, verdict). Beside it (issue 53's targets): the share of retain/release (the
    # runtime's swift_retain, swift_release and their bridge-object forms, inclusive, all
    # called from the runs but for start-up's few) and the process outside the runs.
    callgrind_annotate --inclusive=yes "$OUT/cg" 2>/dev/null | awk -v p="$policy" '
      { n = $1; gsub(",", "", n) }
      /PROGRAM TOTALS/ { total = n }
      /ExplorerV3run_2inAA10RunOutcomeV/ && !runs { runs = n }
      /\?\?\?:swift_(bridgeObject)?(retain|release) \[/ { rr += n }
      END {
        target["hardened"] = 130000; target["naive"] = 120000
        target["sk2-hardened"] = 230000; target["sk2-naive"] = 130000
        printf "%s: %d instructions per run (callgrind, 300 runs; target %d)\n", p, runs / 300, target[p]
        printf "  retain/release %.1f%% of the runs (target under 10%%); outside the runs %.1fM (target under 20M)\n",
          100 * rr / runs, (total - runs) / 1e6
      }'
  done
else
  echo "(valgrind not installed: no instruction counts)"
fi
