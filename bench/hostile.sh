#!/usr/bin/env bash
# Hostile files against a release build: how long `iapsim run` takes to parse or refuse
# files of up to the 4 MB limit built to be costly (aliases, complex keys, deep nesting,
# huge maps, the most steps), and how long non-regular inputs take to be refused. The
# limit the format promises is 1 s per file whatever its anchors and aliases; each line
# prints the wall time, the peak memory and the first words of the answer. Changes nothing
# in the repository. Usage: bench/hostile.sh
set -euo pipefail
source "$(dirname "$0")/release.sh"

DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

python3 - "$DIR" <<'PY'
import sys
d = sys.argv[1]
head = "format: 1\ntitle: t\n"
def put(name, text):
    open(f"{d}/{name}", "w").write(text)
# The report's file: nine levels of aliases used as complex keys (78 s before).
t = head + "steps: []\nx: &a [a, b]\n"
prev = "a"
for i in range(9):
    t += f"? &l{i} [" + ", ".join([f"*{prev}"] * 9) + "]\n: v\n"
    prev = f"l{i}"
put("complex-key-aliases.yaml", t)
# 100 aliases (the most allowed), each level ten times the one below: 10^10 nodes as a tree.
t = head + "x:\n - &a0 [x, x, x, x, x, x, x, x, x, x]\n"
for i in range(1, 10):
    t += f" - &a{i} [" + ", ".join([f"*a{i-1}"] * 10) + "]\n"
put("alias-tree.yaml", t + "steps: *a9\n")
t = head + "steps:\n - &s0 {do: settle, say: [x, x, x, x, x, x, x, x, x, x]}\n"
for i in range(1, 10):
    t += f" - &s{i} {{do: settle, say: [" + ", ".join([f"*s{i-1}"] * 10) + "]}\n"
put("alias-in-steps.yaml", t)
# 4 MB shapes.
put("nesting.yaml", head + "steps: " + "[" * 4_000_000 + "\n")
put("many-keys.yaml", head + "steps: []\nx: {" + ", ".join(f"k{i}: 1" for i in range(350_000)) + "}\n")
put("long-story.yaml", head + "story: " + "a" * 4_000_000 + "\nsteps: []\n")
put("long-list.yaml", head + "steps: []\nx: [" + ",".join(["1"] * 2_000_000) + "]\n")
put("max-steps-parse.yaml", head + "steps:\n" + "  - do: wait 1s\n" * 20_000 + "expect: {charged: 1}\n")
# Just under the limits: the most values a file may hold, as one list and as full steps.
put("max-values-list.yaml", head + "steps: []\nx: [" + ",".join(["1"] * 199_990) + "]\n")
put("max-values-steps.yaml", head + "steps:\n"
    + "  - after: 1s\n    do: wait 1s\n    say: one more second\n" * 20_000)
put("too-many-steps.yaml", head + "steps:\n" + "  - do: settle\n" * 250_000)
put("long-title.yaml", "format: 1\ntitle: " + "t" * 4_000_000 + "\nsteps: []\n")
PY
mkfifo "$DIR/fifo.yaml"

# measure FILE: wall seconds, peak memory, exit status, the first 70 characters of the answer.
measure() {
  local code=0
  /usr/bin/time -o "$DIR/time" -f "%e s (cpu %U+%S)  %M KB" "$BIN" run --quiet "$1" >"$DIR/out" 2>"$DIR/err" || code=$?
  local status="$(tail -1 "$DIR/time")  exit $code"
  local answer=$(cat "$DIR/err" "$DIR/out" | grep -v '^$' | head -1 | sed "s|$DIR/||" | cut -c1-70)
  printf "%-26s %7s bytes  %-40s %s\n" "$(basename "$1")" "$(stat -c %s "$1")" "$status" "$answer"
}

