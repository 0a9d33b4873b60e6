#!/usr/bin/env bash
# Quick start, command 2: installs what is missing, builds and runs every test.
# Tests that need speech-dispatcher or BRLTTY start private instances themselves.
# A failed build stops here: the tests never run on stale test bundles.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# pipefail: the pipeline fails when the build does, whatever the filter prints.
quiet() { grep -E "error|warning: |Compiling|Build complete" | grep -v "^\[" || true; }
if ! swift build --build-tests 2>&1 | quiet; then
  echo "tandem: build failed" >&2
  exit 1
fi
swift test --skip-build 2>&1
