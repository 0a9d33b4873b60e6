#!/usr/bin/env bash
# Installs what Tandem needs from Debian 12, only the packages missing (idempotent; apt as root,
# directly or through sudo).
#   install.sh              everything: build, run and Tandem's own tests (scripts/install-deps.sh)
#   install.sh --build      what `swift build --product tandem` needs: the C libraries' headers
#   install.sh --runtime    what a built tandem needs to run `tandem test` and `tandem lint` in
#                           CI: liblouis and its tables, and the shared libraries the binary
#                           links (Docs/ci.md#runtime). No daemons, no browser, no Swift.
#   --dry-run               prints the packages the mode needs, one a line, and installs nothing
set -euo pipefail
mode=all dry=0
for a in "$@"; do
  case "$a" in
    --runtime) mode=runtime ;;
    --build) mode=build ;;
    --dry-run) dry=1 ;;
    *) echo "tandem: install.sh: unknown option $a (--runtime, --build, --dry-run)" >&2; exit 64 ;;
  esac
done
case "$mode" in
  all)
    [[ $dry == 1 ]] && { echo "tandem: install.sh: --dry-run needs --runtime or --build" >&2; exit 64; }
    exec bash "$(dirname "$0")/install-deps.sh" ;;
  runtime) PACKAGES=(
    liblouis20 liblouis-data   # braille translation and its tables
    libspeechd2 libbrlapi0.8   # speech-dispatcher's and BRLTTY's client libraries (linked; unused headless)
    libatspi2.0-0              # AT-SPI's client library (linked; used by tandem atspi only)
  ) ;;
  build) PACKAGES=(
    liblouis-dev libspeechd-dev libbrlapi-dev libatspi2.0-dev   # the headers of the C libraries
    libx11-dev                                                  # Xlib's (tandem atspi asks X where keys go)
    pkg-config                                                  # the .systemLibrary flags
    liblouis-data                                               # the tables (a build that runs tandem)
  ) ;;
esac
if [[ $dry == 1 ]]; then printf '%s\n' "${PACKAGES[@]}"; exit 0; fi
source "$(dirname "$0")/apt-missing.sh"
install_missing "${PACKAGES[@]}"
