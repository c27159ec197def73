#!/usr/bin/env bash
# Benchmarks of the terminal UI (release build, in tmux): key-to-screen latency, CPU paused
# and at 1x beside `htop -d 15`, render time per 120x40 frame, RSS over an hour of virtual
# time at 64x with the autopilot. Prints the figures; changes nothing in the repository.
# Usage: bench/tui.sh [presses=30] [soak_seconds=60]
set -euo pipefail
source "$(dirname "$0")/release.sh"
PRESSES=${1:-30}
SOAK=${2:-60}

command -v tmux >/dev/null || { echo "bench: tmux is needed" >&2; exit 2; }
if ! command -v htop >/dev/null; then
  echo "installing htop" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq htop >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq htop >/dev/null; }
fi

SESSIONS=0
T=()
STATS=$(mktemp)
SOCKETS=$(mktemp -d)
cleanup() {
  for ((n = 1; n <= SESSIONS; n++)); do tmux -S "$SOCKETS/$n" -f /dev/null kill-server 2>/dev/null || true; done
  rm -rf "$STATS" "$SOCKETS"
}
trap cleanup EXIT
TICK=$(getconf CLK_TCK)

# start_ui ARGS...: a fresh tmux server running iapsim ARGS at 120x40; sets T and PID.
start_ui() {
  ((SESSIONS > 0)) && "${T[@]}" kill-server 2>/dev/null || true
  SESSIONS=$((SESSIONS + 1))
  T=(tmux -S "$SOCKETS/$SESSIONS" -f /dev/null)
  "${T[@]}" new-session -d -x 120 -y 40 -e LANG=C.UTF-8 -e TERM=xterm-256color \
    -e IAPSIM_FRAME_STATS="$STATS" "exec $BIN $*"
  "${T[@]}" set-option -g status off
  wait_for "Events"
  PID=$("${T[@]}" list-panes -t 0 -F '#{pane_pid}')
  [ "$(cat /proc/"$PID"/comm)" = iapsim ] || { echo "bench: pane is not iapsim" >&2; exit 1; }
}

# wait_for TEXT [first-line-only]: polls capture-pane until TEXT shows (5 s at most).
wait_for() {
  local deadline=$((SECONDS + 5)) range=()
  [ "${2:-}" = header ] && range=(-S 0 -E 0)
  until "${T[@]}" capture-pane -p -t 0 "${range[@]}" | grep -qF -- "$1"; do
    [ $SECONDS -lt $deadline ] || { echo "bench: timed out waiting for '$1'" >&2; exit 1; }
  done
}

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# cpu_percent PID SECONDS: the share of one core PID used over SECONDS.
cpu_over() {
  local a b h1 h2
  a=$(cpu_ticks "$1"); h1=$(cpu_ticks "$HTOP")
  sleep "$2"
  b=$(cpu_ticks "$1"); h2=$(cpu_ticks "$HTOP")
  awk -v d=$((b - a)) -v h=$((h2 - h1)) -v t="$TICK" -v s="$2" \
    'BEGIN { printf "iapsim %.2f%% of a core, htop -d 15 %.2f%% (over %d s)\n", 100*d/t/s, 100*h/t/s, s }'
}

percentile() { sort -n | awk -v p="$1" '{ a[NR] = $1 } END { i = int((NR - 1) * p + 0.5) + 1; printf "%.1f", a[i] }'; }

start_ui --speed 1
"${T[@]}" new-window -d "exec htop -d 15"
sleep 1
HTOP=$(pgrep -n -x htop)

echo "== key to screen (paused, $PRESSES presses of + / -, polling capture-pane in a loop)"
"${T[@]}" send-keys -t 0 Space
wait_for PAUSED header
samples=()
overhead=()
for ((i = 0; i < PRESSES; i++)); do
  if ((i % 2 == 0)); then key=+; want=" 2x "; else key=-; want=" 1x "; fi
  t0=$EPOCHREALTIME
  "${T[@]}" send-keys -t 0 "$key"
  wait_for "$want" header
  t1=$EPOCHREALTIME
  samples+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print (b - a) * 1000 }')")
  t0=$EPOCHREALTIME
  "${T[@]}" capture-pane -p -t 0 -S 0 -E 0 >/dev/null
  t1=$EPOCHREALTIME
  overhead+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print (b - a) * 1000 }')")
done
printf 'latency ms: median %s, p95 %s, max %s (one capture-pane alone: median %s ms)\n' \
  "$(printf '%s\n' "${samples[@]}" | percentile 0.5)" "$(printf '%s\n' "${samples[@]}" | percentile 0.95)" \
  "$(printf '%s\n' "${samples[@]}" | percentile 1.0)" "$(printf '%s\n' "${overhead[@]}" | percentile 0.5)"

echo "== the same harness on less (j scrolls one line: the top line changes)"
LESSFILE=$(mktemp)
seq -f 'line %g' 1 $((PRESSES * 2 + 100)) >"$LESSFILE"
"${T[@]}" new-window -d -n less "exec less $LESSFILE"
L=(-t less)
until "${T[@]}" capture-pane -p "${L[@]}" -S 0 -E 0 | grep -qx 'line 1'; do sleep 0.05; done
less_samples=()
for ((i = 0; i < PRESSES; i++)); do
  want="line $((i + 2))"
  t0=$EPOCHREALTIME
  "${T[@]}" send-keys "${L[@]}" j
  until "${T[@]}" capture-pane -p "${L[@]}" -S 0 -E 0 | grep -qx "$want"; do :; done
  t1=$EPOCHREALTIME
  less_samples+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print (b - a) * 1000 }')")
done
"${T[@]}" kill-window -t less
rm -f "$LESSFILE"
iapsim_median=$(printf '%s\n' "${samples[@]}" | percentile 0.5)
less_median=$(printf '%s\n' "${less_samples[@]}" | percentile 0.5)
printf 'less latency ms: median %s, p95 %s; iapsim/less median ratio %s (goal: at most 1.5)\n' \
  "$less_median" "$(printf '%s\n' "${less_samples[@]}" | percentile 0.95)" \
  "$(awk -v a="$iapsim_median" -v b="$less_median" 'BEGIN { printf "%.2f", a / b }')"

echo "== CPU paused"
cpu_over "$PID" 10
echo "== CPU at 1x"
"${T[@]}" send-keys -t 0 Space
wait_for RUNNING header
cpu_over "$PID" 10
"${T[@]}" send-keys -t 0 q
sleep 0.5
echo "== frames of that session: $(tail -n 1 "$STATS")"

echo "== RSS with --autopilot --speed 64 over $SOAK s wall"
start_ui --autopilot --speed 64
for ((s = 0; s <= SOAK; s += 10)); do
  rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$PID/status")
  clock=$("${T[@]}" capture-pane -p -t 0 -S 0 -E 0 | awk '{ print $2 }')
  printf 't=%3ds  virtual %s  VmRSS %d kB\n' "$s" "$clock" "$rss"
  if ((s < SOAK)); then sleep 10; fi
done
"${T[@]}" send-keys -t 0 q
sleep 0.5
echo "== frames of the autopilot session: $(tail -n 1 "$STATS")"
