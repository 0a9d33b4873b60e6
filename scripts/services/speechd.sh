#!/usr/bin/env bash
# A private, headless speech-dispatcher for Tandem's tests, demos and benchmarks. Its one
# output module, "capture", is sd_generic running a shell line that appends what it was asked
# to say to DIR/spoken.log instead of playing audio. Private socket, private HOME and XDG
# dirs, no audio device, no system instance, never autospawned. Everything lives under DIR.
#
#   scripts/services/speechd.sh start|stop|kill|restart|status|env [DIR]   (DIR default: .build/services/speechd)
#
#   start   (re)starts the daemon with a fresh config and an empty capture file; returns once
#           the socket answers SSIP and lists the capture module. Prints the address.
#   stop    SIGTERM, then SIGKILL after 0.5 s; then whatever is left of its session (output
#           modules and the shell lines they run). Safe to call twice.
#   kill    SIGKILL to the daemon and everything it started at once: a crash, for tests that
#           check what a client does when speech-dispatcher dies (the capture file stays).
#   restart like start, but appends to the capture file (after `kill`: one file for both lives).
#   status  exit 0 while the daemon runs.
#   env     SPEECHD_ADDRESS SPEECHD_CMD SPEECHD_CAPTURE SPEECHD_PID_FILE, for `eval`.
#
# Settings (environment, read by `start`):
#   SPEECHD_SPEAK_SECONDS  simulated speaking time per message (default 0)
#   SPEECHD_MS_PER_CHAR    simulated speaking time per character at rate 0, scaled by rate the way
#                          Tandem estimates speech (60 * 100 / (100 + rate) ms at MS_PER_CHAR=60);
#                          added to SPEAK_SECONDS (default 0)
#   SPEECHD_READY_TIMEOUT  seconds to wait for readiness (default 20)
#   SPEECHD_LOGLEVEL       1..5 (default 3; 5 logs every SSIP line to DIR/log/speech-dispatcher.log)
#   SPEECHD_WATCH_PID      when this process ends, the daemon is stopped too (tests that crash)
#
# Capture file DIR/spoken.log, one line per message (tab separated):
#   instant (both settings 0):  SAY<TAB>lang<TAB>voice<TAB>rate<TAB>pitch<TAB>volume<TAB>text
#   with a speaking time:       BEGIN<TAB>...same...   then, when "done",   END<TAB>...same...
#                               (a BEGIN without its END: interrupted by a priority rule or a cancel)
# Needs: speech-dispatcher, coreutils; scripts/install-deps.sh installs them.
set -euo pipefail

# Inherited descriptors closed (common.sh says why).
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cmd=${1:-start}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIR=${2:-$ROOT/.build/services/speechd}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
SOCK=$DIR/speechd.sock
MODDIR=/usr/lib/speech-dispatcher-modules
SECS=${SPEECHD_SPEAK_SECONDS:-0}
MPC=${SPEECHD_MS_PER_CHAR:-0}
TIMEOUT=${SPEECHD_READY_TIMEOUT:-20}
LEVEL=${SPEECHD_LOGLEVEL:-3}

