"""The Python client as a developer meets it: installed with pip, the docs' snippets run as
written (against the fake Tandem, and against a real `tandem serve` when it is built), and the
client against the real service.

    python3 -m unittest discover -s Examples/clients -v

The real service is `.build/debug/tandem` of this repository (scripts/test.sh builds it before
running these tests); without it those tests are skipped, saying why.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import tandem_client as tandem  # noqa: E402
from test_tandem_client import WAIT, FakeTandem  # noqa: E402

TANDEM = os.path.join(ROOT, ".build", "debug", "tandem")
DOCS = {"Examples/clients/README.md": 3, "Docs/protocol.md": 2}  # each page's Python snippets, at least


def snippets(page: str) -> list[str]:
    with open(os.path.join(ROOT, page), encoding="utf-8") as text:
        return re.findall(r"^```python\n(.*?)^```", text.read(), re.MULTILINE | re.DOTALL)


def is_app(snippet: str) -> bool:
    return "tandem.App(" in snippet or "tandem.AsyncApp.connect(" in snippet


def deadline_wait(condition, timeout: float = WAIT * 2, what: str = "") -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


class Snippet:
    """A doc snippet run as its own program, as a developer would run it: `python3 app.py`, the
    client importable, the default socket in `runtime`."""

    def __init__(self, test: unittest.TestCase, code: str, runtime: str):
        self.folder = tempfile.mkdtemp(prefix="tandem-snippet-")
        test.addCleanup(shutil.rmtree, self.folder, True)
        path = os.path.join(self.folder, "app.py")
        with open(path, "w", encoding="utf-8") as file:
            file.write(code)
        env = dict(os.environ, XDG_RUNTIME_DIR=runtime, PYTHONPATH=HERE, PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen([sys.executable, path], cwd=self.folder, env=env, text=True,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        test.addCleanup(self.kill)
        self.out: list[str] = []
        self.reader = threading.Thread(target=lambda: self.out.extend(self.process.stdout), daemon=True)
        self.reader.start()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(WAIT)
        self.process.stdout.close()
        self.process.stderr.close()

    def ended(self) -> int:
        code = self.process.wait(WAIT * 2)
        self.reader.join(WAIT)
        return code


class DocSnippetTests(unittest.TestCase):
    """Every ```python block of README.md and Docs/protocol.md, run against the fake Tandem:
    an app snippet is driven as the counter it is (actions in, `set`s out, a refused message
    printed while the loop goes on); any other must run to its end with status 0."""

    def test_the_pages_have_their_snippets(self):
        for page, least in DOCS.items():
            self.assertGreaterEqual(len(snippets(page)), least, page)

    def test_every_snippet_runs_as_written(self):
        for page in DOCS:
            for number, code in enumerate(snippets(page), 1):
                with self.subTest(page=page, snippet=number):
                    fake = FakeTandem()
                    try:
                        if is_app(code):
                            self.drive_counter(code, fake)
                        else:
                            snippet = Snippet(self, code, fake.runtime_dir)
                            self.assertEqual(snippet.ended(), 0, snippet.process.stderr.read())
                            self.assertIn("apps: Groceries\n", snippet.out)
                    finally:
                        fake.close()

    def drive_counter(self, code: str, fake: FakeTandem) -> None:
        snippet = Snippet(self, code, fake.runtime_dir)
        hello = fake.received.get(timeout=WAIT * 2)
        self.assertEqual((hello["type"], hello["role"], hello["name"]), ("hello", "app", "Counter"))
        screen = fake.next_received("screen")["screen"]
        self.assertEqual((screen["id"], screen["focus"]), ("main", "count"))
        count = screen["root"]["children"][0]
        self.assertEqual((count["traits"], count["adjust"]), (["adjustable"], {"value": 0, "min": 0, "max": 10, "format": "%@"}))
        conn = fake.connection()
        # The first answer is refused, as a misspelled field would be: the app says so and goes on.
        fake.reject = lambda m: 'adjust.formt: unknown field "formt"' if m.get("type") == "set" and m["adjust"]["value"] == 1 else None
        values = []
        for action in ("increment", "increment", "decrement"):
            conn.send({"type": "action", "action": action, "id": "count"})
            message = fake.next_received("set")
            self.assertEqual(message["id"], "count")
            values.append(message["adjust"]["value"])
        self.assertEqual(values, [1, 2, 1])
        deadline_wait(lambda: any("unknown field" in line for line in snippet.out), what="the printed error")
        self.assertIn('line 3: adjust.formt: unknown field "formt" (sent: {"type":"set","id":"count"', "".join(snippet.out))
        conn.close()  # the service goes away: the loop ends with ConnectionClosed
        self.assertNotEqual(snippet.ended(), None)
        self.assertIn("ConnectionClosed", snippet.process.stderr.read())


class PackageTests(unittest.TestCase):
    def test_pip_installs_the_client_from_the_repository_folder_offline(self):
        venv = tempfile.mkdtemp(prefix="tandem-venv-")
        self.addCleanup(shutil.rmtree, venv, True)
        before = sorted(os.listdir(HERE))
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True,
                       capture_output=True, timeout=120)
        python, pip = os.path.join(venv, "bin", "python"), os.path.join(venv, "bin", "pip")
        outside = tempfile.mkdtemp(prefix="tandem-elsewhere-")  # not beside the module
        self.addCleanup(shutil.rmtree, outside, True)
        probe = ("import tandem_client as t, asyncio; print(t.__file__); print(t.__version__);"
                 " print(t.AsyncApp.__name__, t.Element('x', children=[]).to_json())")

        def install(*options: str) -> list[str]:
            result = subprocess.run([pip, "install", "--no-build-isolation", "--no-index", "--no-cache-dir",
                                     "--disable-pip-version-check", *options],
                                    cwd=ROOT, capture_output=True, text=True, timeout=180)
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
            found = subprocess.run([python, "-c", probe], cwd=outside, capture_output=True, text=True, timeout=60)
            self.assertEqual(found.returncode, 0, found.stderr)
            return found.stdout.splitlines()

        where, version, rest = install("./Examples/clients")
        self.assertTrue(where.startswith(venv) and where.endswith("site-packages/tandem_client.py"), where)
        self.assertEqual(version, tandem.__version__)
        self.assertEqual(rest, "AsyncApp {'id': 'x', 'children': []}")
        subprocess.run([pip, "uninstall", "-y", "tandem-client"], check=True, capture_output=True, timeout=60)
        where, _, _ = install("-e", "./Examples/clients")  # editable: the repository's own file
        self.assertEqual(os.path.realpath(where), os.path.join(os.path.realpath(HERE), "tandem_client.py"))
        self.assertEqual(sorted(name for name in os.listdir(HERE) if name != "__pycache__"),
                         sorted(name for name in before if name != "__pycache__"),
                         "nothing was written into the repository folder")


    def test_the_backend_builds_an_sdist_that_builds_the_same_wheel(self):
        import _tandem_build as backend
        import base64
        import hashlib
        import tarfile
        import zipfile
        out = tempfile.mkdtemp(prefix="tandem-dist-")
        self.addCleanup(shutil.rmtree, out, True)
        sdist = backend.build_sdist(out)
        self.assertEqual(sdist, f"tandem_client-{tandem.__version__}.tar.gz")
        with tarfile.open(os.path.join(out, sdist)) as archive:
            if hasattr(tarfile, "data_filter"):  # 3.12 warns without a filter; older ones have none
                archive.extractall(out, filter="data")
            else:
                archive.extractall(out)
            names = sorted(name.split("/", 1)[1] for name in archive.getnames())
        self.assertEqual(names, ["PKG-INFO", "README.md", "_tandem_build.py", "pyproject.toml", "tandem_client.py"])
        unpacked = os.path.join(out, f"tandem_client-{tandem.__version__}")
        built = subprocess.run([sys.executable, "-c", "import _tandem_build, sys; print(_tandem_build.build_wheel(sys.argv[1]))",
                                out], cwd=unpacked, capture_output=True, text=True, timeout=60)
        self.assertEqual(built.returncode, 0, built.stderr)
        wheel = built.stdout.strip()
        self.assertEqual(wheel, f"tandem_client-{tandem.__version__}-py3-none-any.whl")
        with zipfile.ZipFile(os.path.join(out, wheel)) as archive:
            with open(os.path.join(HERE, "tandem_client.py"), "rb") as source:
                self.assertEqual(archive.read("tandem_client.py"), source.read())
            record = archive.read(f"tandem_client-{tandem.__version__}.dist-info/RECORD").decode().splitlines()
            for row in record:
                path, digest, size = row.split(",")
                if digest:  # every file but RECORD itself is listed with its hash and size
                    data = archive.read(path)
                    self.assertEqual(digest, "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode())
                    self.assertEqual(int(size), len(data))
            self.assertEqual(len(record), len(archive.namelist()))


class RealService:
    """`tandem serve --profile headless` on a private socket, with no speech-dispatcher or
    BRLTTY (both reported missing; the session goes on), and a runtime folder whose
    `tandem/control.sock` is its socket, so the default socket finds it."""

    def __init__(self, test: unittest.TestCase):
        self.folder = tempfile.mkdtemp(prefix="tandem-serve-")
        test.addCleanup(shutil.rmtree, self.folder, True)
        self.socket = os.path.join(self.folder, "control.sock")
        self.runtime = tempfile.mkdtemp(prefix="tandem-runtime-")
        test.addCleanup(shutil.rmtree, self.runtime, True)
        os.symlink(self.folder, os.path.join(self.runtime, "tandem"))
        env = dict(os.environ, SPEECHD_ADDRESS=f"unix_socket:{self.folder}/no-speechd.sock",
                   BRLAPI_HOST="127.0.0.1:4999", TANDEM_PROFILES=os.path.join(ROOT, "Profiles"))
        env.pop("JOURNAL_STREAM", None)
        self.process = subprocess.Popen([TANDEM, "serve", "--socket", self.socket, "--profile", "headless"],
                                        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, text=True)
        test.addCleanup(self.stop)
        self.log: list[str] = []
        threading.Thread(target=lambda: self.log.extend(self.process.stderr), daemon=True).start()
        deadline_wait(lambda: any(f"serving on {self.socket}" in line for line in self.log)
                      or self.process.poll() is not None, 20, "tandem serve to start")
        test.assertIsNone(self.process.poll(), "".join(self.log))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stderr.close()


def speech(ctl: tandem.Controller, text: str) -> list[str]:
    """What the service speaks until `text` is spoken, as the value (fails after a while)."""
    heard: list[str] = []
    end = time.monotonic() + WAIT * 2
    while time.monotonic() < end:
        message = ctl.next_message(timeout=0.2)
        if message and message["type"] == "transcript" and message["line"].get("op") == "speak":
            heard.append(message["line"]["text"])
            if message["line"]["text"] == text and message["line"].get("src") == "value":
                return heard
    raise AssertionError(f"'{text}' was not spoken; heard {heard}")


@unittest.skipUnless(os.access(TANDEM, os.X_OK), f"{TANDEM} is not built (swift build; scripts/test.sh builds it)")
class RealServiceTests(unittest.TestCase):
    def test_the_docs_app_snippets_are_heard_from_a_real_service(self):
        for page in DOCS:
            for number, code in enumerate(snippets(page), 1):
                if not is_app(code):
                    continue
                with self.subTest(page=page, snippet=number):
                    serve = RealService(self)
                    snippet = Snippet(self, code, serve.runtime)
                    with tandem.Controller(serve.socket, timeout=WAIT) as ctl:
                        deadline_wait(lambda: ctl.status().get("focus") == "count", what="the counter's screen in front")
                        ctl.subscribe(["speech"], id="sub")
                        ctl.command("increment", id=1)
                        speech(ctl, "1")
                        ctl.command("increment", id=2)
                        speech(ctl, "2")
                        other = [c for c in snippets("Examples/clients/README.md") if not is_app(c)]
                        for controller_snippet in other:  # the controller snippet, against this service
                            run = Snippet(self, controller_snippet, serve.runtime)
                            self.assertEqual(run.ended(), 0, run.process.stderr.read())
                            self.assertIn("apps: Counter\n", run.out)
                    serve.stop()  # the service goes away: the app's loop ends
                    snippet.ended()

    def test_errors_are_events_sync_raises_them_and_long_lines_are_refused(self):
        serve = RealService(self)
        with tandem.App("Tasks", serve.socket, timeout=WAIT) as app:
            self.assertEqual(app.max_line, 1 << 20, "the welcome's maxLine")
            self.assertIn("appStatus", app.features)
            app.screen(tandem.Screen("main", focus="list", root=tandem.Element("root", children=[
                tandem.Element("list", label="Tasks (2)", frame=[0, 0, 390, 200], children=[
                    tandem.Element("a", label="Buy milk", frame=[0, 0, 390, 44]),
                    tandem.Element("b", label="Call mum", frame=[0, 50, 390, 44])])])))
            app.update([tandem.Element("list", traits=["buton"])])  # misspelled: refused
            with self.assertRaisesRegex(tandem.TandemError, 'buton') as caught:
                app.sync()
            self.assertEqual(caught.exception.line, 3)
            with self.assertRaises(tandem.LineTooLong) as caught:
                app.announce("x" * (1 << 20))
            self.assertEqual(caught.exception.limit, 1 << 20)
            app.update([tandem.Element("list", label="Tasks (1)", frame=[0, 0, 390, 200])])  # children kept
            app.sync()
            app.update([tandem.Element("a", label="Buy oat milk", hint=None, frame=[0, 0, 390, 44])], focus="a")
            app.set("ghost", label="x")  # refused: an event, and the loop goes on
            first = app.next_message(timeout=WAIT)
            while first["type"] == "focus":
                first = app.next_message(timeout=WAIT)
            self.assertEqual((first["type"], first["sent"]), ("error", {"type": "set", "id": "ghost", "label": "x"}))
            with tandem.Controller(serve.socket, timeout=WAIT) as ctl:
                self.assertEqual(ctl.status()["focus"], "a", "the list kept its children: focus could move to one")

    def test_a_commands_input_reaches_the_service(self):
        # activate on a text field starts typing into it from a keyboard, not from touch (the
        # headless profile's input, which a command without `input` keeps)
        serve = RealService(self)
        with tandem.App("Signup", serve.socket, timeout=WAIT) as app:
            app.screen(tandem.Screen("main", focus="email", root=tandem.Element("root", children=[
                tandem.Element("email", label="Email", traits=["textField"], frame=[0, 0, 390, 44])])))
            with tandem.Controller(serve.socket, timeout=WAIT) as ctl:
                self.assertIn("commandInput", ctl.features)
                deadline_wait(lambda: ctl.status().get("focus") == "email", what="the field in front")
                ctl.command("activate", id=1)
                self.assertNotIn("editing", ctl.status())
                ctl.command("activate", input="keyboard", id=2)
                self.assertEqual(ctl.status().get("editing"), "email")
                with self.assertRaises(ValueError):
                    ctl.command("escape", input="keys", id=3)
                self.assertEqual(ctl.status().get("editing"), "email", "the refused command was not sent")

    def test_a_line_the_service_refuses_ends_with_its_reason_not_broken_pipe(self):
        serve = RealService(self)
        app = tandem.App("Tasks", serve.socket, timeout=WAIT)
        self.addCleanup(app.close)
        app.max_line = 4 << 20  # as if the welcome had said more: the service's own limit decides
        try:
            app.announce("x" * (2 << 20))
        except tandem.ConnectionClosed as error:  # when the service closed before taking it all
            self.assertNotIn("Broken pipe", str(error))
            self.assertIn("after its error: line 2 is longer than the limit of 1048576 bytes", str(error))
        events = []
        with self.assertRaisesRegex(tandem.ConnectionClosed, "after its error: line 2 is longer than the limit"):
            for message in app.messages():
                events.append(message)
        self.assertEqual([(m["type"], m["line"]) for m in events], [("error", 2)])
        self.assertIn("line 2 is longer than the limit of 1048576 bytes", events[0]["error"])

    def test_the_asyncio_client_against_a_real_service(self):
        serve = RealService(self)

        async def test():
            app = await tandem.AsyncApp.connect("Counter", serve.socket, timeout=WAIT)
            await app.screen(tandem.Screen("main", focus="count", root=tandem.Element("root", children=[
                tandem.Element("count", label="Count", traits="adjustable", frame=[16, 100, 358, 44],
                               adjust=tandem.Adjust(0, max=10))])))
            await app.set("count", lable="Count")  # misspelled: refused
            with self.assertRaisesRegex(tandem.TandemError, "lable"):
                await app.sync()
            ctl = await tandem.AsyncController.connect(serve.socket, timeout=WAIT)
            self.assertEqual((await ctl.status())["focus"], "count")
            self.assertEqual(await ctl.command("increment", id="i"), {"type": "ack", "id": "i"})
            async for message in app.events():
                if message["type"] == "action":
                    self.assertEqual((message["action"], message["id"]), ("increment", "count"))
                    break
            await ctl.close()
            await app.close()
        asyncio.run(asyncio.wait_for(test(), WAIT * 4))


if __name__ == "__main__":
    unittest.main()
