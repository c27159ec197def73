#!/usr/bin/env bash
# A year of monthly renewals for 100 subscribers, with billing failures and refunds, against a
# release build. One Apple ID holds one subscription per group, so each subscriber is a world
# of its own: 100 scenario files (seeds 1..100), each a year of pro_monthly under
# sk2-hardened (billing retry, a 16-day grace period, recoveries, a refunded renewal, a late
# notification), run by one `iapsim check`, and by `iapsim run --quiet` one by one. Then
# explore's events per second for sk2-hardened, whose schedules now carry subscription
# steps (compare with an older build: IAPSIM_BIN=path bench/subscriptions.sh).
# Prints the figures; changes nothing in the repository. Usage: bench/subscriptions.sh
# Target: the 100 subscriber-years in well under a second of simulation each; explore's
# events per second within 20% of the build before subscriptions.
set -euo pipefail
source "$(dirname "$0")/release.sh"

DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

python3 - "$DIR" <<'PY'
import sys
d = sys.argv[1]
for n in range(1, 101):
    # A refund of the current period revokes the subscription until a new purchase (Apple's
    # rule), so it comes in the last month; a late notification in another.
    fail_month, late_month, refund_month = 1 + n % 10, 1 + (n * 7) % 11, 12
    steps = ["  - do: buy pro_monthly", "  - do: wait 1m"]
    for month in range(1, 13):
        if month == fail_month:
            steps += ["  - do: billing-fail on", "  - do: wait 30d", "  - do: billing-fail off"]
        elif month == refund_month:
            steps += ["  - do: wait 30d", "  - do: refund newest"]
        elif month == late_month:
            steps += ["  - do: delay-next-notification 2h", "  - do: wait 30d"]
        else:
            steps += ["  - do: wait 30d"]
    steps += ["  - do: wait 10d"]
    text = (f"format: 1\ntitle: subscriber {n}\npolicy: sk2-hardened\nseed: {n}\ngrace-period: 16d\n"
            "users: [alice]\nsteps:\n" + "\n".join(steps) + "\nexpect:\n  unresolved: 0\n")
    open(f"{d}/subscriber-{n:03}.yaml", "w").write(text)
PY

echo "iapsim subscriptions, $([[ -n ${IAPSIM_BIN:-} ]] && echo "$BIN" || echo "release build") ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
start=$(date +%s%N)
"$BIN" check "$DIR" >"$DIR/check.txt" || true
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "check of 100 subscriber-years: $(tail -1 "$DIR/check.txt"), ${ms} ms in all ($((ms / 100)) ms a subscriber)"
slowest=0
for f in "$DIR"/subscriber-*.yaml; do
  start=$(date +%s%N)
  "$BIN" run --quiet "$f" >/dev/null || true
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  (( ms > slowest )) && slowest=$ms
done
echo "run --quiet, the slowest subscriber-year: ${slowest} ms"
"$BIN" run "$DIR/subscriber-001.yaml" | grep -E '^(charged|refunded|money|subscription):' || true
json=$("$BIN" explore --policy sk2-hardened --runs 10000 --seed 1 --jobs 1 --json --out "$DIR/f" || true)
echo "explore sk2-hardened, 10000 runs: $(sed -E 's/.*"events_per_second":([-0-9.e+]+).*/\1/' <<<"$json") events/s," \
  "$(sed -E 's/.*"runs_per_second":([-0-9.e+]+).*/\1/' <<<"$json") runs/s"
