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

serve() { # BUGS LOGNAME [FLAG ...]: prints the exit status
  local status=0 bugs="$1" name="$2"
  shift 2
  BUGS="$bugs" "$iapsim" serve --config tools/refbackend/serve.yaml \
    --spawn "$python tools/refbackend/refbackend.py" --log "$out/$name.jsonl" "$@" scenarios/serve/*.yaml \
    >"$out/$name.out" 2>"$out/$name.err" || status=$?
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
# The same with every twin delivery raced (docs/serve.md, rule 26), and the sandbox's own files
# (one serve serves one environment).
raced="$(serve "" raced --race)"
[ "$raced" -eq 0 ] && echo "serve-matrix: no bug, --race: $(tail -1 "$out/raced.out")" \
  || { echo "serve-matrix: no bug, --race: expected exit 0, got $raced" >&2; cat "$out/raced.out" >&2; failed=1; }
sandbox=0
"$iapsim" serve --config tools/refbackend/serve.yaml --spawn "$python tools/refbackend/refbackend.py" \
  scenarios/serve/sandbox/*.yaml >"$out/sandbox.out" 2>"$out/sandbox.err" || sandbox=$?
[ "$sandbox" -eq 0 ] && echo "serve-matrix: sandbox files: $(tail -1 "$out/sandbox.out")" \
  || { echo "serve-matrix: sandbox files: expected exit 0, got $sandbox" >&2; cat "$out/sandbox.out" >&2; failed=1; }
while read -r bug flags expected; do
  [ "$flags" = "-" ] && flags=""
  # shellcheck disable=SC2086  # the flags are words
  status="$(serve "$bug" "$bug" $flags)"
  types="$(judged "$out/$bug.jsonl")"
  hit=""
  for t in $expected; do case " $types " in *" $t "*) hit="$t" ;; esac; done
  if [ "$status" -ne 1 ] || [ -z "$hit" ]; then
    echo "serve-matrix: BUGS=$bug $flags: expected exit 1 with one of [$expected], got exit $status with [$types]" >&2
    cat "$out/$bug.out" >&2
    failed=1
  else
    echo "serve-matrix: BUGS=$bug $flags: exit 1, $(tail -1 "$out/$bug.out"), found $hit (all: $types)"
  fi
done <<'TABLE'
no-dedup - double-credit
no-pagination - missed-order lost-order
ack-before-commit - acked-not-credited
no-clawback - refund-unclawed
credit-reporter - replay-fraud wrong-account
no-verify - replay-fraud
racy-dedup --race double-credit
TABLE
# no-expiry leaves no anomaly (a subscription's timeline is not judged under serve): the access
# read from its ledger fails subscription-expired.yaml's expectation.
expiry="$(serve no-expiry no-expiry)"
if [ "$expiry" -eq 1 ] && grep -q "^FAIL .*subscription-expired.yaml" "$out/no-expiry.out" \
  && grep -q "subscriptions alice access" "$out/no-expiry.out"; then
  echo "serve-matrix: BUGS=no-expiry: exit 1, $(tail -1 "$out/no-expiry.out"), subscription-expired.yaml's access"
else
  echo "serve-matrix: BUGS=no-expiry: expected exit 1 failing subscription-expired.yaml's access, got $expiry" >&2
  cat "$out/no-expiry.out" >&2
  failed=1
fi
# racy-dedup is a race: one delivery at a time it must pass.
calm="$(serve racy-dedup racy-calm)"
[ "$calm" -eq 0 ] && echo "serve-matrix: BUGS=racy-dedup without --race: $(tail -1 "$out/racy-calm.out")" \
  || { echo "serve-matrix: BUGS=racy-dedup without --race: expected exit 0, got $calm" >&2; failed=1; }
exit "$failed"
