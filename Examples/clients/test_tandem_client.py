"""Tests for tandem_client.py and the example apps, against a fake Tandem.

    python3 -m unittest discover -s Examples/clients -v

The fake speaks just enough of protocol v1 (Docs/protocol.md) to
answer hello, status and ids, to reject what a test asks it to, and to let a test push
messages (actions, transcript lines) or raw bytes to the client. Waits are bounded only to
fail a broken test instead of hanging; nothing asserts on timing.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import queue
import shutil
import socket
import socketserver
import sys
import tempfile
import threading
import time
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tandem_client as tandem  # noqa: E402
import grocery_app  # noqa: E402
import controller  # noqa: E402

WAIT = 5.0  # seconds a test waits for something before it fails


class FakeConnection:
    """The server side of one client connection, for a test to push to."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.lock = threading.Lock()
        self.subscribed = False

    def send(self, message: dict) -> None:
        self.send_raw((json.dumps(message, ensure_ascii=False) + "\n").encode())

    def send_raw(self, data: bytes) -> None:
        with self.lock:
            self.sock.sendall(data)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)


class FakeHandler(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        fake: FakeTandem = self.server.fake  # type: ignore[attr-defined]
        conn = FakeConnection(self.request)
        fake.connections.put(conn)
        number = 0
        for raw in self.rfile:
            number += 1
            fake.raw_lines.put(raw)
            message = json.loads(raw)
            fake.received.put(message)
            reply = fake.answer(conn, message, number)
            if reply is not None:
                try:
                    conn.send(reply)
                except OSError:  # the client has gone (a snippet that ended): nothing to answer
                    return
            if message.get("type") == "hello" and reply and reply["type"] == "error":
                conn.close()
                return


class FakeTandem:
    """A stand-in for `tandem serve` on a temporary socket, `<tmp>/tandem/control.sock`."""

    def __init__(self, versions=(1,), auto_reply=True, features=("appStatus", "commandInput", "edits"), max_line=None,
                 max_update_nodes=None):
        self.versions = versions
        self.max_line = max_line  # None: the welcome has no `maxLine` (an older service)
        self.max_update_nodes = max_update_nodes  # None: no `maxUpdateNodes` either
        # A test's own refusals: called with each message after hello, a sentence rejects it.
        self.reject = lambda message: None
        # The names its welcome announces; None: no `features` member at all (an older service).
        self.features = features
        self.auto_reply = auto_reply  # False: only hello is answered; the test replies itself
        self.runtime_dir = tempfile.mkdtemp(prefix="tandem-test-")
        os.mkdir(os.path.join(self.runtime_dir, "tandem"), 0o700)
        self.path = os.path.join(self.runtime_dir, "tandem", "control.sock")
        self.received: queue.Queue = queue.Queue()
        self.raw_lines: queue.Queue = queue.Queue()
        self.connections: queue.Queue = queue.Queue()
        self.clients = 0
        self.server = socketserver.ThreadingUnixStreamServer(self.path, FakeHandler)
        self.server.daemon_threads = True
        self.server.fake = self  # type: ignore[attr-defined]
        # A short poll interval only makes shutdown() quick between tests.
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def answer(self, conn: FakeConnection, message: dict, line: int) -> dict | None:
        kind = message.get("type")

        def with_id(reply: dict) -> dict:
            if "id" in message and kind != "set":  # a set's id names its element
                reply["id"] = message["id"]
            return reply

        def error(sentence: str) -> dict:
            reply = with_id({"type": "error", "error": sentence, "line": line})
            if kind == "set":
                reply["id"] = message["id"]
            return reply

        if kind == "hello":
            if message.get("v") not in self.versions:
                return error(f"protocol version {message.get('v')} is not supported; this Tandem"
                             f" speaks {', '.join(map(str, self.versions))}")
            self.clients += 1
            welcome = {"type": "welcome", "v": 1, "client": f"c{self.clients}"}
            if self.features is not None:
                welcome["features"] = list(self.features)
            if self.max_line is not None:
                welcome["maxLine"] = self.max_line
            if self.max_update_nodes is not None:
                welcome["maxUpdateNodes"] = self.max_update_nodes
            return welcome
        if not self.auto_reply:
            return None
        refusal = self.reject(message)
        if refusal is not None:
            return error(refusal)
        if kind == "status":
            return with_id({"type": "status", "apps": [{"client": "c1", "name": "Groceries",
                            "foreground": True}], "speech": "available", "braille": "unavailable"})
        if kind == "command" and message.get("command") not in ("next", "previous", "increment"):
            return error(f"unknown command '{message.get('command')}'")
        if kind == "set" and message.get("id") == "nowhere":
            return error("no element 'nowhere' in the app's tree")
        if kind == "subscribe":
            conn.subscribed = True
        if kind == "command" and conn.subscribed:
            # What Tandem would say after a key: enough for the controller example to print.
            conn.send({"type": "transcript", "line": {"t": 10, "ch": "event", "type": "key",
                                                      "command": message["command"]}})
            conn.send({"type": "transcript", "line": {"t": 10, "ch": "speech", "op": "speak",
                       "prio": "text", "text": "Banana quantity, 1 in cart, adjustable",
                       "lang": "en", "src": "focus"}})
        if kind in ("screen", "update", "set", "notify", "command", "subscribe",
                    "unsubscribe", "foreground", "status"):
            return with_id({"type": "ack"}) if "id" in message and kind != "set" else None
        return error(f"unknown message type '{kind}'")

    def next_received(self, kind: str | None = None) -> dict:
        """The next message the fake received (skipping hello and, given `kind`, other types)."""
        while True:
            message = self.received.get(timeout=WAIT)
            if message.get("type") != "hello" and (kind is None or message.get("type") == kind):
                return message

    def connection(self) -> FakeConnection:
        return self.connections.get(timeout=WAIT)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        while not self.connections.empty():
            self.connections.get().close()
        shutil.rmtree(self.runtime_dir, ignore_errors=True)


class FakeTestCase(unittest.TestCase):
    fake_options: dict = {}

    def setUp(self) -> None:
        self.fake = FakeTandem(**self.fake_options)
        self.addCleanup(self.fake.close)

    def app(self, **options) -> tandem.App:
        app = tandem.App("Groceries", self.fake.path, timeout=WAIT, **options)
        self.addCleanup(app.close)
        return app

    def controller(self) -> tandem.Controller:
        ctl = tandem.Controller(self.fake.path, timeout=WAIT)
        self.addCleanup(ctl.close)
        return ctl


class LineReaderTests(unittest.TestCase):
    def test_a_line_cut_anywhere_comes_out_whole(self):
        data = '{"type":"action","id":"café"}\n'.encode()
        for cut in range(1, len(data)):
            reader = tandem.LineReader()
            lines = reader.feed(data[:cut]) + reader.feed(data[cut:])
            self.assertEqual(lines, [data[:-1]], f"cut at byte {cut}")
            self.assertEqual(reader.pending, 0)

    def test_a_character_cut_between_reads_is_decoded_once_whole(self):
        reader = tandem.LineReader()
        data = "é\n".encode()  # two bytes before the newline
        self.assertEqual(reader.feed(data[:1]), [])
        self.assertEqual(reader.pending, 1)
        self.assertEqual([line.decode() for line in reader.feed(data[1:])], ["é"])

    def test_one_read_with_several_lines_and_a_partial_one(self):
        reader = tandem.LineReader()
        self.assertEqual(reader.feed(b'{"a":1}\n{"b":2}\r\n{"c"'), [b'{"a":1}', b'{"b":2}'])
        self.assertEqual(reader.pending, 4)
        self.assertEqual(reader.feed(b":3}\n"), [b'{"c":3}'])


class FlattenTests(unittest.TestCase):
    def test_nested_children_become_id_lists_parent_first(self):
        tree = {"id": "row", "group": True, "children": [
            {"id": "cell", "children": [{"id": "name", "label": "Banana"}]},
            {"id": "stepper", "traits": ["adjustable"]}]}
        self.assertEqual(tandem.flatten(tree), [
            {"id": "row", "group": True, "children": ["cell", "stepper"]},
            {"id": "cell", "children": ["name"]},
            {"id": "name", "label": "Banana"},
            {"id": "stepper", "traits": ["adjustable"]},
        ])
        self.assertIsInstance(tree["children"][0], dict, "the tree given is not changed")


class OpeningTests(FakeTestCase):
    def test_an_app_says_hello_with_its_name_and_language_and_learns_its_client_id(self):
        app = self.app(language="pt-BR")
        self.assertEqual(self.fake.received.get(timeout=WAIT),
                         {"type": "hello", "v": 1, "role": "app", "name": "Groceries", "language": "pt-BR"})
        self.assertEqual(app.client_id, "c1")

    def test_a_controller_says_hello_without_name(self):
        self.controller()
        self.assertEqual(self.fake.received.get(timeout=WAIT),
                         {"type": "hello", "v": 1, "role": "controller"})

    def test_the_default_socket_is_in_the_runtime_directory(self):
        with mock.patch.dict(os.environ, {"XDG_RUNTIME_DIR": self.fake.runtime_dir}):
            self.assertEqual(tandem.default_socket_path(), self.fake.path)
            ctl = tandem.Controller(timeout=WAIT)
        self.addCleanup(ctl.close)
        self.assertEqual(ctl.client_id, "c1")

    def test_without_a_runtime_directory_the_error_asks_for_a_path(self):
        with mock.patch.dict(os.environ, clear=True):
            with self.assertRaisesRegex(tandem.ConnectionClosed, "XDG_RUNTIME_DIR is not set"):
                tandem.Controller()

    def test_no_service_is_a_clear_connection_error(self):
        with self.assertRaisesRegex(tandem.ConnectionClosed, "is `tandem serve` running"):
            tandem.App("Groceries", os.path.join(self.fake.runtime_dir, "missing.sock"))


class RejectedHelloTests(FakeTestCase):
    fake_options = {"versions": (2,)}

    def test_an_unsupported_version_raises_tandems_sentence_not_a_bare_disconnect(self):
        with self.assertRaises(tandem.TandemError) as caught:
            tandem.App("Groceries", self.fake.path, timeout=WAIT)
        self.assertNotIsInstance(caught.exception, tandem.ConnectionClosed)
        self.assertIn("this Tandem speaks 2", caught.exception.message)
        self.assertEqual(caught.exception.line, 1)


class FeatureTests(FakeTestCase):
    fake_options = {"features": ["unsubscribe", "edits", "haptics"]}

    def test_the_welcomes_features_are_kept_unknown_names_too(self):
        self.assertEqual(self.app().features, frozenset({"edits", "haptics", "unsubscribe"}))
        self.assertEqual(self.controller().features, frozenset({"edits", "haptics", "unsubscribe"}))

    def test_with_edits_announced_edits_are_sent(self):
        self.app().remove("products", ["kiwi.row"])
        self.assertEqual(self.fake.next_received(), {"type": "update", "nodes": [],
                         "edits": [{"parent": "products", "remove": ["kiwi.row"]}]})


class OlderServiceTests(FakeTestCase):
    fake_options = {"features": None}

    def test_a_welcome_without_features_means_none(self):
        self.assertEqual(self.app().features, frozenset())

    def test_subscribe_keeps_only_the_channels_asked_for_though_the_service_sends_all(self):
        ctl = self.controller()
        lines = ctl.subscribe(["speech"])
        self.fake.next_received("subscribe")
        ctl.command("next")  # the fake, like a service without `channels`, sends an event line first
        line = next(lines)
        self.assertEqual((line["ch"], line["text"]), ("speech", "Banana quantity, 1 in cart, adjustable"))

    def test_edits_are_refused_before_sending_naming_the_feature(self):
        app = self.app()
        calls = {
            "insert": lambda: app.insert("products", [{"id": "kiwi.row"}], after="banana.row"),
            "remove": lambda: app.remove("products", ["kiwi.row"]),
            "update": lambda: app.update([], edits=[tandem.edit("products", remove=["milk.row"])], id=9),
        }
        for name, call in calls.items():
            with self.subTest(name):
                with self.assertRaises(tandem.FeatureUnavailable) as caught:
                    call()
                self.assertEqual(caught.exception.feature, "edits")
                self.assertIn("protocol feature 'edits'", str(caught.exception))
                self.assertIsInstance(caught.exception, tandem.TandemError)
        app.update([{"id": "products", "children": ["milk.row"]}])  # a whole list still goes
        self.assertEqual(self.fake.next_received(), {"type": "update",
                         "nodes": [{"id": "products", "children": ["milk.row"]}]},
                         "the first message after hello: none of the edits was sent")


class CommandInputTests(FakeTestCase):
    """`command`'s `input` (feature `commandInput`): one of three words, sent as given."""
    fake_options = {"features": ["commandInput"]}

    def test_the_input_method_goes_with_the_command(self):
        ctl = self.controller()
        for method in ("keyboard", "braille", "touch"):
            ctl.command("activate", input=method)
            self.assertEqual(self.fake.next_received(), {"type": "command", "command": "activate", "input": method})
        ctl.command("next")  # left out: the service's profile decides
        self.assertEqual(self.fake.next_received(), {"type": "command", "command": "next"})
        self.assertEqual(tandem.INPUT_METHODS, ("keyboard", "braille", "touch"))

    def test_another_word_is_refused_naming_the_three_and_nothing_is_sent(self):
        ctl = self.controller()
        for wrong in ("keybord", "Keyboard", "", 1, ["keyboard"]):
            with self.subTest(input=wrong):
                with self.assertRaises(ValueError) as caught:
                    ctl.command("next", input=wrong)
                self.assertEqual(str(caught.exception), f"input must be one of keyboard, braille, touch, not {wrong!r}")
        ctl.command("previous")
        self.assertEqual(self.fake.next_received(), {"type": "command", "command": "previous"},
                         "the first message after hello: none of the refused ones was sent")

    def test_the_asyncio_controller_sends_it_too(self):
        async def test():
            ctl = await tandem.AsyncController.connect(self.fake.path, timeout=WAIT)
            self.assertEqual(await ctl.command("next", input="braille", id=1), {"type": "ack", "id": 1})
            with self.assertRaises(ValueError):
                await ctl.command("next", input="mouse")
            await ctl.close()
        run_async(test)
        self.assertEqual(self.fake.next_received(), {"type": "command", "command": "next", "input": "braille", "id": 1})


class CommandInputOnAnOlderServiceTests(FakeTestCase):
    fake_options = {"features": ["edits"]}

    def test_input_is_refused_before_sending_naming_the_feature(self):
        ctl = self.controller()
        with self.assertRaises(tandem.FeatureUnavailable) as caught:
            ctl.command("activate", input="keyboard", id=1)
        self.assertEqual(caught.exception.feature, "commandInput")
        self.assertIn("leave input out", str(caught.exception))
        ctl.command("next")  # without input, it goes
        self.assertEqual(self.fake.next_received(), {"type": "command", "command": "next"})


class FramingTests(FakeTestCase):
    def test_each_message_is_one_utf8_line(self):
        app = self.app()
        app.announce("Café adicionado\nao carrinho")
        self.fake.raw_lines.get(timeout=WAIT)  # hello
        raw = self.fake.raw_lines.get(timeout=WAIT)
        self.assertTrue(raw.endswith(b"\n"))
        self.assertEqual(raw.count(b"\n"), 1, "a newline inside a string is escaped")
        self.assertIn("Café".encode(), raw, "non-ASCII text is sent as UTF-8, not \\u escapes")

    def test_nan_is_refused_before_anything_is_sent(self):
        app = self.app()
        with self.assertRaises(ValueError):
            app.set("checkout.loading", progress={"value": float("nan")})
        app.set("nowhere", label="x")  # Tandem rejects this one: its line number shows
        error = app.next_message(timeout=WAIT)  # whether the NaN line was sent
        self.assertEqual((error["type"], error["line"]), ("error", 2))

    def test_a_message_sent_a_byte_at_a_time_arrives_whole(self):
        app = self.app()
        conn = self.fake.connection()
        data = (json.dumps({"type": "action", "action": "custom", "id": "café.cell",
                            "name": "Excluir"}, ensure_ascii=False) + "\r\n").encode()
        for i in range(len(data)):
            conn.send_raw(data[i:i + 1])
            time.sleep(0.001)  # lets the reader see small pieces; correctness does not depend on it
        self.assertEqual(app.next_message(timeout=WAIT),
                         {"type": "action", "action": "custom", "id": "café.cell", "name": "Excluir"})

    def test_a_line_that_is_not_json_is_reported_and_reading_goes_on(self):
        app = self.app()
        conn = self.fake.connection()
        conn.send_raw(b"not json\n")
        conn.send({"type": "focus", "screen": "list", "id": "title"})
        event = app.next_message(timeout=WAIT)
        self.assertEqual(event["type"], "error")
        self.assertIn("not a JSON object", event["error"])
        self.assertEqual(app.next_message(timeout=WAIT)["id"], "title")


class AppMessageTests(FakeTestCase):
    def test_the_app_messages_have_the_protocols_shapes(self):
        app = self.app()
        screen = {"id": "list", "title": "Groceries", "focus": "title",
                  "root": {"id": "list.root", "children": [{"id": "title", "label": "Groceries"}]}}
        app.screen(screen)
        app.update([{"id": "title", "label": "Groceries (3)"}], focus="title")
        app.update([{"id": "title"}])
        app.set("sheet", hidden=False, modal=True, hint=None)
        app.announce("Banana deleted")
        app.announce("Connection lost", priority="high")
        app.layout_changed(focus="coffee.cell")
        app.layout_changed()
        app.screen_changed(focus="confirmed.title")
        app.page_scrolled("Page 2 of 5")
        expected = [
            {"type": "screen", "screen": screen},
            {"type": "update", "nodes": [{"id": "title", "label": "Groceries (3)"}], "focus": "title"},
            {"type": "update", "nodes": [{"id": "title"}]},
            {"type": "set", "id": "sheet", "hidden": False, "modal": True, "hint": None},
            {"type": "notify", "notification": "announcement", "text": "Banana deleted"},
            {"type": "notify", "notification": "announcement", "text": "Connection lost", "priority": "high"},
            {"type": "notify", "notification": "layoutChanged", "focus": "coffee.cell"},
            {"type": "notify", "notification": "layoutChanged"},
            {"type": "notify", "notification": "screenChanged", "focus": "confirmed.title"},
            {"type": "notify", "notification": "pageScrolled", "text": "Page 2 of 5"},
        ]
        for message in expected:
            self.assertEqual(self.fake.next_received(), message)

    def test_children_edits_name_only_what_changes(self):
        app = self.app()
        row = {"id": "kiwi.row", "group": True, "children": [{"id": "kiwi.cell", "label": "Kiwi"}]}
        app.insert("products", [row], after="banana.row")
        app.insert("products", [{"id": "apple.row"}], before="banana.row", focus="apple.row")
        app.remove("products", ["kiwi.row"])
        app.update([{"id": "title", "label": "Groceries (2)"}],
                   edits=[tandem.edit("products", remove=["milk.row"], insert=["milk.row"])])
        self.assertEqual(self.fake.next_received(), {"type": "update", "nodes": [
            {"id": "kiwi.row", "group": True, "children": ["kiwi.cell"]}, {"id": "kiwi.cell", "label": "Kiwi"}],
            "edits": [{"parent": "products", "insert": ["kiwi.row"], "after": "banana.row"}]})
        self.assertEqual(self.fake.next_received(), {"type": "update", "nodes": [{"id": "apple.row"}],
                         "edits": [{"parent": "products", "insert": ["apple.row"], "before": "banana.row"}],
                         "focus": "apple.row"})
        self.assertEqual(self.fake.next_received(), {"type": "update", "nodes": [],
                         "edits": [{"parent": "products", "remove": ["kiwi.row"]}]})
        self.assertEqual(self.fake.next_received(), {"type": "update", "nodes": [{"id": "title", "label": "Groceries (2)"}],
                         "edits": [{"parent": "products", "remove": ["milk.row"], "insert": ["milk.row"]}]})

    def test_an_edit_takes_after_or_before_not_both(self):
        with self.assertRaises(TypeError):
            tandem.edit("products", insert=["kiwi.row"], after="a", before="b")

    def test_set_sends_null_to_clear_a_field(self):
        app = self.app()
        app.set("banana.cell", hint=None)
        self.fake.raw_lines.get(timeout=WAIT)  # hello
        self.assertIn(b'"hint":null', self.fake.raw_lines.get(timeout=WAIT))

    def test_set_refuses_the_fields_it_cannot_change(self):
        app = self.app()
        for field in ("id", "children", "type"):
            with self.assertRaises(TypeError):
                app.set("banana.cell", **{field: "x"})

    def test_actions_and_focus_moves_come_in_order(self):
        app = self.app()
        conn = self.fake.connection()
        conn.send({"type": "focus", "screen": "list", "id": "banana.stepper"})
        conn.send({"type": "action", "action": "increment", "id": "banana.stepper"})
        conn.send({"type": "action", "action": "custom", "id": "banana.cell", "name": "Delete"})
        received = [app.next_message(timeout=WAIT) for _ in range(3)]
        self.assertEqual([(m["type"], m.get("action"), m["id"]) for m in received], [
            ("focus", None, "banana.stepper"),
            ("action", "increment", "banana.stepper"),
            ("action", "custom", "banana.cell")])
        self.assertEqual(received[2]["name"], "Delete")

    def test_next_message_returns_none_when_nothing_comes_in_time(self):
        self.assertIsNone(self.app().next_message(timeout=0.05))


class ReplyTests(FakeTestCase):
    def test_a_message_with_an_id_waits_for_its_ack(self):
        app = self.app()
        self.assertEqual(app.screen({"id": "list", "root": {"id": "r"}}, id=41), {"type": "ack", "id": 41})

    def test_an_error_reply_raises_with_tandems_sentence_its_line_and_what_was_sent(self):
        ctl = self.controller()
        ctl.command("next")
        with self.assertRaises(tandem.TandemError) as caught:
            ctl.command("jump", id={"n": 7})
        error = caught.exception
        self.assertEqual(error.message, "unknown command 'jump'")
        self.assertEqual((error.line, error.id), (3, {"n": 7}))  # hello, next, jump
        self.assertEqual(error.sent, {"type": "command", "command": "jump", "id": {"n": 7}})
        self.assertIn("line 3: unknown command 'jump'", str(error))

    def test_an_error_about_a_message_without_id_comes_from_next_message_as_an_event(self):
        app = self.app()
        app.set("nowhere", label="Gone")
        event = app.next_message(timeout=WAIT)
        self.assertEqual(event, {"type": "error", "error": "no element 'nowhere' in the app's tree", "line": 2,
                                 "id": "nowhere", "sent": {"type": "set", "id": "nowhere", "label": "Gone"}})
        error = tandem.TandemError.from_event(event)
        self.assertEqual((error.message, error.line, error.id), ("no element 'nowhere' in the app's tree", 2, "nowhere"))
        self.assertEqual(error.sent, {"type": "set", "id": "nowhere", "label": "Gone"})
        self.assertIn('line 2: no element \'nowhere\' in the app\'s tree (sent: {"type":"set"', str(error))
        self.assertIsNone(app.next_message(timeout=0.05), "the connection stays usable")

    def test_an_unsolicited_error_does_not_end_the_loop_of_messages(self):
        app = self.app()
        conn = self.fake.connection()
        self.fake.reject = lambda m: 'traits[0]: unknown trait "buton"' if m.get("type") == "update" else None
        app.update([{"id": "title", "traits": ["buton"]}])
        self.fake.next_received("update")
        conn.send({"type": "focus", "screen": "list", "id": "title"})
        conn.close()
        seen = []
        with self.assertRaises(tandem.ConnectionClosed):  # the end, and only the end, stops it
            for message in app.messages():
                seen.append((message["type"], message.get("error") or message.get("id")))
        self.assertEqual(seen, [("error", 'traits[0]: unknown trait "buton"'), ("focus", "title")])

    def test_status_always_waits_for_its_reply(self):
        status = self.controller().status()
        self.assertEqual(status["apps"][0]["name"], "Groceries")
        self.assertEqual(status["speech"], "available")

    def test_an_id_already_waiting_cannot_be_used_again(self):
        self.fake.auto_reply = False
        ctl = self.controller()
        waiting = threading.Thread(target=lambda: self.assertRaises(
            tandem.ConnectionClosed, ctl.status, id="s"))
        waiting.start()
        self.fake.next_received("status")
        with self.assertRaises(ValueError):
            ctl.status(id="s")
        ctl.close()
        waiting.join(WAIT)

    def test_no_reply_in_time_is_a_timeout(self):
        self.fake.auto_reply = False
        ctl = self.controller()
        with self.assertRaises(TimeoutError):
            ctl.send({"type": "status"}, id=1, timeout=0.05)


class ReplyMatchingTests(FakeTestCase):
    fake_options = {"auto_reply": False}

    def ask_status(self, client: tandem.Connection, request_id, results: dict) -> threading.Thread:
        def ask():
            try:
                results[request_id] = client.send({"type": "status"}, id=request_id)
            except Exception as error:  # reported by the test, not lost in the thread
                results[request_id] = error
        thread = threading.Thread(target=ask)
        thread.start()
        return thread

    def test_replies_out_of_order_reach_the_calls_that_asked(self):
        ctl = self.controller()
        conn = self.fake.connection()
        results: dict = {}
        threads = [self.ask_status(ctl, "first", results)]
        self.fake.next_received("status")
        threads.append(self.ask_status(ctl, 2, results))
        self.fake.next_received("status")
        conn.send({"type": "status", "id": 2, "apps": [], "speech": "unavailable", "braille": "available"})
        conn.send({"type": "status", "id": "first", "apps": [], "speech": "available", "braille": "unavailable"})
        for thread in threads:
            thread.join(WAIT)
        self.assertEqual(results["first"]["speech"], "available")
        self.assertEqual(results[2]["speech"], "unavailable")

    def test_an_action_naming_an_element_is_never_taken_for_a_reply(self):
        app = self.app()
        conn = self.fake.connection()
        results: dict = {}
        thread = self.ask_status(app, "banana.stepper", results)
        self.fake.next_received("status")
        conn.send({"type": "action", "action": "increment", "id": "banana.stepper"})
        conn.send({"type": "status", "id": "banana.stepper", "apps": [], "speech": "available",
                   "braille": "available"})
        thread.join(WAIT)
        self.assertEqual(results["banana.stepper"]["type"], "status")
        self.assertEqual(app.next_message(timeout=WAIT)["type"], "action")

    def test_a_whole_number_id_matches_when_it_comes_back_as_a_float(self):
        ctl = self.controller()
        conn = self.fake.connection()
        results: dict = {}
        thread = self.ask_status(ctl, 7, results)
        self.fake.next_received("status")
        conn.send_raw(b'{"type":"ack","id":7.0}\n')
        thread.join(WAIT)
        self.assertEqual(results[7], {"type": "ack", "id": 7.0})

    def test_an_ack_nobody_waits_for_is_dropped(self):
        app = self.app()
        conn = self.fake.connection()
        conn.send({"type": "ack", "id": "banana.stepper"})  # e.g. a service that acks every set
        conn.send({"type": "focus", "screen": "list", "id": "title"})
        self.assertEqual(app.next_message(timeout=WAIT)["type"], "focus")


class ClosingTests(FakeTestCase):
    fake_options = {"auto_reply": False}

    def test_when_tandem_goes_away_waiting_calls_and_readers_are_told(self):
        ctl = self.controller()
        conn = self.fake.connection()
        failures: list = []
        waiting = threading.Thread(target=lambda: failures.append(
            self.assertRaises(tandem.ConnectionClosed, ctl.status)))
        waiting.start()
        self.fake.next_received("status")
        conn.send({"type": "transcript", "line": {"t": 0, "ch": "sound", "icon": "screen"}})
        conn.close()
        waiting.join(WAIT)
        self.assertEqual(len(failures), 1, "the waiting status() raised ConnectionClosed")
        self.assertEqual(ctl.next_message(timeout=WAIT)["type"], "transcript", "what came before is kept")
        for _ in range(2):  # and every later read sees the end
            with self.assertRaisesRegex(tandem.ConnectionClosed, "Tandem closed the connection"):
                ctl.next_message(timeout=WAIT)
        with self.assertRaises(tandem.ConnectionClosed):
            list(ctl.messages())
        with self.assertRaises(tandem.ConnectionClosed):
            ctl.command("next")

    def test_the_services_last_error_before_it_closes_is_the_reason_given(self):
        ctl = self.controller()
        conn = self.fake.connection()
        conn.send({"type": "error", "error": "line 2 is longer than the limit of 100 bytes", "line": 2})
        conn.close()
        self.assertEqual(ctl.next_message(timeout=WAIT)["type"], "error")
        with self.assertRaisesRegex(tandem.ConnectionClosed, "^Tandem closed the connection, after its error: line 2 is"
                                    " longer than the limit of 100 bytes$"):
            ctl.next_message(timeout=WAIT)
        with self.assertRaisesRegex(tandem.ConnectionClosed, "after its error"):
            ctl.command("next")

    def test_an_error_about_a_set_is_not_taken_for_the_reason(self):
        app = self.app()
        conn = self.fake.connection()
        conn.send({"type": "error", "error": "no element 'ghost'", "line": 2, "id": "ghost"})
        conn.close()
        self.assertEqual(app.next_message(timeout=WAIT)["type"], "error")
        with self.assertRaisesRegex(tandem.ConnectionClosed, "^Tandem closed the connection$"):
            app.next_message(timeout=WAIT)

    def test_the_asyncio_client_gives_the_same_reason(self):
        async def test():
            ctl = await tandem.AsyncController.connect(self.fake.path, timeout=WAIT)
            conn = self.fake.connection()
            conn.send({"type": "error", "error": "the input ended in the middle of line 3", "line": 3})
            conn.close()
            with self.assertRaisesRegex(tandem.ConnectionClosed, "after its error: the input ended in the middle"):
                async for _ in ctl.events():
                    pass
            await ctl.close()
        run_async(test)

    def test_after_close_the_iterator_just_ends(self):
        app = self.app()
        done = threading.Event()
        seen: list = []

        def read():
            seen.extend(app.messages())
            done.set()
        threading.Thread(target=read).start()
        app.close()
        self.assertTrue(done.wait(WAIT))
        self.assertEqual(seen, [])
        app.close()  # a second close is harmless


class ControllerTests(FakeTestCase):
    def test_the_controller_messages_have_the_protocols_shapes(self):
        ctl = self.controller()
        ctl.command("next")
        ctl.unsubscribe()
        ctl.foreground(client="c2")
        ctl.foreground(name="Groceries")
        ctl.announce("Hello")
        for message in [{"type": "command", "command": "next"}, {"type": "unsubscribe"},
                        {"type": "foreground", "client": "c2"}, {"type": "foreground", "name": "Groceries"},
                        {"type": "notify", "notification": "announcement", "text": "Hello"}]:
            self.assertEqual(self.fake.next_received(), message)
        with self.assertRaises(TypeError):
            ctl.foreground()
        with self.assertRaises(TypeError):
            ctl.foreground(client="c2", name="Groceries")

    def test_subscribe_yields_transcript_lines_only(self):
        ctl = self.controller()
        lines = ctl.subscribe(["speech", "event"], id="sub")
        self.assertEqual(self.fake.next_received(), {"type": "subscribe", "channels": ["speech", "event"], "id": "sub"})
        conn = self.fake.connection()
        conn.send({"type": "transcript", "line": {"t": 0, "ch": "event", "type": "key", "command": "next"}})
        conn.send({"type": "something-new"})
        conn.send({"type": "transcript", "line": {"t": 0, "ch": "speech", "op": "speak", "text": "Coffee"}})
        self.assertEqual(next(lines)["ch"], "event")
        self.assertEqual(next(lines)["text"], "Coffee")


class SyncTests(FakeTestCase):
    def test_sync_raises_the_first_error_about_an_earlier_unwaited_message_and_takes_them_out(self):
        app = self.app()
        conn = self.fake.connection()
        app.set("banana.stepper", value="1 in cart")
        app.set("nowhere", label="Gone")       # line 3: refused
        app.set("nowhere", hint="Still gone")  # line 4: refused too
        with self.assertRaises(tandem.TandemError) as caught:
            app.sync()
        self.assertEqual((caught.exception.line, caught.exception.sent),
                         (3, {"type": "set", "id": "nowhere", "label": "Gone"}))
        self.assertEqual(self.fake.next_received("status")["type"], "status", "a status is the barrier")
        conn.send({"type": "focus", "screen": "list", "id": "title"})
        self.assertEqual(app.next_message(timeout=WAIT)["type"], "focus", "both errors were taken out")
        app.sync()  # nothing refused since: it returns

    def test_sync_leaves_errors_about_later_lines_and_other_messages_in_order(self):
        app = self.app()
        conn = self.fake.connection()
        conn.send({"type": "action", "action": "activate", "id": "checkout"})
        conn.send({"type": "error", "error": "about a later line", "line": 99})
        self.assertEqual(app.next_message(timeout=WAIT)["type"], "action")  # both have arrived
        app.sync()
        self.assertEqual(app.next_message(timeout=WAIT)["error"], "about a later line")

    def test_a_controller_syncs_and_asks_status(self):
        ctl = self.controller()
        ctl.command("jump")
        with self.assertRaisesRegex(tandem.TandemError, "line 2: unknown command 'jump'"):
            ctl.sync()
        self.assertEqual(self.controller().status()["speech"], "available")

    def test_an_app_asks_status_too(self):
        self.assertEqual(self.app().status()["apps"][0]["name"], "Groceries")


class SyncWithoutAppStatusTests(FakeTestCase):
    fake_options = {"features": ["edits"]}

    def test_an_apps_sync_needs_app_status_and_sends_nothing_without_it(self):
        app = self.app()
        for call in (app.sync, app.status):
            with self.assertRaises(tandem.FeatureUnavailable) as caught:
                call()
            self.assertEqual(caught.exception.feature, "appStatus")
        app.announce("after")
        self.assertEqual(self.fake.next_received()["type"], "notify", "no status was sent")


class MaxLineTests(FakeTestCase):
    fake_options = {"max_line": 120}

    def test_the_welcomes_max_line_is_kept(self):
        self.assertEqual(self.app().max_line, 120)

    def test_a_line_over_max_line_is_refused_before_sending_naming_its_size_and_the_limit(self):
        app = self.app()
        base = len(tandem._encode({"type": "notify", "notification": "announcement", "text": ""})) - 1
        app.announce("x" * (120 - base))  # exactly the limit: sent
        with self.assertRaises(tandem.LineTooLong) as caught:
            app.announce("x" * (121 - base))
        error = caught.exception
        self.assertEqual((error.size, error.limit), (121, 120))
        self.assertIsInstance(error, tandem.TandemError)
        self.assertIn("'notify' message is 121 bytes as one line, over the service's limit of 120 bytes", str(error))
        self.assertEqual(len(self.fake.next_received()["text"]), 120 - base)
        app.set("nowhere", label="x")  # the refused line was not counted: this is line 3
        self.assertEqual(app.next_message(timeout=WAIT)["line"], 3)

    def test_a_reply_call_over_the_limit_is_refused_too(self):
        with self.assertRaises(tandem.LineTooLong):
            self.app().update([{"id": "title", "label": "x" * 200}], id="big")


class DefaultMaxLineTests(FakeTestCase):
    def test_without_max_line_in_welcome_the_limit_is_one_mebibyte(self):
        app = self.app()
        self.assertEqual(app.max_line, 1 << 20)
        with self.assertRaisesRegex(tandem.LineTooLong, "over the service's limit of 1048576 bytes"):
            app.announce("x" * (1 << 20))


class MaxUpdateNodesTests(FakeTestCase):
    fake_options = {"max_update_nodes": 10}

    def test_the_welcomes_max_update_nodes_is_kept(self):
        self.assertEqual(self.app().max_update_nodes, 10)

    def test_an_update_over_the_limit_is_refused_before_sending_counting_nodes_and_edited_ids(self):
        app = self.app()
        row = tandem.Element("row", children=[tandem.Element(f"cell{k}") for k in range(4)])  # 5 nodes
        app.insert("list", [row, tandem.Element("more")], after="first")  # 6 nodes + 2 inserted ids: 8
        self.assertEqual(len(self.fake.next_received()["nodes"]), 6)
        with self.assertRaises(tandem.UpdateTooLarge) as caught:
            # 6 nodes + 2 inserted + 3 removed: 11
            app.update([row, tandem.Element("more")], edits=[tandem.edit("list", remove=["a", "b", "c"], insert=["row", "more"])])
        error = caught.exception
        self.assertEqual((error.size, error.limit), (11, 10))
        self.assertIsInstance(error, tandem.TandemError)
        self.assertIn("the update carries 11 nodes and edited ids, over the service's limit of 10 (maxUpdateNodes)", str(error))
        with self.assertRaises(tandem.UpdateTooLarge):
            app.remove("list", [f"r{k}" for k in range(11)])
        with self.assertRaises(tandem.UpdateTooLarge):
            app.update([{"id": f"n{k}"} for k in range(11)])
        app.update([{"id": f"n{k}"} for k in range(10)])  # exactly the limit: sent
        self.assertEqual(len(self.fake.next_received()["nodes"]), 10, "the refused updates were not sent")
        app.set("nowhere", label="x")  # nor counted: this is line 4
        self.assertEqual(app.next_message(timeout=WAIT)["line"], 4)


class DefaultMaxUpdateNodesTests(FakeTestCase):
    def test_without_max_update_nodes_in_welcome_the_limit_is_8192(self):
        app = self.app()
        self.assertEqual(app.max_update_nodes, 8192)
        with self.assertRaisesRegex(tandem.UpdateTooLarge, "over the service's limit of 8192"):
            app.remove("list", [f"r{k}" for k in range(8193)])


class ElementTests(FakeTestCase):
    def test_an_element_sends_only_what_is_given_with_the_protocols_names(self):
        element = tandem.Element(
            "banana.stepper", label="Banana quantity", traits="adjustable", frame=tandem.Frame(276, 120, 98, 32),
            adjust=tandem.Adjust(2, min=0, max=20, format="%@ in cart"), actions=["Delete", tandem.Action("Share")],
            magic_tap=True, scroll_down=True, braille_label="Banana qty", hidden=False,
            progress=tandem.Progress("Loading"), extra={"container": "list"})
        self.assertEqual(element.to_json(), {
            "id": "banana.stepper", "label": "Banana quantity", "traits": ["adjustable"],
            "frame": [276, 120, 98, 32], "hidden": False, "actions": [{"name": "Delete"}, {"name": "Share"}],
            "adjust": {"value": 2, "min": 0, "max": 20, "format": "%@ in cart"},
            "progress": {"label": "Loading"}, "magicTap": True, "scrollDown": True,
            "brailleLabel": "Banana qty", "container": "list"})

    def test_children_left_unset_are_not_sent_and_an_empty_list_is(self):
        self.assertNotIn("children", tandem.Element("list", label="Tasks (2)").to_json())
        self.assertEqual(tandem.Element("list", children=[]).to_json(), {"id": "list", "children": []})

    def test_an_update_of_an_element_keeps_its_children_unless_given(self):
        app = self.app()
        app.update([tandem.Element("list", label="Tasks (2)")], focus="list")
        self.assertEqual(self.fake.next_received(), {"type": "update", "nodes": [{"id": "list", "label": "Tasks (2)"}],
                                                     "focus": "list"})
        row = tandem.Element("kiwi.row", group=True, children=[tandem.Element("kiwi.cell", label="Kiwi")])
        app.update([tandem.Element("list", children=["milk.row", row]), tandem.Element("empty", children=[])])
        self.assertEqual(self.fake.next_received()["nodes"], [
            {"id": "list", "children": ["milk.row", "kiwi.row"]},
            {"id": "kiwi.row", "group": True, "children": ["kiwi.cell"]},
            {"id": "kiwi.cell", "label": "Kiwi"},
            {"id": "empty", "children": []}])

    def test_a_screen_nests_its_elements_and_set_takes_typed_values(self):
        app = self.app()
        app.screen(tandem.Screen("main", title="Counter", focus="count", root=tandem.Element("root", children=[
            tandem.Element("count", label="Count", traits=["adjustable"], adjust=tandem.Adjust(0, max=10))])))
        self.assertEqual(self.fake.next_received(), {"type": "screen", "screen": {
            "id": "main", "title": "Counter", "focus": "count", "root": {"id": "root", "children": [
                {"id": "count", "label": "Count", "traits": ["adjustable"], "adjust": {"value": 0, "max": 10}}]}}})
        app.set("count", adjust=tandem.Adjust(1, max=10), progress=tandem.Progress(value=0.5), magic_tap=None)
        self.assertEqual(self.fake.next_received(), {"type": "set", "id": "count", "adjust": {"value": 1, "max": 10},
                                                     "progress": {"value": 0.5}, "magicTap": None})

    def test_insert_and_flatten_take_elements(self):
        app = self.app()
        app.insert("products", [tandem.Element("kiwi.row", children=[tandem.Element("kiwi.cell")])], after="banana.row")
        self.assertEqual(self.fake.next_received(), {"type": "update", "nodes": [
            {"id": "kiwi.row", "children": ["kiwi.cell"]}, {"id": "kiwi.cell"}],
            "edits": [{"parent": "products", "insert": ["kiwi.row"], "after": "banana.row"}]})


def run_async(test):
    """Runs a test's coroutine on a new event loop, bounded so a hang fails the test."""
    async def bounded():
        await asyncio.wait_for(test(), 4 * WAIT)
    asyncio.run(bounded())


class AsyncClientTests(FakeTestCase):
    async def async_app(self, **options) -> tandem.AsyncApp:
        return await tandem.AsyncApp.connect("Groceries", self.fake.path, timeout=WAIT, **options)

    def test_an_app_connects_publishes_and_reads_actions_and_errors_as_events(self):
        async def test():
            app = await self.async_app(language="pt-BR")
            self.assertEqual((app.client_id, app.features), ("c1", frozenset({"appStatus", "commandInput", "edits"})))
            self.assertEqual(self.fake.received.get(timeout=WAIT), {"type": "hello", "v": 1, "role": "app",
                             "name": "Groceries", "language": "pt-BR"})
            await app.screen(tandem.Screen("list", root=tandem.Element("r", children=[tandem.Element("title")])))
            self.assertEqual(self.fake.next_received()["screen"]["root"], {"id": "r", "children": [{"id": "title"}]})
            conn = self.fake.connection()
            await app.set("nowhere", label="Gone")
            self.fake.next_received("set")
            conn.send({"type": "action", "action": "increment", "id": "banana.stepper"})
            conn.close()
            seen = []
            with self.assertRaises(tandem.ConnectionClosed):
                async for message in app.events():
                    seen.append(message)
            self.assertEqual([m["type"] for m in seen], ["error", "action"])
            self.assertEqual(seen[0]["sent"], {"type": "set", "id": "nowhere", "label": "Gone"})
            with self.assertRaises(tandem.ConnectionClosed):
                await app.announce("too late")
            await app.close()
        run_async(test)

    def test_sync_status_replies_and_edits(self):
        async def test():
            app = await self.async_app()
            self.assertEqual(await app.screen({"id": "list", "root": {"id": "r"}}, id=41), {"type": "ack", "id": 41})
            await app.set("nowhere", label="Gone")
            with self.assertRaises(tandem.TandemError) as caught:
                await app.sync()
            self.assertEqual(caught.exception.line, 3)
            await app.sync()
            self.assertEqual((await app.status())["speech"], "available")
            await app.remove("products", ["kiwi.row"])
            await app.update([tandem.Element("list", label="Tasks")], focus="list")
            self.assertIsNone(await app.next_message(timeout=0.05))
            await app.close()
        run_async(test)
        received = [self.fake.next_received() for _ in range(6)]
        self.assertEqual([m["type"] for m in received], ["screen", "set", "status", "status", "status", "update"])
        self.assertEqual(self.fake.next_received(), {"type": "update", "nodes": [{"id": "list", "label": "Tasks"}],
                                                     "focus": "list"})

    def test_a_controller_commands_asks_status_and_follows_the_transcript(self):
        async def test():
            ctl = await tandem.AsyncController.connect(self.fake.path, timeout=WAIT)
            status = await ctl.status()
            self.assertEqual(status["apps"][0]["name"], "Groceries")
            lines = await ctl.subscribe(["speech"])
            self.assertEqual(await ctl.command("next", id=1), {"type": "ack", "id": 1})
            line = await lines.__anext__()
            self.assertEqual((line["ch"], line["text"]), ("speech", "Banana quantity, 1 in cart, adjustable"))
            with self.assertRaisesRegex(tandem.TandemError, "unknown command 'jump'"):
                await ctl.command("jump", id=2)
            await ctl.close()
            await ctl.close()  # a second close is harmless
            self.assertEqual([line async for line in lines], [], "after close the lines just end")
        run_async(test)

    def test_max_line_timeouts_and_refused_hello(self):
        self.fake.max_line = 100

        async def test():
            app = await self.async_app()
            with self.assertRaisesRegex(tandem.LineTooLong, "over the service's limit of 100 bytes"):
                await app.announce("x" * 100)
            self.fake.auto_reply = False
            with self.assertRaisesRegex(TimeoutError, "no reply from Tandem to 'status' within 0.05 s"):
                await app.send({"type": "status"}, id=1, timeout=0.05)
            await app.close()
            self.fake.versions = (2,)
            with self.assertRaises(tandem.TandemError) as caught:
                await self.async_app()
            self.assertIn("this Tandem speaks 2", caught.exception.message)
            with self.assertRaisesRegex(tandem.ConnectionClosed, "is `tandem serve` running"):
                await tandem.AsyncApp.connect("Groceries", self.fake.path + ".missing")
        run_async(test)

    def test_a_long_line_cut_anywhere_arrives_whole_and_replies_reach_the_tasks_that_asked(self):
        self.fake.auto_reply = False

        async def test():
            ctl = await tandem.AsyncController.connect(self.fake.path, timeout=WAIT)
            conn = self.fake.connection()
            first = asyncio.ensure_future(ctl.status(id="first"))
            second = asyncio.ensure_future(ctl.status(id=2))
            while self.fake.received.qsize() < 3:  # hello and both requests
                await asyncio.sleep(0.01)
            text = "é" * 100_000  # 200 kB: longer than a StreamReader's default line limit
            data = (json.dumps({"type": "transcript", "line": {"ch": "speech", "text": text}}, ensure_ascii=False)
                    + "\n").encode()

            def push():  # from a thread: the loop must go on reading while the socket fills
                for start in range(0, len(data), 7001):  # cut inside characters too
                    conn.send_raw(data[start:start + 7001])
                conn.send({"type": "status", "id": 2, "apps": [], "speech": "unavailable"})
                conn.send({"type": "status", "id": "first", "apps": [], "speech": "available"})
            await asyncio.get_running_loop().run_in_executor(None, push)
            self.assertEqual(((await first)["speech"], (await second)["speech"]), ("available", "unavailable"))
            self.assertEqual((await ctl.next_message(timeout=WAIT))["line"]["text"], text)
            await ctl.close()
        run_async(test)

    def test_it_is_opened_with_connect_not_the_constructor(self):
        with self.assertRaisesRegex(TypeError, "await AsyncApp.connect"):
            tandem.AsyncApp("Groceries")


class GroceryAppTests(FakeTestCase):
    """The example app, driven as Tandem would drive it."""

    def setUp(self) -> None:
        super().setUp()
        self.client = self.app()
        self.conn = self.fake.connection()
        self.logged: queue.Queue = queue.Queue()
        self.groceries = grocery_app.Groceries(self.client, step_seconds=0, log=self.logged.put)
        self.failure: list = []
        self.thread = threading.Thread(target=self.run_app)
        self.thread.start()
        self.screen = self.fake.next_received()["screen"]

    def run_app(self) -> None:
        try:
            self.groceries.run()
        except tandem.ConnectionClosed:
            pass
        except Exception as error:  # surfaced in tearDown
            self.failure.append(error)

    def tearDown(self) -> None:
        self.conn.close()
        self.thread.join(WAIT)
        self.assertEqual(self.failure, [])

    def element(self, element_id: str, tree: dict | None = None) -> dict | None:
        tree = tree or self.screen["root"]
        if tree["id"] == element_id:
            return tree
        for child in tree.get("children", []):
            found = self.element(element_id, child)
            if found:
                return found
        return None

    def act(self, action: str, element_id: str, name: str | None = None) -> None:
        message = {"type": "action", "action": action, "id": element_id}
        if name:
            message["name"] = name
        self.conn.send(message)

    def test_the_screen_starts_on_its_title_and_declares_steppers_and_actions(self):
        self.assertEqual((self.screen["id"], self.screen["focus"]), ("list", "title"))
        self.assertEqual(self.element("title")["traits"], ["header"])
        stepper = self.element("banana.stepper")
        self.assertEqual(stepper["traits"], ["adjustable"])
        self.assertEqual(stepper["adjust"], {"value": 0, "min": 0, "max": 20, "step": 1, "format": "%@ in cart"})
        self.assertEqual(self.element("coffee.cell")["actions"], [{"name": "Delete"}])
        self.assertTrue(self.element("checkout.loading")["hidden"])

    def test_increment_answers_with_the_new_value(self):
        self.act("increment", "banana.stepper")
        self.act("increment", "banana.stepper")
        values = [self.fake.next_received()["adjust"]["value"] for _ in range(2)]
        self.assertEqual(values, [1, 2])

    def test_a_rejected_message_is_logged_and_the_app_keeps_answering(self):
        self.fake.reject = lambda m: ('adjust.format: unknown placeholder' if m.get("type") == "set"
                                      and m["adjust"]["value"] == 1 else None)
        self.act("increment", "banana.stepper")
        self.assertEqual(self.fake.next_received()["adjust"]["value"], 1)
        while not (line := self.logged.get(timeout=WAIT)).startswith("<- error"):
            pass
        self.assertIn("line 3: adjust.format: unknown placeholder (sent: {\"type\":\"set\",\"id\":\"banana.stepper\"", line)
        self.act("increment", "banana.stepper")
        self.assertEqual(self.fake.next_received()["adjust"]["value"], 2, "the app still answers")
        self.assertTrue(self.thread.is_alive())

    def test_decrement_at_zero_sends_nothing(self):
        self.act("decrement", "coffee.stepper")
        self.act("increment", "coffee.stepper")
        first = self.fake.next_received()
        self.assertEqual((first["type"], first["id"], first["adjust"]["value"]), ("set", "coffee.stepper", 1))

    def test_delete_announces_then_removes_the_row_and_focuses_the_next(self):
        self.act("custom", "banana.cell", "Delete")
        self.assertEqual(self.fake.next_received(),
                         {"type": "notify", "notification": "announcement", "text": "Banana deleted"})
        update = self.fake.next_received()
        nodes = {node["id"]: node for node in update["nodes"]}
        self.assertEqual(update["focus"], "coffee.cell")
        self.assertEqual(nodes["products"]["children"], ["coffee.row", "milk.row"])
        self.assertNotIn("banana.row", nodes)
        self.assertEqual(nodes["coffee.cell"]["frame"], self.element("banana.cell")["frame"], "coffee moved up")
        self.assertTrue(all(isinstance(c, str) for n in update["nodes"] for c in n.get("children", [])))

    def test_deleting_every_row_leaves_an_empty_list_in_focus(self):
        for key in ("banana", "coffee", "milk"):
            self.act("custom", f"{key}.cell", "Delete")
        updates = [self.fake.next_received("update") for _ in range(3)]
        self.assertEqual([u["focus"] for u in updates], ["coffee.cell", "milk.cell", "empty"])
        self.assertEqual(updates[-1]["nodes"][0]["children"], ["empty"])

    def test_checkout_shows_a_modal_indicator_whose_progress_rises_then_confirms(self):
        self.act("increment", "milk.stepper")
        self.fake.next_received()
        self.act("activate", "checkout")
        self.assertEqual(self.fake.next_received(),
                         {"type": "set", "id": "checkout.loading", "hidden": False, "modal": True})
        values = []
        while True:
            message = self.fake.next_received()
            if message["type"] != "set":
                break
            values.append(message["progress"]["value"])
        self.assertGreaterEqual(len(values), 3)
        self.assertEqual(values, sorted(values))
        self.assertEqual(values[-1], 1.0)
        self.assertEqual((message["type"], message["screen"]["id"]), ("screen", "confirmed"))
        self.assertIn("1 item,", self.element("confirmed.summary", message["screen"]["root"])["label"])
        self.act("activate", "confirmed.back")
        self.assertEqual(self.fake.next_received()["screen"]["id"], "list")


class ControllerExampleTests(FakeTestCase):
    def test_it_sends_the_commands_and_prints_what_tandem_says(self):
        out = io.StringIO()
        argv = ["controller.py", "--socket", self.fake.path, "--quiet-for", "0.2", "next"]
        with mock.patch.object(sys, "argv", argv), contextlib.redirect_stdout(out):
            self.assertEqual(controller.main(), 0)
        printed = out.getvalue()
        self.assertIn("apps: Groceries (c1, foreground)", printed)
        self.assertIn("says   Banana quantity, 1 in cart, adjustable   (text, focus)", printed)
        self.assertEqual(self.fake.next_received("command"), {"type": "command", "command": "next", "id": 1})

    def test_an_unknown_command_is_an_error_exit(self):
        err = io.StringIO()
        argv = ["controller.py", "--socket", self.fake.path, "jump"]
        with mock.patch.object(sys, "argv", argv), contextlib.redirect_stderr(err), \
                contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(controller.main(), 1)
        self.assertIn("unknown command 'jump'", err.getvalue())


if __name__ == "__main__":
    unittest.main()
