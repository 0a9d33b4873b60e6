#!/usr/bin/env bash
# A private, headless BRLTTY for Tandem's tests and demos: the Virtual (vr) braille driver
# talks to a fake display (vrdisplay.py, beside this script) whose cells a test reads from
# DIR/display.state and whose keys a test writes into DIR/keys.fifo. No screen driver, no
# speech, BrlAPI on a private loopback port. Never touches a system brltty, /etc/brltty.conf,
# /run/brltty or /var/lib/brltty. Everything lives under DIR.
#
#   scripts/services/brltty.sh start|stop|status|env [DIR]   (DIR default: .build/services/brltty)
#
#   start   starts what is not running: the display first, then BRLTTY; waits until BrlAPI
#           answers and the display shows BRLTTY's first cells. After BRLTTY died (a test
#           killed it), `start` again brings back BRLTTY alone; the display stays.
#   stop    BRLTTY (SIGTERM, SIGKILL after 1 s), then the display. Safe to call twice.
#   status  exit 0 when both run.
#   env     BRLAPI_HOST BRLAPI_AUTH VR_STATE VR_LOG VR_KEYS VR_BRLTTY_PID, for `eval`.
#
# Settings (environment; the first `start` stores them in DIR/settings.env for later calls):
#   BRLAPI_PORT_OFFSET  N: BrlAPI on TCP 127.0.0.1:(4101+N), client host "127.0.0.1:N" (default 37)
#   BRLTTY_CELLS        display width in cells (default 40)
#   BRLTTY_AUTH         none | key (a random key in DIR/brlapi.key; clients use BRLAPI_AUTH=that path)
#   BRLTTY_TEXT_TABLE   BRLTTY's text table (default en-nabcc); Tandem writes dots, not text
#   BRLTTY_READY_TIMEOUT seconds to wait for readiness (default 20)
#   BRLTTY_WATCH_PID    when this process ends, the display stops BRLTTY and itself (tests)
# Needs: brltty (Debian 12 ships 6.5, which still has the vr driver; upstream removed it in
# 6.9) and /usr/bin/python3. scripts/install-deps.sh installs both.
set -euo pipefail

cmd=${1:-start}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIR=${2:-$ROOT/.build/services/brltty}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)                  # brltty changes directory: absolute paths only
PY=/usr/bin/python3                      # the system python, never a venv's

# Settings: the environment wins, then what the first start stored, then the defaults.
if [[ -f $DIR/settings.env ]]; then
  # shellcheck disable=SC1091
  stored_offset=$(sed -n 's/^OFF=//p' "$DIR/settings.env")
  stored_cells=$(sed -n 's/^CELLS=//p' "$DIR/settings.env")
  stored_auth=$(sed -n 's/^AUTH_MODE=//p' "$DIR/settings.env")
  stored_table=$(sed -n 's/^TABLE=//p' "$DIR/settings.env")
fi
OFF=${BRLAPI_PORT_OFFSET:-${stored_offset:-37}}
CELLS=${BRLTTY_CELLS:-${stored_cells:-40}}
AUTH_MODE=${BRLTTY_AUTH:-${stored_auth:-none}}
TABLE=${BRLTTY_TEXT_TABLE:-${stored_table:-en-nabcc}}
TIMEOUT=${BRLTTY_READY_TIMEOUT:-20}
PORT=$((4101 + OFF))