echo "iapsim run on hostile files, release build ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
for f in "$DIR"/*.yaml /dev/zero; do measure "$f"; done

# Issue 25: numbers, intervals and outputs. Each line: wall time, peak memory, exit status,
# the first words of the answer.
python3 - "$DIR" <<'PY'
import sys
d = sys.argv[1]
head = "format: 1\ntitle: t\n"
def put(name, text):
    open(f"{d}/{name}", "w").write(text)
put("money-too-large.yaml", head + "steps: []\nexpect:\n  money: {paid-not-delivered: 99999999999999999999}\n")
put("seed-past-max.yaml", head + "seed: 18446744073709551616\nsteps: []\n")
put("retry-1ms.yaml", head + "policy: {preset: hardened, retry-interval: 1ms}\n"
    + "steps:\n  - do: store-outage on\n  - do: buy coins_100\n  - do: wait 720h\n")
put("wait-48h-in-ms.yaml", head + "steps:\n  - do: wait 172800000ms\n")
put("wait-too-long.yaml", head + "steps:\n  - do: wait 999999999h\n")
PY
echo
echo "issue 25: numbers and intervals"
for f in money-too-large seed-past-max retry-1ms wait-48h-in-ms wait-too-long; do measure "$DIR/$f.yaml"; done
# measure_flags LABEL ARGS...: like measure, for any command line.
measure_flags() {
  local label=$1 code=0
  shift
  /usr/bin/time -o "$DIR/time" -f "%e s (cpu %U+%S)  %M KB" "$BIN" "$@" >"$DIR/out" 2>"$DIR/err" || code=$?
  local answer=$(cat "$DIR/err" | grep -v '^$' | head -1 | sed "s|$DIR/||" | cut -c1-70)
  printf "%-32s %-40s %s\n" "$label" "$(tail -1 "$DIR/time")  exit $code" "$answer"
}
for speed in inf 1e19 1e309 -1; do measure_flags "play --speed $speed" play "$DIR/wait-48h-in-ms.yaml" --speed "$speed"; done
measure_flags "explore --seed 2^64" explore --seed 18446744073709551616
measure_flags "run --record onto the input" play "$DIR/wait-48h-in-ms.yaml" --record "$DIR/wait-48h-in-ms.yaml"
measure_flags "certs --out ''" certs --out ""
measure_flags "run --signed ''" run "$DIR/wait-48h-in-ms.yaml" --signed ""

# Issue 36: serve as a network tool, and the new surfaces. Each line: wall time, peak memory,
# exit status, the first words of the answer (the bound stated in docs/serve.md, "Limits").
echo
echo "issue 36: serve's inputs, backend and API; subscriptions, handouts, replays"
python3 - "$DIR" <<'PY'
import sys
d = sys.argv[1]
head = "format: 1\ntitle: t\n"
def put(name, text):
    open(f"{d}/{name}", "w").write(text)
put("ext.yaml", head + "merchant: external\npolicy: sk2-hardened\nsteps:\n  - do: buy coins_100\n")
t = "x: &a0 [k, k, k, k, k, k, k, k, k, k]\n"
for i in range(1, 9):
    t += f"x{i}: &a{i} [" + ", ".join([f"*a{i-1}"] * 10) + "]\n"
put("serve-alias-bomb.yaml", t)
put("serve-3.5MB.yaml", "\n".join(f"m{m}: {{" + ", ".join(f"k{k}: v" for k in range(900)) + "}" for m in range(400)) + "\n")
put("serve-crlf.yaml", 'users: {alice: {headers: {X-Token: "a\\r\\nX-Admin: 1"}}}\n')
put("serve-tick-huge.yaml", "ticks: [{path: /t, every: 99999999999999999d}]\n")
put("serve-tick-1ms.yaml", "ticks: [{path: /t, every: 1ms}]\n")
put("record-block-1.jsonl", '{"iapsim-serve-record":1,"block":-1}\n')
put("subs-300x400d.yaml", head + "policy: sk2-hardened\nsteps:\n  - do: buy pro_monthly\n" + "  - do: wait 400d\n" * 300)
put("replays-1000.yaml", head + "policy: naive\nusers: [mallory]\nsteps:\n  - do: buy coins_100\n"
    + "  - after: 10s\n    do: replay\n" * 1000)
put("outage-buy-wait-100.yaml", head + "policy: hardened\nsteps:\n"
    + "  - do: store-outage on\n  - do: buy coins_100\n  - do: wait 720h\n" * 100)
PY
mkfifo "$DIR/fifo.json"
back=(--backend http://127.0.0.1:9)
measure_flags "serve.yaml alias bomb" serve "${back[@]}" --config "$DIR/serve-alias-bomb.yaml" "$DIR/ext.yaml"
measure_flags "serve.yaml 3.5 MB" serve "${back[@]}" --config "$DIR/serve-3.5MB.yaml" "$DIR/ext.yaml"
measure_flags "serve.yaml CR LF in a header" serve "${back[@]}" --config "$DIR/serve-crlf.yaml" "$DIR/ext.yaml"
measure_flags "tick every 99999999999999999d" serve "${back[@]}" --config "$DIR/serve-tick-huge.yaml" "$DIR/ext.yaml"
measure_flags "tick every 1ms" serve "${back[@]}" --config "$DIR/serve-tick-1ms.yaml" "$DIR/ext.yaml"
measure_flags "--backend :99999" serve --backend http://127.0.0.1:99999 "$DIR/ext.yaml"
measure_flags "serve --explore --runs 2^64-1" serve "${back[@]}" --explore --runs 18446744073709551615
measure_flags "serve --explore --skip 2^64-1" serve "${back[@]}" --explore --skip 18446744073709551615
measure_flags "--replay block -1" serve --replay "$DIR/record-block-1.jsonl" "$DIR/ext.yaml"
measure_flags "--port-file onto serve.yaml" serve "${back[@]}" --config "$DIR/serve-tick-1ms.yaml" --port-file "$DIR/serve-tick-1ms.yaml" "$DIR/ext.yaml"
measure_flags "--record onto a FIFO" serve "${back[@]}" --record "$DIR/fifo.json" "$DIR/ext.yaml"
measure_flags "--config a FIFO" serve "${back[@]}" --config "$DIR/fifo.json" "$DIR/ext.yaml"
measure_flags "--api-listen 203.0.113.7:0" serve --replay Tests/Fixtures/serve/refbackend-two-files.jsonl \
  --config tools/refbackend/serve.yaml --api-listen 203.0.113.7:0 scenarios/serve/purchase-credited.yaml
hostile=Tests/Fixtures/serve/hostile_round3.py
measure_flags "/healthz trickles (30 s bound)" serve --spawn "MODE=trickle-healthz python3 $hostile" "$DIR/ext.yaml"
measure_flags "answers never end (10 s each)" serve --spawn "MODE=trickle python3 $hostile" "$DIR/ext.yaml"
measure_flags "ledger clawback -2^63" serve --spawn "MODE=ledger-huge python3 $hostile" --ledger /ledger "$DIR/ext.yaml"
measure_flags "ledger coins 1e300" serve --spawn "MODE=ledger-1e300 python3 $hostile" --ledger /ledger "$DIR/ext.yaml"
# The what-if's replays, bounded by their event budget (WhatIf.replayEventBudget; goal: each
# under 2 s), and the handouts of 1,000 anomalies (pages of at most 120 KB): wall and CPU
# seconds, peak memory in MB, and whether the replays' answers were worked out in full.
echo
echo "issue 36: what-if and handouts (wall s, cpu s, peak MB)"
measure_cost() {
  local label=$1 code=0
  shift
  /usr/bin/time -o "$DIR/time" -f "%e %U %S %M" "$BIN" "$@" >"$DIR/out" 2>"$DIR/err" || code=$?
  read -r wall user sys kb <"$DIR/time"
  local answers=$(grep -q 'partly worked out' "$DIR/out" && echo "partly worked out" || echo "fully worked out")
  grep -q 'not worked out\|found by replay for files of at most' "$DIR/out" && answers="not replayed (over 400 steps)"
  printf "%-38s %6.2f s  cpu %6.2f s  %5d MB  exit %d  %s\n" "$label" "$wall" \
    "$(echo "$user + $sys" | bc)" $((kb / 1024)) "$code" "$answers"
}
# Round 2: two outputs on one new folder are refused before anything prints (no PASS).
measure_flags "--signed, --diagram on one new folder" run "$DIR/wait-48h-in-ms.yaml" --signed "$DIR/new" \
  --diagram "$DIR/new"
echo "  printed before the refusal: $(wc -c <"$DIR/out") bytes; $DIR/new exists: $([[ -e $DIR/new ]] && echo yes || echo no)" \
  | sed "s|$DIR/||"
measure_cost "subscriptions 300 x wait 400d (5 KB)" run --quiet "$DIR/subs-300x400d.yaml"
measure_cost "round 1: 100 x (outage, buy, 720h)" run --quiet "$DIR/outage-buy-wait-100.yaml"
rm -rf "$DIR/handouts"
measure_cost "--handout, 1,000 replays (30 KB)" run --quiet "$DIR/replays-1000.yaml" --handout "$DIR/handouts"
largest=$(find "$DIR/handouts" -type f -printf '%s\n' 2>/dev/null | sort -n | tail -1)
echo "  handouts: $(ls "$DIR/handouts" 2>/dev/null | wc -l) pages, $(du -sm "$DIR/handouts" 2>/dev/null | cut -f1) MB," \
  "the largest $(( ${largest:-0} / 1024 )) KB"
# The API under 10,000 idle connections: CPU seconds it used in 5 s, then a 2 MB body.
"$BIN" serve --replay Tests/Fixtures/serve/refbackend-two-files.jsonl --config tools/refbackend/serve.yaml \
  --port-file "$DIR/ports.json" --hold scenarios/serve/purchase-credited.yaml \
  scenarios/serve/refund-clawed-back.yaml >/dev/null 2>&1 &
held=$!
for _ in $(seq 100); do [[ -s $DIR/ports.json ]] && break; sleep 0.1; done
python3 - "$DIR/ports.json" "$held" <<'PY'
import json, os, socket, sys, time, urllib.request
api = json.load(open(sys.argv[1]))["api"]; pid = int(sys.argv[2])
host, port = api.split("//")[1].split(":")
def cpu():
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
held = []
for _ in range(10_000):
    s = socket.socket(); s.setblocking(False)
    try: s.connect((host, int(port)))
    except BlockingIOError: pass
    held.append(s)
time.sleep(1); before = cpu(); time.sleep(5)
print(f"10,000 idle API connections           {cpu() - before:.2f} s of CPU in 5 s")
start = time.time()
try:
    urllib.request.urlopen(urllib.request.Request(
        api + "/inApps/v1/notifications/history", data=b"x" * (2 << 20), method="POST"), timeout=60)
except urllib.error.HTTPError as e:
    print(f"2 MB body to the API                   {e.code} {e.read()[:60].decode()} ({time.time() - start:.1f} s)")
PY
kill -TERM "$held"; wait "$held" || true

# Issue 51: the team's catalog and grants are inputs too. Each line: wall time, peak memory,
# exit status, the first words of the answer; the bound each case must keep is in brackets.
echo
echo "issue 51: the catalog and grants files, outputs onto inputs, pasted lines, a backend that dies"
python3 - "$DIR" <<'PY'
import sys
d = sys.argv[1]
def put(name, text):
    open(f"{d}/{name}", "w").write(text)
wide = lambda n: "{" + ",".join(f'"k{i}":1' for i in range(n)) + "}"
put("keys-250000.storekit", wide(250_000))
put("keys-80000.storekit", wide(80_000))
put("dup-at-1000.storekit", "{" + ",".join(f'"k{i}":1' for i in range(999)) + ',"k998":2}')
put("nested-1001.storekit", "[" * 1001 + "]" * 1001)
put("values-250000.storekit", "[" + ",".join(["0"] * 250_000) + "]")
put("grants-250000.yaml", "".join(f"p{i}: 1 coins\n" for i in range(250_000)))
put("sk.yaml", "format: 1\ntitle: t\nstorekit: p.storekit\nsteps:\n  - do: buy gems_small\n")
PY
cp scenarios/dungeon.storekit "$DIR/p.storekit"
ln "$DIR/p.storekit" "$DIR/hard.storekit"
measure_flags ".storekit 250,000 keys [1,001st]" run --storekit "$DIR/keys-250000.storekit" "$DIR/wait-48h-in-ms.yaml"
measure_flags ".storekit 80,000 keys [1,001st]" run --storekit "$DIR/keys-80000.storekit" "$DIR/wait-48h-in-ms.yaml"
measure_flags ".storekit key twice at 1,000 [set]" run --storekit "$DIR/dup-at-1000.storekit" "$DIR/wait-48h-in-ms.yaml"
measure_flags ".storekit nested 1,001 [1,000]" run --storekit "$DIR/nested-1001.storekit" "$DIR/wait-48h-in-ms.yaml"
measure_flags ".storekit 250,000 values [200,000]" run --storekit "$DIR/values-250000.storekit" "$DIR/wait-48h-in-ms.yaml"
measure_flags "--grants 250,000 keys [1,001st]" run --grants "$DIR/grants-250000.yaml" "$DIR/wait-48h-in-ms.yaml"
measure_flags "check --junit onto --storekit [exit 2]" check --storekit "$DIR/p.storekit" --junit "$DIR/p.storekit" "$DIR/sk.yaml"
measure_flags "run --log onto storekit: [exit 2]" run "$DIR/sk.yaml" --log "$DIR/hard.storekit"
measure_flags "run --log onto --grants [exit 2]" run --grants "$DIR/grants-250000.yaml" "$DIR/sk.yaml" --log "$DIR/grants-250000.yaml"
measure_flags "explore --junit onto --storekit [2]" explore --storekit "$DIR/p.storekit" --out "$DIR/o" --junit "$DIR/p.storekit"
measure_flags "serve --port-file onto --storekit [2]" serve "${back[@]}" --explore --storekit "$DIR/p.storekit" --port-file "$DIR/p.storekit"
echo "  p.storekit unchanged after all five: $(cmp -s scenarios/dungeon.storekit "$DIR/p.storekit" && echo yes || echo NO)"
# explore's replay line with a hostile catalog name, pasted into sh -n and sh.
hostile="$DIR/a b;\$(touch PWNED)\`id\`.storekit"
cp scenarios/dungeon.storekit "$hostile"
"$BIN" explore --policy naive --runs 200 --seed 3 --storekit "$hostile" --out "$DIR/found" >"$DIR/out" 2>&1 || true
line=$(grep -m1 '^    iapsim explore ' "$DIR/out" | sed 's/^ *//')
mkdir -p "$DIR/bin" && ln -sf "$BIN" "$DIR/bin/iapsim"
(cd "$DIR" && PATH="$DIR/bin:$PATH" sh -n -c "$line") && parsed=ok || parsed=refused
(cd "$DIR" && PATH="$DIR/bin:$PATH" sh -c "$line" >"$DIR/replay" 2>&1) || true
echo "explore replay line [sh -n ok, PWNED never made]: sh -n $parsed; PWNED made: $([[ -e $DIR/PWNED ]] && echo YES || echo no);" \
  "replayed: $(grep -c ': run ' "$DIR/replay") finding(s)"
echo "  ${line//$DIR\//}"
# A backend that dies in the second file: named, the first file's PASS, JUnit and --log kept, exit 3.
code=0
"$BIN" serve --config Tests/Fixtures/serve/other_backend.yaml --spawn "python3 Tests/Fixtures/serve/dying_backend.py" \
  --junit "$DIR/j.xml" --log "$DIR/l.jsonl" scenarios/serve/purchase-credited.yaml \
  scenarios/serve/refund-clawed-back.yaml >"$DIR/out" 2>"$DIR/err" || code=$?
echo "backend dies in file 2 [exit 3, named, JUnit, --log]: exit $code; $(head -c 90 "$DIR/err" | head -1)"
echo "  stdout: $(grep -c '^PASS' "$DIR/out") PASS; JUnit: $(grep -o 'tests="[0-9]*" failures="[0-9]*" errors="[0-9]*"' "$DIR/j.xml" 2>/dev/null | head -1 || echo none);" \
  "--log: $(wc -l <"$DIR/l.jsonl" 2>/dev/null || echo 0) lines"
