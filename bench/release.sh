# Sourced by the benchmarks: moves to the repository and sets BIN to the release binary,
# built into .build-edge, or to $IAPSIM_BIN when set (an older build, to compare).
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN=${IAPSIM_BIN:-}
if [[ -z $BIN ]]; then
  swift build -c release --scratch-path .build-edge --product iapsim >/dev/null 2>&1
  BIN=$PWD/.build-edge/release/iapsim
fi
