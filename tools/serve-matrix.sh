#!/usr/bin/env bash
# The mutation matrix of `iapsim serve` (docs/serve.md, "How CI proves it"): every
# scenarios/serve/*.yaml passes against the reference backend with no bug (exit 0), and each
# bug switch makes at least one file fail (exit 1) with the anomaly type that bug causes,
# judged by --log: an anomaly of that type whose final status is open or permanent (any
# status for acked-not-credited).
#   tools/serve-matrix.sh IAPSIM PYTHON      (PYTHON: tools/apple-venv.sh's interpreter)
set -euo pipefail
cd "$(dirname "$0")/.."
iapsim="$1"
python="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

serve() { # BUGS LOGNAME: prints the exit status
  local status=0
  BUGS="$1" "$iapsim" serve --config tools/refbackend/serve.yaml \
    --spawn "$python tools/refbackend/refbackend.py" --log "$out/$2.jsonl" scenarios/serve/*.yaml \
    >"$out/$2.out" 2>"$out/$2.err" || status=$?
  echo "$status"
}

# The anomaly types of a log whose final status is open or permanent (acked-not-credited: any).
judged() {
  python3 - "$1" <<'PY'
import json, sys
status, types = {}, {}
world = 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o.get("kind") == "world":
        world = o["world"]
    elif o.get("kind") in ("anomalyOpened", "anomalyStatusChanged"):
        key = (world, o["id"])
        status[key] = o["status"]
        types[key] = o.get("type", types.get(key))
found = sorted({types[k] for k, s in status.items()
                if s in ("open", "permanent") or types[k] == "acked-not-credited"})
print(" ".join(found))
PY
}

failed=0
clean="$(serve "" clean)"
if [ "$clean" -ne 0 ]; then
  echo "serve-matrix: no bug: expected exit 0, got $clean" >&2
  cat "$out/clean.out" >&2
  failed=1
else
  echo "serve-matrix: no bug: $(tail -1 "$out/clean.out")"
fi
while read -r bug expected; do
  status="$(serve "$bug" "$bug")"
  types="$(judged "$out/$bug.jsonl")"
  hit=""
  for t in $expected; do case " $types " in *" $t "*) hit="$t" ;; esac; done
  if [ "$status" -ne 1 ] || [ -z "$hit" ]; then
    echo "serve-matrix: BUGS=$bug: expected exit 1 with one of [$expected], got exit $status with [$types]" >&2
    cat "$out/$bug.out" >&2
    failed=1
  else
    echo "serve-matrix: BUGS=$bug: exit 1, $(tail -1 "$out/$bug.out"), found $hit (all: $types)"
  fi
done <<'TABLE'
no-dedup double-credit
no-pagination missed-order lost-order
ack-before-commit acked-not-credited
no-clawback refund-unclawed
credit-reporter replay-fraud wrong-account
no-verify replay-fraud
TABLE
exit "$failed"
