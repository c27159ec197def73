#!/usr/bin/env bash
# Apple's sync and async Python clients against the App Store Server API that iapsim serves
# (docs/server-api.md): the Swift test AppStoreAPISocketTests starts the API on 127.0.0.1:0 over a
# world of 23 charges, a refund and a consumption request, and runs tools/conformance.py
# once per client. Needs a built package (`swift build --build-tests`); exit 0 when every
# check passes.
set -euo pipefail
cd "$(dirname "$0")/.."
IAPSIM_APPLE_PYTHON="$(tools/apple-venv.sh)"
export IAPSIM_APPLE_PYTHON
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
swift test --skip-build --filter AppStoreAPISocketTests 2>&1 | tee "$out"
grep -q "applesPythonClientsConform() passed" "$out" || { echo "conformance: Apple's clients did not pass" >&2; exit 1; }
