#!/usr/bin/env bash
# A descriptor closed twice, found in any test run (Docs/reliability.md#double-close).
#
#   scripts/close-check.sh build         # compiles Tests/Sanitizers/close-check.c into
#                                        # .build/close-check.so and prints its path
#   scripts/close-check.sh report LOG    # prints each double close by Tandem's code in LOG,
#                                        # symbolized; exit 1 if there is one
#
# scripts/test.sh preloads the library into the test run (LD_PRELOAD, with TANDEM_CLOSE_LOG
# naming the log), then reports. Only the test process and the `tandem` binaries it runs are
# Tandem's: the daemons and shells the tests start are left out.
set -euo pipefail
cd "$(dirname "$0")/.."
case ${1:-} in
  build)
    mkdir -p .build
    # The toolchain's clang: present wherever Swift is.
    clang -shared -fPIC -O1 -o .build/close-check.so Tests/Sanitizers/close-check.c -ldl
    echo "$PWD/.build/close-check.so"
    ;;
  report)
    log=${2:?usage: scripts/close-check.sh report LOG}
    [ -f "$log" ] || exit 0
    python3 - "$log" <<'PY'
import re, subprocess, sys
found = 0
for block in open(sys.argv[1], errors="replace").read().split("=== ")[1:]:
    head, *frames = block.strip().split("\n")
    if "/.build/" not in head:
        continue
    found += 1
    print("=== " + head)
    for frame in frames:
        m = re.match(r"(.+?)\(\+(0x[0-9a-f]+)\)", frame)
        if not m or "/.build/" not in m.group(1):
            print("   " + frame)
            continue
        where = subprocess.run(["addr2line", "-f", "-e", m.group(1), m.group(2)], capture_output=True, text=True).stdout.split("\n")
        name = subprocess.run(["swift", "demangle", "--simplified", "--compact", where[0]], capture_output=True, text=True).stdout.strip()
        print(f"   {name[:160]}  {where[1] if len(where) > 1 else ''}")
if found:
    print(f"close-check: Tandem's code closed {found} descriptor(s) twice (above)", file=sys.stderr)
sys.exit(1 if found else 0)
PY
    ;;
  *) echo "usage: scripts/close-check.sh build | report LOG" >&2; exit 64 ;;
esac
