#!/usr/bin/env bash
# Benchmark of `iapsim serve` against the reference backend (release build, --time warp):
# explore's random StoreKit 2 schedules, RUNS runs, repeated; prints the reports per second
# (POST /apple/report exchanges), the exchanges per second, and how the wall time splits
# between the backend (the time its answers took, measured around each call) and iapsim's
# own (the world, signing, the API it serves, the HTTP client). Changes nothing in the
# repository. Usage: bench/serve.sh [repeats=3] [runs=100]
set -euo pipefail
source "$(dirname "$0")/release.sh"
REPEATS=${1:-3}
RUNS=${2:-100}
PYTHON="$(tools/apple-venv.sh)"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

echo "iapsim serve --explore --runs $RUNS against tools/refbackend (release build, --time warp)"
for i in $(seq 1 "$REPEATS"); do
  "$BIN" serve --config tools/refbackend/serve.yaml --spawn "$PYTHON tools/refbackend/refbackend.py" \
    --explore --runs "$RUNS" --seed "$i" --record "$OUT/rec.jsonl" >"$OUT/out.txt" 2>/dev/null || true
  line=$(head -1 "$OUT/out.txt")
  # "N runs of P against URL (seed S): K with unresolved anomalies; E exchanges, W ms (backend B ms)"
  exchanges=$(sed -E 's/.*; ([0-9]+) exchanges, ([0-9]+) ms \(backend ([0-9]+) ms\).*/\1/' <<<"$line")
  wall=$(sed -E 's/.*; ([0-9]+) exchanges, ([0-9]+) ms \(backend ([0-9]+) ms\).*/\2/' <<<"$line")
  backend=$(sed -E 's/.*; ([0-9]+) exchanges, ([0-9]+) ms \(backend ([0-9]+) ms\).*/\3/' <<<"$line")
  reports=$(grep -c '"path":"/apple/report"' "$OUT/rec.jsonl" || true)
  awk -v r="$reports" -v e="$exchanges" -v w="$wall" -v b="$backend" -v s="$i" 'BEGIN {
    printf "seed %d: %d reports, %d exchanges in %.2f s: %.0f reports/s, %.0f exchanges/s; backend %.2f s (%.0f%%), iapsim %.2f s (%.0f%%, %.2f ms an exchange)\n",
      s, r, e, w / 1000, r * 1000 / w, e * 1000 / w, b / 1000, 100 * b / w, (w - b) / 1000, 100 * (w - b) / w, (w - b) / e }'
done
