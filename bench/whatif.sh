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
echo "iapsim run FILE --quiet (release build; medians of $repeats; wall and CPU time, ms)"
for f in "${files[@]}"; do
  walls=() cpus=()
  for _ in $(seq "$repeats"); do
    start=$(date +%s%N)
    cpu=$( { /usr/bin/time -f '%U %S' "$BIN" run "$f" --quiet >/dev/null; } 2>&1 | tail -1 || true)
    walls+=($(( ($(date +%s%N) - start) / 1000000 )))
    cpus+=($(echo "$cpu" | awk '{ printf "%d", ($1 + $2) * 1000 }'))
  done
  mid=$(( (repeats + 1) / 2 ))
  wall=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "${mid}p")
  cpu=$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "${mid}p")
  anomalies=$("$BIN" run "$f" --quiet | grep -c '^  A[0-9]' || true)
  printf '%-58s %3d anomalies  wall %5d ms  cpu %5d ms\n' "$f" "$anomalies" "$wall" "$cpu"
done
