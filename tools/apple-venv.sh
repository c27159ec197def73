#!/usr/bin/env bash
# Makes .venv-apple/ with Apple's app-store-server-library (the external judge of the
# simulator's signed data) and prints the path of its python. Idempotent: when the venv
# already holds the pinned versions (the library and httpx, its [async] extra) it only prints
# the path.
set -euo pipefail
cd "$(dirname "$0")/.."

pinned="3.1.2"
httpx="0.28.1"
venv=".venv-apple"
python="$PWD/$venv/bin/python"

installed() {
  [ -x "$python" ] && "$python" - "$pinned" "$httpx" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(0 if version("app-store-server-library") == sys.argv[1] and version("httpx") == sys.argv[2] else 1)
PY
}

if ! installed; then
  python3 -m venv "$venv" >&2
  "$python" -m pip install --quiet --disable-pip-version-check \
    -r tools/apple-requirements.txt >&2
fi
echo "$python"
