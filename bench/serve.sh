#!/usr/bin/env bash
# Benchmark of `iapsim serve` against the reference backend (release build, --time warp), on
# two workloads: the shipped scenarios/serve/*.yaml files (reports and notifications, a few
# reconciliation ticks), and explore's random StoreKit 2 schedules, RUNS runs (whose
# subscription steps wait for months: the backend's reconciliation tick, every 6 h, then
# dominates, each calling the App Store Server API that iapsim serves). For each, repeated:
# the reports per second (POST /apple/report exchanges), the exchanges per second, the API
# calls the backend made, and how the wall time splits between the backend (the time its
# answers took, measured around each call, which includes the API calls iapsim answers
# meanwhile) and iapsim's own (the world, signing, the HTTP client). The backend's time is
# summed exactly and rounded once (until 39b each exchange was rounded down to whole ms, which
# gave iapsim half a millisecond of the backend's time per exchange, about 5 points of share),
# and a race's exchanges, in flight together, count their common wall time once (until 39b
# each counted its own, the overlap twice). Time before the first file or run (iapsim's start,
# the spawned backend's start and /healthz) is in neither. Changes nothing in the repository. The files and explore run with --race too (twin deliveries on two connections at
# once). Usage: bench/serve.sh [repeats=3] [runs=20]
set -euo pipefail
source "$(dirname "$0")/release.sh"
REPEATS=${1:-3}
RUNS=${2:-20}
PYTHON="$(tools/apple-venv.sh)"
OUT=$(mktemp -d)
declare -A SHARES=() # row -> iapsim's share of each repeat
ROWS=()
trap 'rm -rf "$OUT"' EXIT

# figures LABEL: one line from $OUT/out.txt (the wall and backend ms), rec.jsonl and log.jsonl.
figures() {
  local wall backend exchanges reports api
  # Files: each line "PASS  file  (virtual ..., E exchanges, W ms, backend B ms)";
  # explore: "N runs of P against URL (seed S): K with ...; E exchanges, W ms (backend B ms)".
  read -r exchanges wall backend < <(python3 - "$OUT/out.txt" <<'PY'
import re, sys
e = w = b = 0
for line in open(sys.argv[1]):
    m = re.search(r"(\d+) exchanges?, (\d+) ms,? \(?backend (\d+) ms", line)
    if m:
        e, w, b = e + int(m[1]), w + int(m[2]), b + int(m[3])
print(e, w, b)
PY
)
  reports=$(grep -c '"path":"/apple/report"' "$OUT/rec.jsonl" || true)
  ticks=$(grep -c '"path":"/jobs/reconcile"' "$OUT/rec.jsonl" || true)
  raced=$(grep -c '"race":true' "$OUT/rec.jsonl" || true)
  api=$(grep -c 'App Store Server API: ' "$OUT/log.jsonl" || true)
  local line
  line=$(awk -v l="$1" -v r="$reports" -v e="$exchanges" -v w="$wall" -v b="$backend" -v a="$api" -v t="$ticks" -v x="$raced" 'BEGIN {
    if (w == 0) w = 1
    printf "%s: %d reports, %d exchanges (%d raced), %d ticks, %d API calls in %.2f s: %.1f reports/s, %.0f exchanges/s; backend %.2f s (%.1f%%), iapsim %.2f s (%.1f%%, %.2f ms an exchange)\n",
      l, r, e, x, t, a, w / 1000, r * 1000 / w, e * 1000 / w, b / 1000, 100 * b / w, (w - b) / 1000, 100 * (w - b) / w, (w - b) / (e ? e : 1) }')
  echo "$line"
  local row=${1%%, repeat*}
  [[ -n ${SHARES[$row]:-} ]] || ROWS+=("$row")
  SHARES[$row]+=" $(sed -E 's/.*iapsim [0-9.]+ s \(([0-9.]+%).*/\1/' <<<"$line")"
}

serve() { # ARGS...: one serve against a freshly spawned reference backend
  "$BIN" serve --config tools/refbackend/serve.yaml --spawn "$PYTHON tools/refbackend/refbackend.py 2>/dev/null" \
    --record "$OUT/rec.jsonl" --log "$OUT/log.jsonl" "$@" >"$OUT/out.txt" 2>/dev/null || true
}

echo "iapsim serve against tools/refbackend (release build, --time warp; $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
for i in $(seq 1 "$REPEATS"); do
  serve scenarios/serve/*.yaml
  figures "files, repeat $i"
done
for i in $(seq 1 "$REPEATS"); do
  serve --race scenarios/serve/*.yaml
  figures "files --race, repeat $i"
done
# Explore: the ticks column is the cost of the backend's reconciliation under explore (each run
# lasts as long as its schedule's waits, and a tick fires at every multiple of `every`).
for i in $(seq 1 "$REPEATS"); do
  serve --explore --runs "$RUNS" --seed "$i"
  figures "explore --runs $RUNS --seed $i"
done
serve --explore --race --runs "$RUNS" --seed 1
figures "explore --race --runs $RUNS --seed 1"
# The issue's target: iapsim's own share under 10% of the wall on every row.
echo "iapsim's own share of the wall (target: under 10%):"
for row in "${ROWS[@]}"; do echo "  $row:${SHARES[$row]}"; done
