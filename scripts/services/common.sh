# Sourced by the private daemons' scripts (speechd.sh, atspi.sh) first thing.
#
# Descriptors inherited from the caller (a test runner's sockets and pipes) must not live on
# in the daemons: close all but stdin, stdout, stderr and bash's own script descriptor (255).
for fd in /proc/$$/fd/*; do
  fd=${fd##*/}
  [[ $fd =~ ^[0-9]+$ ]] && ((fd > 2 && fd < 255)) && eval "exec $fd>&-" 2>/dev/null || true
done
