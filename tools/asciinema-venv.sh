#!/usr/bin/env bash
# Installs the asciinema client 2.4.0 from PyPI into .venv-asciinema/ (gitignored), for the
# test that checks `iapsim play --record` files with `asciinema cat`. Prints the binary's path.
# The tests look for .venv-asciinema/bin/asciinema, or $IAPSIM_ASCIINEMA when set.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-asciinema
if [ ! -x "$venv/bin/asciinema" ] || ! "$venv/bin/asciinema" --version 2>/dev/null | grep -q "2.4.0"; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check "asciinema==2.4.0" >&2
fi
echo "$PWD/$venv/bin/asciinema"
