#!/usr/bin/env bash
# Truth pass 4's sweeps (issue 49, item 1; docs/world.md, "Whole units"): sk2-hardened explore
# must end every run clean. Release build, one explore per seed; prints the runs, the events,
# the unresolved anomalies per sweep and the seeds, and exits 1 when any sweep left one.
# Usage: bench/truth-sweep.sh [runs-per-seed=25000] [seeds=40] [jobs=1]
#   The default is the issue's figure: 1,000,000 runs over seeds 1-40 at the default steps;
#   then 100,000 at --steps 100, and 100,000 with each shipped and test .storekit, with and
#   without grants, and with a catalog whose consumables grant one unit each.
set -euo pipefail
source "$(dirname "$0")/release.sh"
PER_SEED=${1:-25000}
SEEDS=${2:-40}
JOBS=${3:-1}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# A grants file for the dungeon catalog and a catalog of one-unit consumables (the built-in
# products under a team's file without grants: every consumable credits 1 of itself).
printf 'gems_small: 80 gems\ngems_chest: 1000 gems\n' >"$OUT/dungeon-grants.yaml"
printf 'coins_100: 100 coins\ncoins_550: 550 coins\n' >"$OUT/builtin-grants.yaml"
printf 'com.example.puzzles.hints10: 10 hints\n' >"$OUT/v3-grants.yaml"
printf 'tutor.credits: 5 credits\n' >"$OUT/v5-grants.yaml"
printf 'coins_100: 1 coin\ncoins_550: 1 coin\n' >"$OUT/one-unit-grants.yaml"

field() { sed -E "s/.*\"$2\":([-0-9.e+]+).*/\1/" <<<"$1"; }
failed=0

# sweep NAME RUNS SEEDS [explore flags...]: SEEDS explores of RUNS runs each (seeds 1..SEEDS).
sweep() {
  local name=$1 runs=$2 seeds=$3
  shift 3
  local total=0 events=0 unresolved=0 bad_seeds=""
  for seed in $(seq 1 "$seeds"); do
    local json status=0
    json=$("$BIN" explore --policy sk2-hardened --runs "$runs" --seed "$seed" --jobs "$JOBS" --json \
      --out "$OUT/f-$name-$seed" "$@") || status=$?
    total=$((total + $(field "$json" runs)))
    events=$((events + $(field "$json" events)))
    if [[ $status -ne 0 ]]; then
      local u
      u=$(ls "$OUT/f-$name-$seed"/*.yaml 2>/dev/null | wc -l)
      unresolved=$((unresolved + 1))
      bad_seeds="$bad_seeds $seed($u finding(s))"
    fi
  done
  printf '%-44s runs %9d  events %11d  seeds 1-%-3d  seeds with unresolved: %d%s\n' \
    "$name" "$total" "$events" "$seeds" "$unresolved" "${bad_seeds:+ ->$bad_seeds}"
  [[ $unresolved -eq 0 ]] || failed=1
}

sweep "built-in catalog, default steps" "$PER_SEED" "$SEEDS"
sweep "built-in catalog, --steps 100" $((PER_SEED * SEEDS / 100)) 10 --steps 100
for catalog in scenarios/dungeon.storekit scenarios/iapsim.storekit Tests/Fixtures/storekit/v3.storekit \
  Tests/Fixtures/storekit/v4.storekit Tests/Fixtures/storekit/v5.storekit; do
  name=$(basename "$catalog" .storekit)
  sweep "$name, no grants (one unit each)" $((PER_SEED * SEEDS / 100)) 10 --storekit "$catalog"
  case $name in
    dungeon) grants=$OUT/dungeon-grants.yaml ;;
    iapsim) grants=$OUT/builtin-grants.yaml ;;
    v3) grants=$OUT/v3-grants.yaml ;;
    v5) grants=$OUT/v5-grants.yaml ;;
    *) grants= ;;
  esac
  if [[ -n $grants ]]; then
    sweep "$name, with grants" $((PER_SEED * SEEDS / 100)) 10 --storekit "$catalog" --grants "$grants"
  fi
done
# A catalog of our own whose consumables grant one unit each: the built-in products, one coin a pack.
sweep "built-in products, one unit a pack" $((PER_SEED * SEEDS / 100)) 10 --storekit scenarios/iapsim.storekit \
  --grants "$OUT/one-unit-grants.yaml"
exit "$failed"
