#!/usr/bin/python3
"""A fake braille display for BRLTTY's Virtual ("vr") braille driver. Python stdlib only.

BRLTTY runs with `-b vr -d client:SOCKET` and connects to us; we answer `cells N 1`, keep
what BRLTTY shows, and pass key commands that a test writes into a FIFO on to BRLTTY.

  vrdisplay.py --socket PATH --cells N --log FILE --state FILE --fifo FILE [--watch-pid PID --brltty-pid-file FILE]

--state  the display now, rewritten atomically (write + rename) after every change:
           braille <one U+2800+dots character a cell; BRLTTY ORs the cursor in as dots 7-8>
           dots <BRLTTY's raw form: 1|12|…, a blank cell is " ">
           visual <the text BRLTTY sent with the cells>
           connected yes|no
           updates <how many cell lines arrived so far>
--log    append-only: `<CLOCK_MONOTONIC ns> LISTENING|CONNECTED|DISCONNECTED|RX <line>|
         BRAILLE <cells>|VISUAL <text>|KEY <command>|KEY-DROPPED <command>`
--fifo   one BRLTTY command a line (`LNDN`, `ROUTE 3`, `KEY_ENTER`); created when missing.
         Note vr's numbering: `ROUTE n` is the 0-based cell n, and n must be 1…256, so the
         first cell cannot be routed through vr.
--watch-pid  when that process is gone (a test runner that crashed), stop the BRLTTY whose
         pid is in --brltty-pid-file and exit, so nothing is left running.

The vr driver handles one command line per socket read: a second line arriving in the same
read waits until more data comes. So keys are sent one at a time, each after BRLTTY has read
the previous one (our socket's send queue is empty).
"""
import argparse
import array
import fcntl
import os
import selectors
import signal
import socket
import termios
import time


def dots_to_unicode(spec):
    """BRLTTY's `1|12|…` form to Unicode braille (dot n is bit n-1)."""
    out = []
    for cell in spec.split("|"):
        value = 0
        for ch in cell:
            if ch in "12345678":
                value |= 1 << (int(ch) - 1)
        out.append(chr(0x2800 + value))
    return "".join(out)


def unquote(s):
    """BRLTTY strings are "…" with \\\\ and \\" escapes."""
    s = s.strip()
    if len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        s = s[1:-1]
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out.append(s[i + 1])
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def pid_alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


class Display:
    def __init__(self, args):
        self.args = args
        self.log = open(args.log, "a", buffering=1, encoding="utf-8")
        self.state = {"braille": "", "dots": "", "visual": "", "connected": "no", "updates": 0}
        self.conn = None
        self.rbuf = b""
        self.fbuf = b""

    def event(self, text):
        self.log.write(f"{time.monotonic_ns()} {text}\n")

    def write_state(self):
        tmp = self.args.state + ".tmp"
        s = self.state
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(f"braille {s['braille']}\ndots {s['dots']}\nvisual {s['visual']}\n"
                    f"connected {s['connected']}\nupdates {s['updates']}\n")
        os.replace(tmp, self.args.state)

    def send_key(self, command):
        self.conn.sendall((command + "\n").encode())
        queued = array.array("i", [0])
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            fcntl.ioctl(self.conn.fileno(), termios.TIOCOUTQ, queued, True)
            if queued[0] == 0:
                break
            time.sleep(0.001)
        time.sleep(0.005)  # let BRLTTY act on it before the next line

    def on_line(self, line):
        self.event("RX " + line)
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word == "braille":
            self.state["dots"] = unquote(rest)
            self.state["braille"] = dots_to_unicode(self.state["dots"])
            self.state["updates"] += 1
            self.event("BRAILLE " + self.state["braille"])
            self.write_state()
        elif word == "visual":
            self.state["visual"] = unquote(rest)
            self.event("VISUAL " + self.state["visual"])
            self.write_state()

    def stop_brltty(self):
        path = self.args.brltty_pid_file
        if not path:
            return
        try:
            with open(path) as f:
                pid = int(f.read().strip())
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
            if "client:" + self.args.socket in cmdline:
                os.kill(pid, signal.SIGKILL)
        except (OSError, ValueError):
            pass

    def run(self):
        a = self.args
        if os.path.exists(a.socket):
            os.unlink(a.socket)
        if not os.path.exists(a.fifo):
            os.mkfifo(a.fifo, 0o600)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(a.socket)
        listener.listen(1)
        # O_RDWR keeps the FIFO open with no writer attached (no EOF busy loop).
        fifo = os.open(a.fifo, os.O_RDWR | os.O_NONBLOCK)
        sel = selectors.DefaultSelector()
        sel.register(listener, selectors.EVENT_READ, "listen")
        sel.register(fifo, selectors.EVENT_READ, "fifo")
        self.write_state()
        self.event("LISTENING")
        while True:
            if a.watch_pid and not pid_alive(a.watch_pid):
                self.event("WATCHED-PROCESS-GONE")
                self.stop_brltty()
                return
            for key, _ in sel.select(timeout=1.0):
                if key.data == "listen":
                    c, _ = listener.accept()
                    if self.conn is not None:  # one BRLTTY at a time
                        c.close()
                        continue
                    self.conn, self.rbuf = c, b""
                    self.conn.sendall(f"cells {a.cells} {a.rows}\n".encode())
                    sel.register(self.conn, selectors.EVENT_READ, "conn")
                    self.state["connected"] = "yes"
                    self.event("CONNECTED")
                    self.write_state()
                elif key.data == "conn":
                    try:
                        data = self.conn.recv(65536)
                    except OSError:
                        data = b""
                    if not data:
                        sel.unregister(self.conn)
                        self.conn.close()
                        self.conn = None
                        self.state["connected"] = "no"
                        self.event("DISCONNECTED")
                        self.write_state()
                        continue
                    self.rbuf += data
                    while b"\n" in self.rbuf:
                        line, self.rbuf = self.rbuf.split(b"\n", 1)
                        self.on_line(line.rstrip(b"\r").decode("utf-8", "replace"))
                elif key.data == "fifo":
                    try:
                        self.fbuf += os.read(fifo, 4096)
                    except BlockingIOError:
                        continue
                    while b"\n" in self.fbuf:
                        line, self.fbuf = self.fbuf.split(b"\n", 1)
                        command = line.decode("utf-8", "replace").strip()
                        if not command:
                            continue
                        if self.conn is None:
                            self.event("KEY-DROPPED " + command)
                            continue
                        try:
                            self.send_key(command)
                            self.event("KEY " + command)
                        except OSError:
                            self.event("KEY-DROPPED " + command)


def main():
    ap = argparse.ArgumentParser(description="fake braille display for BRLTTY's vr driver")
    ap.add_argument("--socket", required=True, help="unix socket path to listen on")
    ap.add_argument("--cells", type=int, default=40)
    ap.add_argument("--rows", type=int, default=1)
    ap.add_argument("--log", required=True)
    ap.add_argument("--state", required=True)
    ap.add_argument("--fifo", required=True)
    ap.add_argument("--watch-pid", type=int, default=0)
    ap.add_argument("--brltty-pid-file", default="")
    args = ap.parse_args()

    def on_term(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    try:
        Display(args).run()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