# pid file -> pid, only while that pid is still our process (pids get reused)
ourpid() {
  local file=$1 pattern=$2 pid
  [[ -s $file ]] || return 1
  pid=$(<"$file")
  [[ $pid =~ ^[0-9]+$ && -r /proc/$pid/cmdline ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$pattern" || return 1
  echo "$pid"
}
# Running, not a zombie: this machine's init may reap late, and kill -0 succeeds on a zombie.
alive() {
  local state
  state=$(sed -n 's/^[0-9]* ([^)]*) \(.\).*/\1/p' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ -n $state && $state != Z && $state != X ]]
}
brltty_pid() { ourpid "$DIR/brltty.pid" "client:$DIR/vr.sock"; }
display_pid() { ourpid "$DIR/vrdisplay.pid" "vrdisplay.py --socket $DIR/vr.sock"; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; }
# BrlAPI serves: its version packet (8-byte header) arrives. A TCP connect alone is not enough:
# BRLTTY 6.5 listens at once, but its BrlAPI thread first sleeps ~1 s before it accepts, and a
# client that connects in that second waits for it.
brlapi_answers() {
  [[ $( (timeout 0.5 head -c 8 <"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null | wc -c) -eq 8 ]]
}
client_auth() { if [[ $AUTH_MODE == key ]]; then echo "$DIR/brlapi.key"; else echo none; fi; }

do_env() {
  echo "export BRLAPI_HOST=127.0.0.1:$OFF"
  echo "export BRLAPI_AUTH=$(client_auth)"
  echo "export VR_STATE=$DIR/display.state VR_LOG=$DIR/display.log VR_KEYS=$DIR/keys.fifo VR_BRLTTY_PID=$DIR/brltty.pid"
}

stop_brltty() {
  local pid i
  pid=$(brltty_pid) || { rm -f "$DIR/brltty.pid"; return 0; }
  # BRLTTY takes about 2 s to exit on SIGTERM (and defers it while it builds a driver); this
  # private instance keeps nothing worth a clean exit, so it gets 1 s, then SIGKILL.
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 20); do alive "$pid" || break; sleep 0.05; done
  alive "$pid" && kill -KILL "$pid" 2>/dev/null || true
  for i in $(seq 20); do alive "$pid" || break; sleep 0.05; done
  rm -f "$DIR/brltty.pid"
}

stop_display() {
  local pid i
  pid=$(display_pid) || { rm -f "$DIR/vrdisplay.pid"; return 0; }
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 20); do alive "$pid" || break; sleep 0.1; done
  alive "$pid" && kill -KILL "$pid" 2>/dev/null || true
  rm -f "$DIR/vrdisplay.pid" "$DIR/vr.sock"
}

do_stop() { stop_brltty; stop_display; }

do_status() {
  local ok=0
  if brltty_pid >/dev/null; then echo "brltty: running (BrlAPI 127.0.0.1:$OFF)"; else echo "brltty: stopped"; ok=1; fi
  if display_pid >/dev/null; then echo "vrdisplay: running ($CELLS cells)"; else echo "vrdisplay: stopped"; ok=1; fi
  return $ok
}

start_display() {
  display_pid >/dev/null && return 0
  rm -f "$DIR/display.log" "$DIR/display.state" "$DIR/keys.fifo"
  setsid "$PY" "$HERE/vrdisplay.py" --socket "$DIR/vr.sock" --cells "$CELLS" \
      --log "$DIR/display.log" --state "$DIR/display.state" --fifo "$DIR/keys.fifo" \
      --watch-pid "${BRLTTY_WATCH_PID:-0}" --brltty-pid-file "$DIR/brltty.pid" \
      </dev/null >"$DIR/vrdisplay.err" 2>&1 &
  echo $! >"$DIR/vrdisplay.pid"
  for _ in $(seq 50); do [[ -S $DIR/vr.sock ]] && return 0; sleep 0.1; done
  echo "vrdisplay did not start:" >&2; cat "$DIR/vrdisplay.err" >&2; return 1
}

start_brltty() {
  brltty_pid >/dev/null && return 0
  # A pid file left by a BRLTTY that was killed (possibly still a zombie) would make the new
  # one refuse to start ("instance already running").
  rm -f "$DIR/brltty.pid"
  if port_open; then
    echo "port $PORT (BrlAPI offset $OFF) is already in use; choose another BRLAPI_PORT_OFFSET" >&2; return 1
  fi
  # An existing (empty) prefs file keeps brltty from reading /etc/brltty-vr.prefs.
  [[ -f $DIR/brltty.prefs ]] || : >"$DIR/brltty.prefs"
  local auth=none
  if [[ $AUTH_MODE == key ]]; then
    if [[ ! -s $DIR/brlapi.key ]]; then
      (umask 077; head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$DIR/brlapi.key")
    fi
    auth="keyfile:$DIR/brlapi.key"
  fi
  local log_lines
  log_lines=$(wc -l <"$DIR/display.log" 2>/dev/null || echo 0)
  # -n foreground (under setsid), -q no start banner (it would hide BrlAPI output for ~4 s),
  # -f /dev/null no /etc/brltty.conf, -F/-W/-U/-P keep every file in DIR, -x no: no screen.
  setsid brltty -n -q -e -l info \
      -f /dev/null -F "$DIR/brltty.prefs" -W "$DIR" -U "$DIR" -P "$DIR/brltty.pid" \
      -b vr -d "client:$DIR/vr.sock" -x no -s no -t "$TABLE" \
      -o blinking-screen-cursor=no,show-screen-cursor=yes,screen-cursor-style=underline \
      -A "host=127.0.0.1:$OFF,auth=$auth" \
      </dev/null >>"$DIR/brltty.log" 2>&1 &
  local launcher=$! t_end=$((SECONDS + TIMEOUT))
  # Ready: the display is connected, BRLTTY's first cells arrived (after this start), and
  # BrlAPI answers a connection. A client that connects earlier sees a 0x0 display.
  while ((SECONDS < t_end)); do
    if ! alive "$launcher"; then
      echo "brltty exited early:" >&2; tail -20 "$DIR/brltty.log" >&2; return 1
    fi
    if tail -n +"$((log_lines + 1))" "$DIR/display.log" 2>/dev/null | grep -q ' BRAILLE ' && brlapi_answers; then
      return 0
    fi
    sleep 0.05
  done
  echo "brltty not ready after ${TIMEOUT}s:" >&2; tail -20 "$DIR/brltty.log" >&2; return 1
}

do_start() {
  command -v brltty >/dev/null || { echo "brltty is not installed (scripts/install-deps.sh)" >&2; exit 1; }
  [[ -x $PY ]] || { echo "$PY is missing (scripts/install-deps.sh)" >&2; exit 1; }
  printf 'OFF=%s\nCELLS=%s\nAUTH_MODE=%s\nTABLE=%s\n' "$OFF" "$CELLS" "$AUTH_MODE" "$TABLE" >"$DIR/settings.env"
  start_display || { do_stop; exit 1; }
  start_brltty || { do_stop; exit 1; }
  echo "brltty ready: pid $(<"$DIR/brltty.pid") BRLAPI_HOST=127.0.0.1:$OFF (tcp $PORT) auth=$AUTH_MODE cells=$CELLS dir=$DIR"
}

case $cmd in
  start) do_start ;;
  stop) do_stop ;;
  status) do_status ;;
  env) do_env ;;
  *) echo "usage: $0 start|stop|status|env [DIR]" >&2; exit 2 ;;
esac
