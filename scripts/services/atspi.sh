#!/usr/bin/env bash
# A private, headless accessibility desktop for Tandem's tests and demos: Xvfb on a free
# display, a private D-Bus session bus, the AT-SPI bus launcher (accessibility switched on) and
# the AT-SPI registry on that bus. GTK, Qt and Chromium started with its environment publish
# their accessibility trees there; `tandem atspi` started with it reads them. It never touches
# the user's own session bus or display. Everything lives under DIR.
#
#   scripts/services/atspi.sh start|stop|status|env [DIR]   (DIR default: .build/services/atspi)
#
#   start   starts the four daemons and returns once the registry answers; prints the display.
#           Already running in DIR: says so and returns 0.
#   stop    SIGTERM to each (SIGKILL after 3 s), registry first. Safe to call twice.
#   status  one line per daemon: its pid or "down"; exit 0 while all run.
#   env     DISPLAY DBUS_SESSION_BUS_ADDRESS AT_SPI_BUS_ADDRESS … as `export` lines, for `eval`.
#
# Settings (environment, read by `start`):
#   ATSPI_READY_TIMEOUT  seconds to wait for each daemon (default 15)
#   ATSPI_WATCH_PID      when this process ends, the desktop is stopped too (a test runner
#                        killed midway leaves nothing behind)
#
# Pitfalls this script handles:
#   - Xvfb picks a free display itself (-displayfd): fixed numbers collide with other runs.
#   - dbus-daemon --session on a socket of its own, never the user's bus; dbus-launch is not used
#     (it would autolaunch X11 helpers and outlive the run).
#   - at-spi-bus-launcher must be told to launch now (--launch-immediately), and accessibility
#     switched on (org.a11y.Status IsEnabled=true), or GTK 3 apps do not load their AT-SPI bridge.
#   - the bus launcher and the registry are also D-Bus activatable: a call to their names before
#     ours own them starts a second copy, and ours quit. Wait for NameHasOwner, never call first.
#   - without XDG_RUNTIME_DIR the accessibility bus listens on ~/.cache/at-spi/bus, shared with
#     every other desktop of the user; it is set to DIR/runtime.
#   - at-spi2-registryd needs --use-gnome-session=false: there is no session manager.
#   - Chromium publishes web content only with --force-renderer-accessibility (as root also
#     --no-sandbox); `env` sets GDK_BACKEND=x11 so GTK never looks for Wayland.
# Needs: xvfb dbus at-spi2-core (scripts/install-deps.sh installs them).
set -euo pipefail

# Inherited descriptors closed (common.sh says why).
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cmd=${1:-start}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIR=${2:-$ROOT/.build/services/atspi}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
TIMEOUT=${ATSPI_READY_TIMEOUT:-15}
DAEMONS=(xvfb dbus a11ybus registryd)

wait_for() { local n=$1; shift; local i; for ((i = 0; i < n * 10; i++)); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done; return 1; }
alive() { [[ -r /proc/$1/stat ]] && [[ $(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) != Z ]]; }
# exit 0 once NAME has an owner on the bus (--session or --bus=ADDRESS); never starts a service
owned() { dbus-send "$1" --print-reply=literal --dest=org.freedesktop.DBus /org/freedesktop/DBus \
  org.freedesktop.DBus.NameHasOwner "string:$2" 2>/dev/null | grep -q true; }
# pid file -> pid, only while that process still runs and its command line mentions DIR or
# the display it owns (pids get reused)
ourpid() {
  local f=$DIR/pids/$1 pid
  [[ -s $f ]] || return 1
  pid=$(<"$f")
  alive "$pid" || return 1
  echo "$pid"
}

write_env() {
  cat >"$DIR/env.sh" <<ENV
export DISPLAY=:$(<"$DIR/display")
export DBUS_SESSION_BUS_ADDRESS=$(<"$DIR/dbus.address")
export AT_SPI_BUS_ADDRESS=$(<"$DIR/a11y.address")
export GDK_BACKEND=x11
export NO_AT_BRIDGE=0
export GTK_A11Y=atspi
export QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1
ENV
}

do_stop() {
  local p pid
  for p in registryd a11ybus dbus xvfb; do
    pid=$(ourpid "$p") || { rm -f "$DIR/pids/$p"; continue; }
    kill "$pid" 2>/dev/null || true
    wait_for 3 bash -c "! [[ -r /proc/$pid/stat ]] || [[ \$(awk '{print \$3}' /proc/$pid/stat) == Z ]]" \
      || kill -KILL "$pid" 2>/dev/null || true
    rm -f "$DIR/pids/$p"
  done
  # the bus launcher's own dbus-daemon (the accessibility bus) ends with its launcher
  rm -f "$DIR/env.sh"
}

