#!/usr/bin/env bash
# Quick start, command 2: installs what is missing, builds and runs every test.
# Tests that need speech-dispatcher or BRLTTY start private instances themselves.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# Builds every target, tandem-bench too (its benchmarks run only by hand: Docs/benchmarks.md);
# a failed build fails this script rather than testing what an earlier build left.
set +e
swift build --build-tests 2>&1 | grep -E "error|warning: |Compiling|Build complete" | grep -v "^\["
build=${PIPESTATUS[0]}
set -e
if [ "$build" -ne 0 ]; then
  echo "scripts/test.sh: the build failed (status $build)" >&2
  exit "$build"
fi
swift test --skip-build 2>&1
