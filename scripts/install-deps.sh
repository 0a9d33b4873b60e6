#!/usr/bin/env bash
# Installs the Debian packages Tandem needs, only those missing. Idempotent; runs apt as root
# (directly, or through sudo). The Swift toolchain itself is expected on PATH.
set -euo pipefail
PACKAGES=(
  liblouis-dev liblouis-data liblouis-bin   # braille translation (CLouis)
  libspeechd-dev speech-dispatcher         # speech (CSpeechd) and the daemon the tests start
  python3-speechd                          # tandem-bench speech-latency: the Python client it compares with
  libbrlapi-dev brltty                     # braille displays (CBrlAPI) and the daemon the tests start
  pkg-config python3 tmux                  # .systemLibrary flags; the virtual braille display; tandem run tests
  systemd                                  # systemd-analyze verify: the user unit in Docs/protocol.md
  chromium                                 # tandem test --html: the report is loaded in a real browser by the tests
  libatspi2.0-dev at-spi2-core             # tandem atspi (CAtspi) and the AT-SPI bus and registry its tests start
  libx11-dev                               # tandem atspi asks X which window typed keys go to (CX11)
  xvfb dbus dbus-x11                       # the tests' private headless desktop (scripts/services/atspi.sh)
  python3-gi gir1.2-gtk-3.0                # the GTK 3 test apps (Tests/Fixtures/atspi/pantry.py, ledger.py)
  firefox-esr                              # tandem atspi's tests read a web page in Firefox too
  python3-pyqt5                            # the Qt 5 test app (Tests/Fixtures/atspi/qt_form.py)
  libxml2                                  # the tests check JUnit reports with FoundationXML's XMLDocument
  python3-yaml                             # the tests read Examples/ci's GitHub and GitLab files as YAML
)
source "$(dirname "$0")/apt-missing.sh"
install_missing "${PACKAGES[@]}"
command -v swift >/dev/null || { echo "tandem: swift is not on PATH (Swift 6.3 toolchain needed)" >&2; exit 1; }
