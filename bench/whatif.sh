#!/usr/bin/env bash
# How long `iapsim run` takes with the replays (caused by, prevented by, saved by) for the
# scenario of a dozen anomalies (bench/whatif-dozen.yaml) and the shipped scenarios with the
# costliest answers (pairs of changes). The replays' count per run is printed too.
# Usage: bench/whatif.sh [repeats=5]. Prints the median wall time of each, in ms.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/release.sh"
repeats=${1:-5}
files=(
  bench/whatif-dozen.yaml
  scenarios/sk2-wrong-account-no-token-naive.yaml
  scenarios/replay-fraud-naive.yaml
  scenarios/fresh-receipt-after-finish-naive.yaml
  scenarios/duplicate-receipt-unfinished-failure-naive.yaml
  scenarios/lost-order-crash-at-charge-hardened.yaml
)
for f in "${files[@]}"; do
  times=()
  for _ in $(seq "$repeats"); do
    start=$(date +%s%N)
    "$BIN" run "$f" --quiet >/dev/null || true
    times+=($(( ($(date +%s%N) - start) / 1000000 )))
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (repeats + 1) / 2 ))p")
  anomalies=$("$BIN" run "$f" --quiet | grep -c '^  A[0-9]' || true)
  printf '%-60s %3d anomalies  median %5d ms\n' "$f" "$anomalies" "$median"
done
