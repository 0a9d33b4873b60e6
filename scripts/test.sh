#!/usr/bin/env bash
# Quick start, command 2: installs what is missing, builds and runs every test.
# Tests that need speech-dispatcher or BRLTTY start private instances themselves.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build --build-tests 2>&1 | grep -E "error|warning: |Compiling|Build complete" | grep -v "^\[" || true
swift test --skip-build 2>&1
# The Python client and its example apps (Examples/clients), against their fake Tandem.
python3 -m unittest discover -s Examples/clients 2>&1
