#!/usr/bin/env bash
# Benchmark of the app-code harness (IAPSimStoreKit, docs/app-code.md), release build, one
# core: a harness run of one purchase under a fault (`drop-next-response recharge`: launch,
# the purchase, the heal, the relaunch, the verdict), and 1,000 explore runs of
# Examples/PurchaseManager; then the cost of one verdict's what-if (`await store.verdict()`
# after a replayed report under a naive server: a replay of the app's run per candidate
# setting). Prints the figures; changes nothing in the repository.
# Targets (issue 40): a purchase with a fault under 10 ms; 1,000 explore runs under 10 s.
# Usage: bench/app-code.sh [purchases=200] [runs=1000]
# (`.build-edge/release/purchase-manager-bench findings` prints what explore finds in each
# of the example's planted bugs, shrunk.)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --scratch-path .build-edge --product purchase-manager-bench >/dev/null 2>&1
BIN=$PWD/.build-edge/release/purchase-manager-bench
echo "machine: $(nproc) core(s), load $(cut -d' ' -f1-3 /proc/loadavg); pinned to core 0"
taskset -c 0 "$BIN" "${1:-200}" "${2:-1000}"
