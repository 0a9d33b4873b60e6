#!/usr/bin/env bash
# The whole loop of an app on tandem serve in one command: a private tandem serve, the grocery
# example app connected to it (Swift by default, or `python`), and your terminal as the user
# (`tandem run --connect`): arrows move, up/down change a quantity, Tab then Enter deletes a
# row, Enter on "Check out" checks out, ? says the keys, q quits and stops everything.
# Speech and braille are yours (speech-dispatcher, BRLTTY) when they answer.
#
#   scripts/client-demo.sh [swift|python]
#
# TANDEM_BUILD_DIR=DIR uses the tandem and tandem-example-grocery already built there.
set -euo pipefail
cd "$(dirname "$0")/.."
app=${1:-swift}
case $app in swift|python) ;; *) echo "usage: scripts/client-demo.sh [swift|python]" >&2; exit 64 ;; esac
if [[ -z ${TANDEM_BUILD_DIR:-} ]]; then
  swift build --product tandem 2>&1 | grep -E "error|warning: " >&2 || true
  [[ $app == swift ]] && { swift build --product tandem-example-grocery 2>&1 | grep -E "error|warning: " >&2 || true; }
  TANDEM_BUILD_DIR=.build/debug
fi
bin=$TANDEM_BUILD_DIR/tandem
[[ -x $bin ]] || { echo "client-demo: no tandem at $bin (build failed?)" >&2; exit 1; }

scratch=$(mktemp -d)
socket=$scratch/control.sock
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT

"$bin" serve --socket "$socket" --transcript "$scratch/transcript.jsonl" 2>"$scratch/serve.log" &
pids+=($!)
for _ in $(seq 100); do [[ -S $socket ]] && break; sleep 0.1; done
[[ -S $socket ]] || { echo "client-demo: tandem serve did not start:" >&2; cat "$scratch/serve.log" >&2; exit 69; }

if [[ $app == swift ]]; then
  "$TANDEM_BUILD_DIR/tandem-example-grocery" --socket "$socket" >"$scratch/app.log" 2>&1 &
else
  python3 Examples/clients/grocery_app.py --socket "$socket" >"$scratch/app.log" 2>&1 &
fi
pids+=($!)
# The app is in front once it has shown its screen.
for _ in $(seq 100); do
  "$bin" ctl status --socket "$socket" 2>/dev/null | grep -q '"foreground":true' && break
  sleep 0.1
done

status=0
"$bin" run --connect "$socket" || status=$?
echo "client-demo: the app said:" && tail -n 5 "$scratch/app.log"
exit $status
