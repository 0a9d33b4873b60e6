#!/usr/bin/env bash
# Every libFuzzer harness (Fuzz/Harnesses) built and run for a short, fixed number of inputs
# with a fixed seed: a harness that no longer builds, or that traps, leaks or hangs on its
# seeds or on the first inputs libFuzzer makes from them, fails here rather than in the next
# long run (scripts/fuzz.sh, Docs/reliability.md#fuzzing).
#
#   scripts/fuzz-smoke.sh                 # build (release, AddressSanitizer), then 300 inputs each
#   scripts/fuzz-smoke.sh --skip-build    # the harnesses as last built
#
# The inputs run in about 15 s; building the harnesses from clean takes minutes (Tandem's
# modules again, instrumented), which is why scripts/test.sh runs this only with
# TANDEM_FUZZ_SMOKE=1.
set -euo pipefail
cd "$(dirname "$0")/.."
build=()
[ "${1:-}" = --skip-build ] && build=(--skip-build)
exec bash scripts/fuzz.sh "${build[@]}" catalog scenario profile protocol ssip service transport \
  -runs="${TANDEM_FUZZ_SMOKE_RUNS:-300}" -seed=1
