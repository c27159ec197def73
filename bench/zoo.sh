#!/usr/bin/env bash
# The bug zoo: for each planted bug of the non-hardened presets (each anomaly type that naive,
# local-table, retransmit, retry-file and sk2-naive leave unresolved), the number of runs
# explore needs to its first detection (the first failing run's index + 1), per seed, with
# `--swarm off` and `--swarm on`; prints per bug the median and the worst over the seeds.
# A bug not found within RUNS runs at a seed counts as ">RUNS" (and as RUNS+1 in the median).
# Release build (in .build-release) unless IAPSIM_BIN names another binary. Changes nothing
# in the repository.
# Usage: bench/zoo.sh [seeds=20] [runs=10000] [presets="naive local-table retransmit retry-file sk2-naive"]
# Not covered yet: the reference backend's BUGS= switches under serve --explore and the
# PurchaseManager mutants under SimulatedStore.explore.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SEEDS=${1:-20}
RUNS=${2:-10000}
PRESETS=${3:-"naive local-table retransmit retry-file sk2-naive"}
BIN=${IAPSIM_BIN:-}
if [[ -z $BIN ]]; then
  swift build -c release --scratch-path .build-release --product iapsim >/dev/null 2>&1
  BIN=$PWD/.build-release/release/iapsim
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# One line per (preset, swarm, seed, type): the runs to the first detection.
for preset in $PRESETS; do
  for swarm in off on; do
    for seed in $(seq 1 "$SEEDS"); do
      "$BIN" explore --policy "$preset" --runs "$RUNS" --seed "$seed" --swarm "$swarm" --jobs 1 \
        --json --out "$OUT/f" >"$OUT/report.json" || true
      python3 - "$OUT/report.json" "$preset" "$swarm" "$seed" >>"$OUT/firsts" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
first = {}
for index, types in report["failing_runs"].items():
    for t in types:
        first[t] = min(first.get(t, 1 << 62), int(index))
for t, i in sorted(first.items()):
    print(sys.argv[2], sys.argv[3], sys.argv[4], t, i + 1)
PY
    done
  done
done

python3 - "$OUT/firsts" "$SEEDS" "$RUNS" <<'PY'
import statistics, sys
seeds, runs = int(sys.argv[2]), int(sys.argv[3])
found = {}
for line in open(sys.argv[1]):
    preset, swarm, seed, t, n = line.split()
    found.setdefault((preset, t), {}).setdefault(swarm, {})[int(seed)] = int(n)
def column(by_seed):
    values = [by_seed.get(s, runs + 1) for s in range(1, seeds + 1)]
    worst = max(values)
    return statistics.median(values), (f">{runs}" if worst > runs else str(worst))
rows = []
for (preset, t), by in found.items():
    off_median, off_worst = column(by.get("off", {}))
    on_median, on_worst = column(by.get("on", {}))
    rows.append((off_median, preset, t, off_worst, on_median, on_worst))
rows.sort(reverse=True)
print(f"Runs to first detection over seeds 1-{seeds} (median, worst), at most {runs} runs:")
print()
print("| preset | anomaly type | swarm off median | off worst | swarm on median | on worst | off/on |")
print("|---|---|---:|---:|---:|---:|---:|")
for off_median, preset, t, off_worst, on_median, on_worst in rows:
    ratio = off_median / on_median if on_median else float("inf")
    print(f"| {preset} | {t} | {off_median:g} | {off_worst} | {on_median:g} | {on_worst} | {ratio:.2f} |")
rarest = rows[:5]
if rarest:
    off = statistics.median(r[0] for r in rarest)
    on = statistics.median(r[4] for r in rarest)
    print()
    print(f"rarest five (by swarm-off median): median of medians {off:g} off, {on:g} on ({off / on:.2f}x)")
PY
