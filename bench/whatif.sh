#!/usr/bin/env bash
# How long `iapsim run` takes with the replays (caused by, prevented by, saved by): for
# generated files of 10, 40 and 100 anomalies (a third missed orders, each recharge request
# lost, the rest replays of an old receipt, under naive), for the scenario of a dozen
# anomalies (bench/whatif-dozen.yaml) and for the shipped scenarios with the costliest answers
# (pairs of changes). The replays share one replay per candidate change among every anomaly,
# and stop at a budget (WhatIf.replayEventBudget, events processed in all, and
# WhatIf.replayStepBudget); past it the verdict says so ("partly worked out"), and the last
# column says whether it did.
# Usage: bench/whatif.sh [repeats=3]. Prints the median wall time of each, in ms.
# Goal: 100 anomalies under 2 s (release build).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/release.sh"
repeats=${1:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A naive file with N anomalies: N/3 missed orders, then replays of the first receipt.
generate() {
  local n=$1 missed=$(( $1 / 3 )) out="$work/whatif-$1.yaml"
  {
    printf 'format: 1\ntitle: %d anomalies for bench/whatif.sh\npolicy: naive\nseed: 1\nusers: [alice]\nsteps:\n' "$n"
    printf '  - do: buy coins_100\n  - after: 10s\n    do: wait 1s\n'
    for _ in $(seq "$missed"); do
      printf '  - do: drop-next-request recharge\n  - do: buy coins_100\n  - after: 30s\n    do: wait 1s\n'
    done
    for _ in $(seq $(( n - missed ))); do printf '  - do: replay\n  - after: 1s\n    do: wait 1s\n'; done
  } >"$out"
  echo "$out"
}

files=(
  "$(generate 10)" "$(generate 40)" "$(generate 100)"
  bench/whatif-dozen.yaml
  scenarios/sk2-wrong-account-no-token-naive.yaml
  scenarios/replay-fraud-naive.yaml
  scenarios/duplicate-receipt-unfinished-failure-naive.yaml
  scenarios/lost-order-crash-at-charge-hardened.yaml
)
echo "iapsim run FILE --quiet (release build; medians of $repeats; wall and CPU time, ms)"
printf '%-60s %9s %9s %9s %s\n' file anomalies "wall ms" "cpu ms" "worked out"
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
  text=$("$BIN" run "$f" || true)
  anomalies=$(grep -c '^  A[0-9]' <<<"$text" || true)
  partial=$(grep -q 'partly worked out' <<<"$text" && echo partly || echo fully)
  name=$f
  [[ $f == "$work"/* ]] && name="generated: $(basename "$f")"
  printf '%-60s %9d %9d %9d %s\n' "$name" "$anomalies" "$wall" "$cpu" "$partial"
done
