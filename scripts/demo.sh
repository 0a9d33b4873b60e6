#!/usr/bin/env bash
# Quick start, command 1: installs what is missing, builds, and replays the grocery sample:
# the JSON Lines transcript on stdout and, on a terminal, a readable view of it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# pipefail: the pipeline fails when the build does, so an old binary is never replayed.
if ! swift build -c release --product tandem 2>&1 | { grep -v "^\[" >&2 || true; }; then
  echo "tandem: build failed" >&2
  exit 1
fi
BIN=.build/release/tandem
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$BIN" replay Examples/grocery/grocery.catalog.json Examples/grocery/grocery.scenario --out "$out"
cat "$out"
if [[ -t 1 ]]; then
  echo
  echo "── what a blind tester hears and feels ──"
  "$BIN" view "$out"
fi
