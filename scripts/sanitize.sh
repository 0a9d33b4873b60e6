#!/usr/bin/env bash
# Builds and runs the whole test suite under a sanitizer, in a build folder of its own
# (.build/sanitize-address, .build/sanitize-thread), so the normal build is left alone:
#
#   scripts/sanitize.sh address     # AddressSanitizer (with LeakSanitizer)
#   scripts/sanitize.sh thread      # ThreadSanitizer
#   scripts/sanitize.sh thread --filter Speech    # more arguments go to swift test
#
# The tests start their private speech-dispatcher and BRLTTY as in scripts/test.sh (those
# daemons are not instrumented; the tests and every `tandem` they run are). The sanitizer's
# options and suppressions are in Tests/Sanitizers (Docs/reliability.md says why each is
# there). Exit 1 if the build fails, a test fails or the sanitizer reports anything.
set -euo pipefail
cd "$(dirname "$0")/.."

case ${1:-} in
  address | thread) kind=$1; shift ;;
  *) echo "usage: scripts/sanitize.sh address|thread [swift test arguments]" >&2; exit 64 ;;
esac
bash scripts/install-deps.sh
build=.build/sanitize-$kind
supp=$PWD/Tests/Sanitizers
# Reports go to the log and the run goes on (ThreadSanitizer then exits 66); ASan stops at its
# first report, as it always does.
# detect_stack_use_after_return=0: with it, locals live on ASan's fake stacks, and the tests
# that check a call's stack depth (MailboxTests, OutputWorkerTests) measure nothing.
export ASAN_OPTIONS="detect_leaks=1:detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export TSAN_OPTIONS="suppressions=$supp/tsan.supp${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

start=$(date +%s)
quiet() { grep -E "error|warning: |Build complete" | grep -v "^\[" || true; }
if ! swift build --build-tests --sanitize="$kind" --build-path "$build" 2>&1 | quiet; then
  echo "sanitize: build failed" >&2
  exit 1
fi
built=$(date +%s)
status=0
swift test --skip-build --sanitize="$kind" --build-path "$build" "$@" 2>&1 || status=$?
done=$(date +%s)
echo "sanitize: $kind: build $((built - start)) s, tests $((done - built)) s, exit $status"
exit $status
