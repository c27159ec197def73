#!/usr/bin/env bash
# Installs mermaidx 0.10.1 from PyPI into .venv-mermaid/ (gitignored) for the mermaid.js it
# vendors (Mermaid 11.16.0, one file): the handout test renders every diagram with it in a
# headless Chromium (Debian's `chromium`). Only that file is used, so the package's own
# dependencies are not installed. Prints the path of mermaid.js. The tests look for it there,
# or at $IAPSIM_MERMAID_JS when set.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-mermaid
find_js() { find "$venv" -path '*/mermaidx/assets/mermaid.js' -print -quit 2>/dev/null; }
if [ -z "$(find_js)" ] || ! "$venv/bin/pip" show mermaidx 2>/dev/null | grep -q "^Version: 0.10.1$"; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps "mermaidx==0.10.1" >&2
fi
echo "$PWD/$(find_js)"