# pid file -> pid, only while that pid is still our daemon (pids get reused)
daemon_pid() {
  local pid
  [[ -s $DIR/speechd.pid ]] || return 1
  pid=$(<"$DIR/speechd.pid")
  [[ $pid =~ ^[0-9]+$ && -r /proc/$pid/cmdline ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "-S $SOCK" || return 1
  echo "$pid"
}

# Members of session $1 whose command line mentions DIR: the daemon, its output module, and
# the shell lines the module runs (sd_generic puts those in process groups of their own, so a
# process group is not enough). `setsid` made the daemon a session leader: sid = its pid.
# Read from /proc, so nothing beyond bash is needed.
session_members() {
  local sid=$1 stat rest pid
  for stat in /proc/[0-9]*/stat; do
    pid=${stat#/proc/}; pid=${pid%/stat}
    { rest=$(<"$stat"); } 2>/dev/null || continue   # it may have just ended
    rest=${rest##*) }                       # after "pid (comm) ": state ppid pgrp session ...
    set -- $rest
    [[ ${4:-} == "$sid" ]] || continue
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$DIR" && echo "$pid"
  done
  return 0
}

# Running, not a zombie: the daemon's parent is init, which may reap late, and kill -0
# succeeds on a zombie (a `kill` then waited its full 2 s for nothing).
alive() {
  local state
  state=$(sed -n 's/^[0-9]* ([^)]*) \(.\).*/\1/p' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ -n $state && $state != Z && $state != X ]]
}

kill_session() {
  local sid=$1 pids
  pids=$(session_members "$sid")
  [[ -n $pids ]] && kill -KILL $pids 2>/dev/null || true
}

stop_watcher() {
  local pid
  [[ -s $DIR/watch.pid ]] || return 0
  pid=$(<"$DIR/watch.pid")
  if [[ $pid =~ ^[0-9]+$ ]] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "speechd-watch $DIR"; then
    # KILL, not TERM: a caller's blocked signals are inherited, and this loop must end now
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$DIR/watch.pid"
}

do_env() {
  echo "export SPEECHD_ADDRESS=unix_socket:$SOCK"
  echo "export SPEECHD_CMD=/bin/false   # an autospawn attempt fails instead of starting a system instance"
  echo "export SPEECHD_CAPTURE=$DIR/spoken.log"
  echo "export SPEECHD_PID_FILE=$DIR/speechd.pid"
}

do_stop() {
  local pid i
  stop_watcher
  if pid=$(daemon_pid); then
    kill -TERM "$pid" 2>/dev/null || true
    # a clean exit takes speech-dispatcher about 1.4 s; it keeps no state worth the wait
    for i in $(seq 10); do alive "$pid" || break; sleep 0.05; done
    alive "$pid" && kill -KILL "$pid" 2>/dev/null || true
    kill_session "$pid"
  fi
  rm -f "$DIR/speechd.pid" "$SOCK"
}

do_kill() {
  local pid
  pid=$(daemon_pid) || { echo "speech-dispatcher: not running" >&2; return 1; }
  # One kill(1) for the daemon and everything it runs, so that they die together: killed one
  # by one, a module or shell line that outlives its daemon by the time /proc takes to read
  # could finish a message (an END line) no client will hear of. A shell line started between
  # the reading and the kill is caught by the second pass, before its speaking time is up.
  kill_session "$pid"
  kill -KILL "$pid" 2>/dev/null || true
  kill_session "$pid"
  for _ in $(seq 40); do alive "$pid" || break; sleep 0.05; done
}

do_status() {
  if daemon_pid >/dev/null; then echo "speech-dispatcher: running"; else echo "speech-dispatcher: stopped"; return 1; fi
}

write_config() {
  mkdir -p "$DIR/conf/modules" "$DIR/log" "$DIR/runtime" "$DIR/home"
  chmod 700 "$DIR/runtime"
  # sd_generic substitutes only the FIRST $DATA in the line, so bind the fields to "$1".."$6"
  # once with `set --` ($1.. are no sd_generic variables and reach /bin/sh untouched). $DATA
  # arrives with ' escaped as '\'' and so must sit inside '...'; dotconf wants \' \" \\ inside "...".
  local q="\\'"
  local args="set -- ${q}\$DATA${q} ${q}\$LANGUAGE${q} ${q}\$VOICE${q} ${q}\$RATE${q} ${q}\$PITCH${q} ${q}\$VOLUME${q};"
  local fmt="printf ${q}%s\\\\t%s\\\\t%s\\\\t%s\\\\t%s\\\\t%s\\\\t%s\\\\n${q}"
  local fields='\"$2\" \"$3\" \"$4\" \"$5\" \"$6\" \"$1\"'
  local synth
  if [[ $SECS =~ ^0*(\.0*)?$ && $MPC =~ ^0+$ ]]; then     # both zero ("0", "0.0"): instant
    synth="$args $fmt SAY $fields >> $DIR/spoken.log"
  else
    # Speaking time: SECS, plus MPC ms a character scaled by the rate as Tandem's estimate is
    # (the rate arrives as e.g. 50.00; clamped to -50..100). wc -m counts characters, not bytes.
    local wait="n=\$(printf %s \\\"\$1\\\" | LC_ALL=C.UTF-8 wc -m); r=\${4%%.*}; r=\${r:-0};"
    wait+=" [ \$r -lt -50 ] && r=-50; [ \$r -gt 100 ] && r=100;"
    wait+=" ms=\$(( n * $MPC * 100 / (100 + r) )); sleep $SECS;"
    wait+=" [ \$ms -gt 0 ] && sleep \$((ms / 1000)).\$(printf %03d \$((ms % 1000)));"
    synth="$args $fmt BEGIN $fields >> $DIR/spoken.log; $wait $fmt END $fields >> $DIR/spoken.log"
  fi
  local US=$'\x1f'
  cat >"$DIR/conf/modules/capture.conf" <<CONF
Debug 0
GenericExecuteSynth "$synth"
# One chunk per message: the default delimiter "." would split "A. B" into two runs; $US is
# ASCII 0x1F (unit separator), which Tandem never sends. ("" is rejected by the parser.)
GenericDelimiters "$US"
# Tandem caps an utterance at 16000 UTF-8 bytes; a bigger chunk keeps it one line here.
GenericMaxChunkLength 65536
# utf-8 for every language used; unlisted languages are recoded to iso-8859-1 ('?' fallback)
GenericLanguage "en" "en" "utf-8"
GenericLanguage "en-us" "en-us" "utf-8"
GenericLanguage "en-gb" "en-gb" "utf-8"
GenericLanguage "pt" "pt" "utf-8"
GenericLanguage "pt-br" "pt-br" "utf-8"
GenericLanguage "pt-pt" "pt-pt" "utf-8"
GenericLanguage "ru" "ru" "utf-8"
GenericLanguage "de" "de" "utf-8"
GenericLanguage "fr" "fr" "utf-8"
GenericLanguage "es" "es" "utf-8"
GenericLanguage "c" "c" "utf-8"
# the module refuses to load without a voice; the voice name shows in the capture line
AddVoice "en" "MALE1" "capture-en"
AddVoice "en" "FEMALE1" "capture-en-female"
AddVoice "pt" "MALE1" "capture-pt"
AddVoice "ru" "MALE1" "capture-ru"
CONF
  cat >"$DIR/conf/speechd.conf" <<CONF
CommunicationMethod "unix_socket"
SocketPath "$SOCK"
Timeout 0
LogLevel $LEVEL
LogDir "$DIR/log"
DefaultModule "capture"
AddModule "capture" "sd_generic" "$DIR/conf/modules/capture.conf"
DefaultLanguage "en"
DefaultPunctuationMode "none"
# a module must initialise audio to load; libao's open touches no device (HOME/.libao: null)
AudioOutputMethod "libao"
# no SymbolsPreproc: text reaches the module exactly as sent
CONF
}

# ready = the socket answers SSIP and lists the capture module (spd-say never autospawns here:
# the address is explicit and SPEECHD_CMD is /bin/false)
probe() {
  SPEECHD_ADDRESS=unix_socket:$SOCK SPEECHD_CMD=/bin/false HOME=$DIR/home \
    timeout 2 spd-say -O 2>/dev/null | grep -qx capture
}

start_watcher() {
  local watch=${SPEECHD_WATCH_PID:-}
  [[ $watch =~ ^[0-9]+$ ]] || return 0
  # `exec -a` names the loop so that stop can tell it from a reused pid
  setsid bash -c 'exec -a "speechd-watch $1" bash -c "while kill -0 $2 2>/dev/null; do sleep 0.5; done; \"$3\" stop \"$1\" >/dev/null 2>&1" ' \
    _ "$DIR" "$watch" "$HERE/speechd.sh" </dev/null >/dev/null 2>&1 &
  echo $! >"$DIR/watch.pid"
}

do_start() {
  local keep=${1:-}
  command -v speech-dispatcher >/dev/null || { echo "speech-dispatcher is not installed (scripts/install-deps.sh)" >&2; exit 1; }
  [[ $DIR =~ ^[A-Za-z0-9/._+-]+$ ]] || { echo "DIR must be a plain path (it is pasted into a shell line): $DIR" >&2; exit 1; }
  [[ $SECS =~ ^[0-9]+(\.[0-9]+)?$ && $MPC =~ ^[0-9]+$ ]] || { echo "SPEECHD_SPEAK_SECONDS must be a number, SPEECHD_MS_PER_CHAR a whole number" >&2; exit 1; }
  do_stop
  write_config
  if [[ -z $keep ]]; then : >"$DIR/spoken.log"; else touch "$DIR/spoken.log"; fi
  echo "default_driver=null" >"$DIR/home/.libao"
  env -u SPEECHD_ADDRESS HOME="$DIR/home" XDG_RUNTIME_DIR="$DIR/runtime" \
      XDG_CONFIG_HOME="$DIR/home/.config" XDG_CACHE_HOME="$DIR/home/.cache" \
      setsid speech-dispatcher -s -t 0 -C "$DIR/conf" -m "$MODDIR" -L "$DIR/log" -l "$LEVEL" \
      -c unix_socket -S "$SOCK" -P "$DIR/speechd.pid" \
      </dev/null >"$DIR/speechd.out" 2>&1 &
  local launcher=$! deadline=$((SECONDS + TIMEOUT))
  while ((SECONDS < deadline)); do
    if ! kill -0 "$launcher" 2>/dev/null; then
      echo "speech-dispatcher exited early:" >&2
      tail -20 "$DIR/speechd.out" "$DIR/log/"*.log >&2 2>/dev/null || true
      exit 1
    fi
    if [[ -S $SOCK && -s $DIR/speechd.pid ]] && probe; then
      start_watcher
      echo "speech-dispatcher ready: pid $(<"$DIR/speechd.pid") SPEECHD_ADDRESS=unix_socket:$SOCK capture=$DIR/spoken.log"
      return 0
    fi
    sleep 0.05
  done
  echo "speech-dispatcher not ready after ${TIMEOUT}s:" >&2
  tail -20 "$DIR/speechd.out" >&2 || true
  do_stop
  exit 1
}

case $cmd in
  start) do_start ;;
  restart) do_start keep ;;
  stop) do_stop ;;
  kill) do_kill ;;
  status) do_status ;;
  env) do_env ;;
  *) echo "usage: $0 start|stop|kill|restart|status|env [DIR]" >&2; exit 2 ;;
esac
