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
# The static release build Examples/ci's workflows make (Docs/ci.md#static), built here once,
# before the tests, into its own folder: its tests (CIExamplesTests, StaticBuildTests) copy and
# run it, and their own build of it is then an up-to-date check. About 5 minutes from clean.
if ! swift build -c release --static-swift-stdlib --product tandem --scratch-path .build/ci-static 2>&1 | quiet; then
  echo "tandem: static build failed" >&2
  exit 1
fi
# Every close() that fails with EBADF is logged (a descriptor closed twice: in this parallel
# run, possibly another test's socket). Any by Tandem's code fails the run, after the tests.
shim=$(bash scripts/close-check.sh build)
closes=.build/close-check.log
rm -f "$closes"
status=0
TANDEM_CLOSE_LOG=$PWD/$closes LD_PRELOAD=$shim swift test --skip-build 2>&1 || status=$?
# Reported whether the tests passed or not: a double close may be why one failed.
bash scripts/close-check.sh report "$closes" || status=1
[ "$status" = 0 ] || exit "$status"
# Every libFuzzer harness for 300 inputs (scripts/fuzz-smoke.sh): about 15 s of inputs, but its
# build from clean takes minutes, so only when asked.
if [ "${TANDEM_FUZZ_SMOKE:-0}" = 1 ]; then bash scripts/fuzz-smoke.sh; fi
# The Python client and its example apps (Examples/clients), against their fake Tandem and the
# tandem serve just built; its pip install into a fresh venv, offline.
python3 -m unittest discover -s Examples/clients 2>&1