case $cmd in
start)
  if [[ -n $(ourpid registryd || true) && -s $DIR/env.sh ]]; then echo "accessibility desktop already running in $DIR"; exit 0; fi
  do_stop
  for c in Xvfb dbus-daemon dbus-send; do command -v "$c" >/dev/null || { echo "atspi.sh: missing $c (run scripts/install-deps.sh)" >&2; exit 1; }; done
  for c in /usr/libexec/at-spi-bus-launcher /usr/libexec/at-spi2-registryd; do
    [[ -x $c ]] || { echo "atspi.sh: missing $c (at-spi2-core; run scripts/install-deps.sh)" >&2; exit 1; }
  done
  mkdir -p "$DIR"/{pids,logs,runtime}; chmod 700 "$DIR/runtime"
  # The accessibility bus's socket goes under XDG_RUNTIME_DIR (else ~/.cache/at-spi, shared
  # with every other desktop of this user); settings from memory, so no dconf daemon starts.
  export XDG_RUNTIME_DIR=$DIR/runtime GSETTINGS_BACKEND=memory
  rm -f "$DIR"/{display,dbus.address,dbus.address.tmp,a11y.address,env.sh}
  setsid Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp -noreset +extension XTEST \
    3>"$DIR/display" </dev/null >"$DIR/logs/xvfb.log" 2>&1 &
  echo $! >"$DIR/pids/xvfb"
  wait_for "$TIMEOUT" test -s "$DIR/display" || { echo "atspi.sh: Xvfb did not start: $(tail -3 "$DIR/logs/xvfb.log")" >&2; do_stop; exit 1; }
  setsid dbus-daemon --session --nofork --nopidfile --address="unix:path=$DIR/runtime/bus" \
    --print-address=3 3>"$DIR/dbus.address.tmp" </dev/null >"$DIR/logs/dbus.log" 2>&1 &
  echo $! >"$DIR/pids/dbus"
  wait_for "$TIMEOUT" test -s "$DIR/dbus.address.tmp" || { echo "atspi.sh: dbus-daemon did not start: $(tail -3 "$DIR/logs/dbus.log")" >&2; do_stop; exit 1; }
  head -1 "$DIR/dbus.address.tmp" >"$DIR/dbus.address"
  export DBUS_SESSION_BUS_ADDRESS; DBUS_SESSION_BUS_ADDRESS=$(<"$DIR/dbus.address")
  export DISPLAY; DISPLAY=:$(<"$DIR/display")
  setsid /usr/libexec/at-spi-bus-launcher --launch-immediately </dev/null >"$DIR/logs/at-spi-bus.log" 2>&1 &
  echo $! >"$DIR/pids/a11ybus"
  # Wait for *our* launcher to own the name: a method call to org.a11y.Bus before that would
  # have the session bus start a second launcher from its service file, and ours would quit.
  wait_for "$TIMEOUT" owned --session org.a11y.Bus \
    || { echo "atspi.sh: AT-SPI bus did not start: $(tail -3 "$DIR/logs/at-spi-bus.log")" >&2; do_stop; exit 1; }
  dbus-send --session --print-reply=literal --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress | tr -d ' ' >"$DIR/a11y.address"
  dbus-send --session --print-reply --dest=org.a11y.Bus /org/a11y/bus org.freedesktop.DBus.Properties.Set \
    string:org.a11y.Status string:IsEnabled variant:boolean:true >/dev/null
  setsid /usr/libexec/at-spi2-registryd --use-gnome-session=false </dev/null >"$DIR/logs/registryd.log" 2>&1 &
  echo $! >"$DIR/pids/registryd"
  wait_for "$TIMEOUT" owned --bus="$(<"$DIR/a11y.address")" org.a11y.atspi.Registry \
    || { echo "atspi.sh: AT-SPI registry did not start: $(tail -3 "$DIR/logs/registryd.log")" >&2; do_stop; exit 1; }
  wait_for "$TIMEOUT" dbus-send --bus="$(<"$DIR/a11y.address")" --print-reply --dest=org.a11y.atspi.Registry \
    /org/a11y/atspi/accessible/root org.freedesktop.DBus.Properties.Get string:org.a11y.atspi.Accessible string:ChildCount \
    || { echo "atspi.sh: AT-SPI registry not answering: $(tail -3 "$DIR/logs/registryd.log")" >&2; do_stop; exit 1; }
  write_env
  if [[ -n ${ATSPI_WATCH_PID:-} ]]; then
    # a watcher of its own session: stops the desktop when the watched process ends
    setsid bash -c 'while kill -0 "$1" 2>/dev/null && [[ -s "$3/pids/xvfb" ]]; do sleep 1; done; exec "$2" stop "$3"' \
      _ "$ATSPI_WATCH_PID" "$HERE/atspi.sh" "$DIR" </dev/null >/dev/null 2>&1 &
  fi
  echo "accessibility desktop up: DISPLAY=:$(<"$DIR/display"); eval \"\$(scripts/services/atspi.sh env $DIR)\""
  ;;
stop) do_stop ;;
status)
  up=0
  for p in "${DAEMONS[@]}"; do pid=$(ourpid "$p") || { pid=down; up=1; }; printf '%s %s\n' "$p" "$pid"; done
  exit $up ;;
env) [[ -s $DIR/env.sh ]] || { echo "atspi.sh: no accessibility desktop in $DIR (start it first)" >&2; exit 1; }; cat "$DIR/env.sh" ;;
*) echo "usage: $0 start|stop|status|env [DIR]" >&2; exit 64 ;;
esac
