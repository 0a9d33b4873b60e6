#!/usr/bin/env bash
# Builds the libFuzzer harnesses (Fuzz/Harnesses, under AddressSanitizer) and runs each from
# its committed seed corpus (Fuzz/corpus/HARNESS) with its dictionary (Fuzz/dict/HARNESS.dict).
# Prints, per harness: inputs run, crashes, corpus size and time. Exit 1 if any harness crashed,
# leaked or hung; the input that did it is kept and the line to replay it is printed.
#
#   scripts/fuzz.sh                       # every harness, 1,000,000 inputs each
#   scripts/fuzz.sh catalog -runs=10000   # one harness, fewer inputs
#   scripts/fuzz.sh --build-only          # just build (e.g. under a build lock)
#   scripts/fuzz.sh --skip-build ssip -max_total_time=60   # other flags go to libFuzzer
#
# Harnesses: catalog (CatalogDecoder, then a navigator walk of what it accepts), scenario
# (Scenario.parse against the sample catalogs), profile (Profile.decode), protocol (a client's
# lines through MessageDecoder, applied to an app-mode navigator whose repaired reading order
# must equal a rebuilt one), ssip (SSIPParser, whole and in chunks), service (three clients' lines
# through the service, session, policy and records with liblouis: every bound of
# Docs/reliability.md#hostile-clients holds after each line), transport (one client's bytes through a
# real control socket hosted in the process: the lines and the ending Docs/server.md's rules give). Each run starts from the seeds alone; what libFuzzer adds goes to
# Fuzz/Harnesses/.build/fuzz/HARNESS/corpus, never into the committed seeds.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/fuzz.sh [--build-only | --skip-build] [catalog|scenario|profile|protocol|ssip|service|transport ...] [-runs=N] [libFuzzer flags]" >&2; exit 64; }
harnesses=()
flags=()
runs=1000000
build=1
run=1
for a in "$@"; do
  case $a in
    --build-only) run=0 ;;
    --skip-build) build=0 ;;
    -runs=*) runs=${a#-runs=} ;;
    -*=*) flags+=("$a") ;;
    catalog|scenario|profile|protocol|ssip|service|transport) harnesses+=("$a") ;;
    *) usage ;;
  esac
done
((build || run)) || usage
((${#harnesses[@]})) || harnesses=(catalog scenario profile protocol ssip service transport)

PKG=Fuzz/Harnesses
BIN=$PKG/.build/release
if ((build)); then
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  # The gold linker warns about one ASan symbol it cannot export; that is noise.
  if ! swift build -c release --package-path "$PKG" -Xswiftc -sanitize=fuzzer,address >"$log" 2>&1; then
    grep -v -e '^\[' -e "Cannot export local symbol '__asan_extra_spill_area'" "$log" >&2 || true
    echo "fuzz: build failed" >&2
    exit 1
  fi
  grep -e "warning:" "$log" | grep -v "__asan_extra_spill_area" >&2 || true
fi
((run)) || exit 0

failed=0
printf '%-9s %12s %8s %22s %10s %9s\n' harness inputs crashes "corpus (seeds → end)" exec/s seconds
for h in "${harnesses[@]}"; do
  work=$PKG/.build/fuzz/$h
  rm -rf "$work"
  mkdir -p "$work/corpus" "$work/crashes"
  seeds=$(find "Fuzz/corpus/$h" -type f | wc -l)
  start=$(date +%s)
  status=0
  "$BIN/fuzz-$h" "$work/corpus" "Fuzz/corpus/$h" -dict="Fuzz/dict/$h.dict" -runs="$runs" -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$work/crashes/" "${flags[@]}" >"$work/log" 2>&1 || status=$?
  seconds=$(($(date +%s) - start))
  inputs=$(awk '/stat::number_of_executed_units/ {print $2}' "$work/log" | tail -1)
  speed=$(awk '/stat::average_exec_per_sec/ {print $2}' "$work/log" | tail -1)
  corpus=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$work/log" | tail -1 | cut -d' ' -f2)
  crashes=$(find "$work/crashes" -type f | wc -l)
  printf '%-9s %12s %8s %22s %10s %9s\n' "$h" "${inputs:-?}" "$crashes" "$seeds → ${corpus:-?}" "${speed:-?}" "$seconds"
  if ((status != 0 || crashes != 0)); then
    failed=1
    echo "fuzz: $h failed (exit $status); log: $work/log" >&2
    grep -m1 -E "ERROR: |Fatal error|SUMMARY" "$work/log" >&2 || true
    for c in "$work/crashes"/*; do [[ -e $c ]] && echo "  replay: $BIN/fuzz-$h $c" >&2; done
  fi
done
exit $failed
