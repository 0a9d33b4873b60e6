#!/usr/bin/env python3
"""Drive `tandem serve` as the user's keys would, and print what Tandem says.

    python3 Examples/clients/controller.py                    # status, then follow the transcript
    python3 Examples/clients/controller.py next next increment
    python3 Examples/clients/controller.py --json "route 3"   # transcript lines as JSON

Commands are the scenario's (`next`, `activate`, `action-next`, `route 3`, …). After the
commands, the transcript is printed until nothing has come for `--quiet-for` seconds
(with no commands: until Ctrl-C).
"""

from __future__ import annotations

import argparse
import json
import sys

import tandem_client as tandem  # beside this file


def describe(line: dict) -> str | None:
    """A transcript line as a person reads it, or None for what is not worth a line here."""
    channel = line.get("ch")
    if channel == "speech" and line.get("op") == "speak":
        return f"{line['t']:>8}  says   {line['text']}   ({line['prio']}, {line.get('src', '')})"
    if channel == "braille":
        return f"{line['t']:>8}  shows  {line['text']}"
    if channel == "event" and line.get("type") in ("key", "focus", "action", "activate", "screen"):
        details = " ".join(f"{k}={v}" for k, v in line.items() if k not in ("t", "ch", "type"))
        return f"{line['t']:>8}  event  {line['type']} {details}"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description="Send navigator commands to tandem serve.")
    parser.add_argument("commands", nargs="*", help="navigator commands, e.g. next increment")
    parser.add_argument("--socket", help="the control socket (default: $XDG_RUNTIME_DIR/tandem/control.sock)")
    parser.add_argument("--json", action="store_true", help="print transcript lines as JSON")
    parser.add_argument("--quiet-for", type=float, default=2.0, metavar="SECONDS",
                        help="stop after this long without a transcript line (default 2)")
    args = parser.parse_args()
    try:
        with tandem.Controller(args.socket) as ctl:
            status = ctl.status()
            apps = ", ".join(f"{a['name']} ({a['client']}{', foreground' if a.get('foreground') else ''})"
                             for a in status.get("apps", [])) or "none"
            print(f"apps: {apps}; speech {status.get('speech')}, braille {status.get('braille')}")
            ctl.subscribe(id="subscribe")  # the ack says the transcript has started
            for number, command in enumerate(args.commands, 1):
                ctl.command(command, id=number)  # with an id: an unknown command raises here
            timeout = args.quiet_for if args.commands else None
            while True:
                message = ctl.next_message(timeout=timeout)
                if message is None:
                    return 0
                if message.get("type") != "transcript":
                    continue
                text = json.dumps(message["line"], ensure_ascii=False) if args.json else describe(message["line"])
                if text:
                    print(text, flush=True)
    except tandem.TandemError as error:
        print(f"controller: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
