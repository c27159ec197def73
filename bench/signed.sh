#!/usr/bin/env bash
# Speed of `iapsim run --signed` (ES256 JWS of every signed transaction, renewal info and
# notification) against a release build, one core: the JWS written (lines of signed.jsonl),
# the ES256 signatures made (a notification line signs its transaction inside it too), the
# wall and CPU seconds with --signed and without, and JWS/s (over the whole run, and over
# the time --signed adds); then the machine's own P-256 signing rate (`openssl speed`, when
# installed) as the ceiling to compare with. Repeated; the median is printed. Changes
# nothing in the repository.
# Usage: bench/signed.sh [purchases=5000] [repeats=3]; IAPSIM_BIN=path measures that binary.
# Target (issue 34, item 9): >= 10,000 JWS/s. Figures are further down.
set -euo pipefail
source "$(dirname "$0")/release.sh"
PURCHASES=${1:-5000}
REPEATS=${2:-3}

DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

python3 - "$DIR" "$PURCHASES" <<'PY'
import sys
d, n = sys.argv[1], int(sys.argv[2])
head = "format: 1\ntitle: t\npolicy: sk2-hardened\nusers: [alice]\nsteps:\n"
open(f"{d}/sk2.yaml", "w").write(head + "  - after: 1m\n    do: buy coins_550\n" * n)
PY

# timed COMMAND...: "wall user+sys" seconds of one run.
timed() {
  /usr/bin/time -f "%e %U %S" -o "$DIR/time" "$@" >/dev/null 2>&1
  awk '{printf "%s %.2f\n", $1, $2 + $3}' "$DIR/time"
}

# median: the median of the numbers on stdin.
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

echo "iapsim run --signed, release build ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
: >"$DIR/with"
: >"$DIR/without"
for _ in $(seq "$REPEATS"); do
  rm -rf "$DIR/signed"
  timed "$BIN" run --quiet "$DIR/sk2.yaml" --signed "$DIR/signed" >>"$DIR/with"
  timed "$BIN" run --quiet "$DIR/sk2.yaml" >>"$DIR/without"
done
jws=$(wc -l <"$DIR/signed/signed.jsonl")
signatures=$((jws + $(grep -c '"kind":"notification"' "$DIR/signed/signed.jsonl" || true)))
wall=$(cut -d' ' -f1 "$DIR/with" | median)
cpu=$(cut -d' ' -f2 "$DIR/with" | median)
wall0=$(cut -d' ' -f1 "$DIR/without" | median)
cpu0=$(cut -d' ' -f2 "$DIR/without" | median)
awk -v j="$jws" -v s="$signatures" -v w="$wall" -v c="$cpu" -v w0="$wall0" -v c0="$cpu0" -v n="$PURCHASES" 'BEGIN {
  printf "%d purchases: %d JWS (%d signatures), run --signed %.2f s wall (%.2f s CPU) -> %.0f JWS/s wall, %.0f JWS/s CPU\n", n, j, s, w, c, j / w, j / c
  printf "without --signed %.2f s wall (%.2f s CPU): --signed adds %.2f s CPU -> %.0f JWS/s, %.0f signatures/s of the export alone\n", w0, c0, c - c0, (c > c0 ? j / (c - c0) : 0), (c > c0 ? s / (c - c0) : 0)
}'
if command -v openssl >/dev/null; then
  openssl speed -seconds 2 ecdsap256 2>/dev/null | awk '/nistp256/ {printf "openssl speed ecdsap256 (this machine, one core): %.0f signatures/s\n", $(NF - 1)}'
fi
