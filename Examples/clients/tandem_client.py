"""A small client for Tandem's control socket (protocol v1, `tandem serve`).

Standard library only; Python 3.9 or newer. Copy this one file into your project.

An *app* publishes its accessibility tree and reacts to what the blind user does::

    import tandem_client as tandem

    app = tandem.App("Groceries")                  # connects and says hello
    app.screen({"id": "list", "title": "Groceries", "focus": "title", "root": {...}})
    for message in app.messages():                 # actions and focus moves, in order
        if message["type"] == "action" and message["action"] == "increment":
            app.set("banana.stepper", adjust={...})   # within 500 ms: the user's own change

A *controller* drives the navigator and listens to what Tandem says::

    ctl = tandem.Controller()
    for line in ctl.subscribe(["speech"]):
        print(line["text"])

Replies and errors. Every sending method takes an optional ``id=`` (any JSON value but null).
With an id, the call waits for Tandem's reply to that message (``ack``, ``status`` or
``error``) up to `timeout` seconds and returns it, or raises `TandemError`. Without one, the message is sent and the call returns at
once; if Tandem rejects it, the error arrives later and `next_message()` / `messages()` raise
it. `TandemError` names Tandem's sentence, the line number Tandem counted, and the message
this client sent on that line. (`set` cannot carry a request id: its ``id`` names the element.)

Threads. A background thread reads the socket, so a partial line or a slow reader never
blocks sending. Replies go to the call waiting for them; everything else (``action``,
``focus``, ``transcript``, unsolicited errors) waits in a queue, read by `next_message()`;
the queue is unbounded, so a client should keep reading it (a controller that subscribes and
never reads grows without limit). Sending is safe from several threads. Nothing polls: waits
block on a queue or an event.

Features. Protocol v1 grows only by additions; `welcome` lists those the service has by name
(Docs/protocol.md#features), kept in `features`, unknown names included. A service that lists
none (an older one) has none: `insert`, `remove` and `update(…, edits=…)` then raise
`FeatureUnavailable` before sending, since such a service would ignore the edits; send whole
children lists with `update` instead::

    if "edits" in app.features:
        app.remove("products", ["kiwi.row"])

Reconnecting is the app's choice. When Tandem goes away, `next_message()` raises
`ConnectionClosed` (and so does any send). Tandem gives an app that reconnects with the same
name its old place, so a long-lived app can loop::

    while True:
        try:
            app = tandem.App("Groceries")
            app.screen(current_screen())   # Tandem dropped the old tree: publish it again
            serve(app)
        except tandem.ConnectionClosed:
            time.sleep(2)                  # back off; `tandem serve` may be restarting
"""

from __future__ import annotations

import collections
import itertools
import json
import os
import queue
import socket
import threading
from typing import Any, Iterable, Iterator

__all__ = [
    "App", "Controller", "Connection", "TandemError", "ConnectionClosed", "FeatureUnavailable",
    "LineReader", "flatten", "edit", "default_socket_path", "PROTOCOL_VERSION",
]

PROTOCOL_VERSION = 1
"""The protocol version this client speaks in ``hello``."""

DEFAULT_TIMEOUT = 5.0
"""Seconds to wait for a reply before `TimeoutError`."""

# Message types that answer a message of ours; only these are matched against request ids.
# (`action` and `focus` also carry an `id`, but it names an element, not a request.)
_REPLY_TYPES = ("ack", "status", "error", "welcome")

# How many sent lines are remembered so that an error's `line` can name what was sent.
_REMEMBERED_LINES = 512


def default_socket_path() -> str:
    """``$XDG_RUNTIME_DIR/tandem/control.sock``, where `tandem serve` listens by default."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if not runtime:
        raise ConnectionClosed("XDG_RUNTIME_DIR is not set; pass the socket's path")
    return os.path.join(runtime, "tandem", "control.sock")


class TandemError(Exception):
    """Tandem rejected a message, or the conversation cannot go on.

    `message` is Tandem's sentence; `line` the line number Tandem gave the offending message
    on this connection (from 1), when it said; `id` the message's id, when it had one; `sent`
    the message this client sent on that line, when it is still remembered; `reply` the whole
    error message as received.
    """

    def __init__(self, message: str, line: int | None = None, id: Any = None,
                 sent: dict | None = None, reply: dict | None = None):
        self.message, self.line, self.id, self.sent, self.reply = message, line, id, sent, reply
        where = f"line {line}: " if line is not None else ""
        what = f" (sent: {_encode(sent).decode().rstrip()})" if sent is not None else ""
        super().__init__(f"{where}{message}{what}")


class ConnectionClosed(TandemError):
    """The connection could not be made, or it ended (Tandem stopped, or `close()` was called)."""


class FeatureUnavailable(TandemError):
    """The service did not announce the protocol feature a call needs (Docs/protocol.md#features),
    so nothing was sent. `feature` is its name; `announced` what the service did announce."""

    def __init__(self, feature: str, announced: frozenset, instead: str = ""):
        self.feature, self.announced = feature, announced
        names = ", ".join(sorted(announced)) or "none"
        super().__init__(f"the service did not announce the protocol feature '{feature}' (its features:"
                         f" {names}), so the message was not sent{instead}")


class LineReader:
    """Splits a byte stream into lines, however the reads happen to cut it.

    `feed()` takes whatever `recv` returned and gives back the complete lines, without their
    ``\\n`` (or ``\\r\\n``); a partial line, even one cut inside a UTF-8 character, waits for
    the next chunk. Lines stay bytes until complete, so decoding never sees half a character.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        self._buffer += data
        *lines, rest = self._buffer.split(b"\n")
        self._buffer = bytearray(rest)
        return [bytes(line[:-1] if line.endswith(b"\r") else line) for line in lines]

    @property
    def pending(self) -> int:
        """Bytes of a line begun but not yet ended."""
        return len(self._buffer)


def flatten(element: dict) -> list[dict]:
    """An element with nested `children` (as in a ``screen``) as the flat nodes of an ``update``.

    Each node keeps its fields; its `children` become the list of the children's ids. The
    parent comes before its children, in declaration order::

        flatten({"id": "row", "children": [{"id": "cell", "label": "Banana"}]})
        == [{"id": "row", "children": ["cell"]}, {"id": "cell", "label": "Banana"}]
    """
    nodes: list[dict] = []
    stack = [element]
    while stack:  # iterative, so a deep tree cannot hit the recursion limit
        node = dict(stack.pop())
        children = node.get("children")
        if children is not None:
            node["children"] = [child["id"] for child in children]
            stack.extend(reversed(children))
        nodes.append(node)
    return nodes


def edit(parent: str, *, remove: Iterable[str] = (), insert: Iterable[str] = (),
         after: str | None = None, before: str | None = None) -> dict:
    """One item of an ``update``'s ``edits``: `remove` takes those children out of `parent`'s
    list, then `insert` puts those ids in after the child `after`, before `before`, or at the
    end (Docs/protocol.md#edits)::

        edit("products", insert=["kiwi.row"], after="banana.row")
        == {"parent": "products", "insert": ["kiwi.row"], "after": "banana.row"}
    """
    if after is not None and before is not None:
        raise TypeError("edit() takes after or before, not both")
    item: dict = {"parent": parent}
    removed, inserted = list(remove), list(insert)
    if removed:
        item["remove"] = removed
    if inserted:
        item["insert"] = inserted
    if after is not None:
        item["after"] = after
    if before is not None:
        item["before"] = before
    return item


def _encode(message: dict) -> bytes:
    # One line: json.dumps escapes newlines inside strings; NaN is not JSON, so refuse it here
    # rather than have Tandem reject the line; UTF-8 unescaped, as the protocol says.
    return (json.dumps(message, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
            + "\n").encode("utf-8")


def _key(request_id: Any) -> str:
    """A request id as a dictionary key: ids are any JSON value, lists and objects too.
    A whole number matches whether it comes back as 7 or 7.0."""
    if isinstance(request_id, float) and request_id.is_integer():
        request_id = int(request_id)
    return json.dumps(request_id, sort_keys=True, separators=(",", ":"))


class _Waiter:
    """One call waiting for its reply."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.reply: dict | None = None
        self.error: TandemError | None = None


_CLOSED = object()  # queued when the connection ends


class Connection:
    """One connection to Tandem, after ``hello`` and ``welcome``. `App` and `Controller` add
    the messages of their role; `send()` sends any message, for what they do not cover.

    `client_id` is the id Tandem gave this connection (``c1``, ``c2``, …); `features` the names
    of the protocol features its ``welcome`` announced (a frozenset; empty when it listed none).
    """

    def __init__(self, role: str, socket_path: str | None = None, *, name: str | None = None,
                 language: str | None = None, timeout: float = DEFAULT_TIMEOUT):
        self.timeout = timeout
        self.socket_path = socket_path or default_socket_path()
        self.client_id: str | None = None
        self.features: frozenset = frozenset()
        self._events: queue.Queue = queue.Queue()
        self._waiting: dict[str, _Waiter] = {}
        self._hello = _Waiter()  # welcome carries no id we can rely on: the first one is ours
        self._lock = threading.Lock()        # _waiting, _closed, _close_reason
        self._send_lock = threading.Lock()   # one line at a time; line numbers in send order
        self._sent_lock = threading.Lock()   # _sent; the reader takes only this, never a send lock
        self._lines_sent = 0
        self._sent = collections.OrderedDict()  # line number → message, the last few
        self._auto_ids = itertools.count(1)
        self._closed = False
        self._closed_by_us = False
        self._close_reason = "the connection is closed"

        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._sock.connect(self.socket_path)
        except OSError as error:
            self._sock.close()
            raise ConnectionClosed(f"cannot connect to {self.socket_path}: {error.strerror}"
                                   " (is `tandem serve` running?)") from error
        self._reader = threading.Thread(target=self._read_loop, name="tandem-client-reader",
                                        daemon=True)
        self._reader.start()

        hello = {"type": "hello", "v": PROTOCOL_VERSION, "role": role}
        if name is not None:
            hello["name"] = name
        if language is not None:
            hello["language"] = language
        try:
            self._send_line(hello)
            welcome = self._wait(self._hello, "welcome")
        except BaseException:  # refused, timed out or interrupted: no half-open connection
            self.close()
            raise
        self.client_id = welcome.get("client")
        announced = welcome.get("features")
        if isinstance(announced, list):  # names this client does not know are kept too
            self.features = frozenset(name for name in announced if isinstance(name, str))

    def require(self, feature: str, instead: str = "") -> None:
        """Raises `FeatureUnavailable` unless the service announced `feature`."""
        if feature not in self.features:
            raise FeatureUnavailable(feature, self.features, instead)

    # -- sending ---------------------------------------------------------------------------

    def send(self, message: dict, *, id: Any = None, timeout: float | None = None) -> dict | None:
        """Sends one message. With `id`, waits for its reply and returns it (raises
        `TandemError` if it is an error, `TimeoutError` if none comes within `timeout`)."""
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise TypeError("a message is a dict with a string 'type'")
        if id is None:
            self._send_line(message)
            return None
        message = dict(message, id=id)
        key, waiter = _key(id), _Waiter()
        with self._lock:
            if key in self._waiting:
                raise ValueError(f"a message with id {key} is still waiting for its reply")
            self._waiting[key] = waiter  # before sending: the reply may beat us back
        try:
            self._send_line(message)
            return self._wait(waiter, message["type"], timeout)
        finally:
            with self._lock:
                if self._waiting.get(key) is waiter:
                    del self._waiting[key]

    def announce(self, text: str, priority: str | None = None, *, id: Any = None) -> dict | None:
        """``UIAccessibility.post(.announcement)``; `priority` ``"high"`` speaks at once."""
        message = {"type": "notify", "notification": "announcement", "text": text}
        if priority is not None:
            message["priority"] = priority
        return self.send(message, id=id)

    def _send_line(self, message: dict) -> None:
        data = _encode(message)
        with self._send_lock:
            if self._closed:
                raise ConnectionClosed(self._close_reason)
            # Remembered before it is sent: Tandem's error about it may come back at once.
            self._lines_sent += 1
            with self._sent_lock:
                self._sent[self._lines_sent] = message
                if len(self._sent) > _REMEMBERED_LINES:
                    self._sent.popitem(last=False)
            try:
                self._sock.sendall(data)
            except OSError as error:
                raise ConnectionClosed(f"cannot send to Tandem: {error.strerror}") from error

    def _wait(self, waiter: _Waiter, what: str, timeout: float | None = None) -> dict:
        limit = self.timeout if timeout is None else timeout
        if not waiter.done.wait(limit):
            raise TimeoutError(f"no reply from Tandem to '{what}' within {limit:g} s")
        if waiter.error is not None:
            raise waiter.error
        assert waiter.reply is not None
        return waiter.reply

    def _next_id(self) -> str:
        """An id for a call that needs its reply and was given none."""
        return f"auto-{next(self._auto_ids)}"

    # -- receiving -------------------------------------------------------------------------

    def next_message(self, timeout: float | None = None) -> dict | None:
        """The next message that is not a reply (``action``, ``focus``, ``transcript``, …),
        or None after `timeout` seconds (None: wait as long as it takes).

        Raises `TandemError` for an error Tandem sent about a message that did not wait for
        its reply, and `ConnectionClosed` once the connection has ended and every message
        that came before has been read.
        """
        try:
            item = self._events.get(timeout=timeout)
        except queue.Empty:
            return None
        if item is _CLOSED:
            self._events.put(_CLOSED)  # every later call sees the end too
            raise ConnectionClosed(self._close_reason)
        if item.get("type") == "error":
            raise self._error(item)
        return item

    def messages(self) -> Iterator[dict]:
        """`next_message()` as an iterator. It ends after `close()`; it raises
        `ConnectionClosed` when Tandem ends the connection, and `TandemError` for an
        unsolicited error (call `messages()` again to go on)."""
        while True:
            try:
                yield self.next_message()  # without a timeout it never returns None
            except ConnectionClosed:
                if self._closed_by_us:
                    return
                raise

    def _read_loop(self) -> None:
        lines = LineReader()
        reason = "Tandem closed the connection"
        try:
            while True:
                data = self._sock.recv(65536)
                if not data:
                    break
                for line in lines.feed(data):
                    if line.strip():
                        self._dispatch(line)
        except OSError as error:
            reason = f"the connection to Tandem failed: {error.strerror}"
        self._finish(reason)

    def _dispatch(self, line: bytes) -> None:
        try:
            message = json.loads(line.decode("utf-8"))
        except ValueError:  # includes UnicodeDecodeError
            message = None
        if not isinstance(message, dict):
            self._events.put({"type": "error", "error": "Tandem sent a line that is not a JSON"
                              f" object: {line[:200]!r}"})
            return
        kind = message.get("type")
        if not self._hello.done.is_set() and kind in ("welcome", "error"):
            self._resolve(self._hello, message)
            return
        if kind in _REPLY_TYPES and "id" in message:
            with self._lock:
                waiter = self._waiting.pop(_key(message["id"]), None)
            if waiter is not None:
                self._resolve(waiter, message)
                return
        if kind == "ack":
            return  # nobody waits for it any more (its call timed out)
        self._events.put(message)

    def _resolve(self, waiter: _Waiter, message: dict) -> None:
        if message.get("type") == "error":
            waiter.error = self._error(message)
        else:
            waiter.reply = message
        waiter.done.set()

    def _error(self, message: dict) -> TandemError:
        line = message.get("line")
        with self._sent_lock:
            sent = self._sent.get(line) if isinstance(line, int) else None
        return TandemError(str(message.get("error", "unknown error")), line=line,
                           id=message.get("id"), sent=sent, reply=message)

    def _finish(self, reason: str) -> None:
        """The connection has ended: fail every waiting call, then tell the reader of messages."""
        with self._lock:
            if not self._closed:
                self._closed, self._close_reason = True, reason
            waiters = list(self._waiting.values()) + [self._hello]
            self._waiting.clear()
        for waiter in waiters:
            if not waiter.done.is_set():
                waiter.error = ConnectionClosed(self._close_reason)
                waiter.done.set()
        self._events.put(_CLOSED)

    # -- closing ---------------------------------------------------------------------------

    def close(self) -> None:
        """Ends the connection. Safe to call more than once, from any thread."""
        with self._lock:
            if not self._closed:
                self._closed, self._closed_by_us = True, True
                self._close_reason = "the connection was closed by this client"
        try:
            self._sock.shutdown(socket.SHUT_RDWR)  # wakes the reader's recv
        except OSError:
            pass
        if self._reader is not threading.current_thread():
            self._reader.join()
        self._sock.close()

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class App(Connection):
    """An app: publishes its screens and tree, posts notifications, receives ``action``
    (what the user did) and ``focus`` (where the user is) from `messages()`.

    Element fields are SPEC §1's (label, value, hint, traits, frame, children, actions,
    adjust, progress, hidden, modal, …); effects (``activate``, ``do``) are not sent: the app
    acts itself when an ``action`` arrives.
    """

    def __init__(self, name: str, socket_path: str | None = None, *, language: str = "en",
                 timeout: float = DEFAULT_TIMEOUT):
        super().__init__("app", socket_path, name=name, language=language, timeout=timeout)

    def screen(self, screen: dict, *, id: Any = None) -> dict | None:
        """The whole current screen (``id``, ``title``, ``focus``, ``root`` with nested
        children). Brings the app to the foreground; a new screen id moves focus as
        ``screenChanged`` does."""
        return self.send({"type": "screen", "screen": screen}, id=id)

    def update(self, nodes: Iterable[dict], focus: str | None = None, *,
               edits: Iterable[dict] | None = None, id: Any = None) -> dict | None:
        """Replaces whole elements (fields left out are cleared). A node's `children` is a
        list of ids; new children come as nodes in the same update (see `flatten`); an
        element no longer in any children list is removed. `focus` moves focus there.
        `edits` change children lists by id without sending them (see `edit`); they need a
        service that announced ``edits`` (else `FeatureUnavailable`, nothing sent)."""
        if edits is not None:
            self.require("edits", "; send whole children lists with update() instead")
        message: dict = {"type": "update", "nodes": list(nodes)}
        if edits is not None:
            message["edits"] = list(edits)
        if focus is not None:
            message["focus"] = focus
        return self.send(message, id=id)

    def insert(self, parent: str, nodes: Iterable[dict], *, after: str | None = None,
               before: str | None = None, focus: str | None = None, id: Any = None) -> dict | None:
        """Puts new elements into `parent`'s children after the child `after`, before the
        child `before`, or at the end, without sending the rest of the list: what it costs
        Tandem is what it names, however long the list. `nodes` are the new elements as
        nested elements (each flattened with its subtree). An edit: it needs a service that
        announced ``edits`` (see `update`)::

            app.insert("products", [row], after="banana.row")
        """
        elements = list(nodes)
        flat = [node for element in elements for node in flatten(element)]
        change = edit(parent, insert=[element["id"] for element in elements], after=after, before=before)
        return self.update(flat, focus, edits=[change], id=id)

    def remove(self, parent: str, ids: Iterable[str], *, focus: str | None = None,
               id: Any = None) -> dict | None:
        """Takes children out of `parent`'s children by id (each removed with its subtree). An
        edit: it needs a service that announced ``edits`` (see `update`)."""
        return self.update([], focus, edits=[edit(parent, remove=ids)], id=id)

    def set(self, element_id: str, /, **fields: Any) -> None:
        """Changes only the named fields of one element; None clears a field::

            app.set("sheet", hidden=False, modal=True)

        No request id: in ``set`` the message's ``id`` is the element's. An error about it
        comes from `next_message()`.
        """
        for reserved in ("id", "type", "children"):
            if reserved in fields:
                raise TypeError(f"set() cannot change '{reserved}'"
                                + (" (use update() for children)" if reserved == "children" else ""))
        self.send({"type": "set", "id": element_id, **fields})

    def layout_changed(self, focus: str | None = None, *, id: Any = None) -> dict | None:
        """``.layoutChanged``: part of the screen changed; focus moves to `focus` if given."""
        return self._notify("layoutChanged", focus, id)

    def screen_changed(self, focus: str | None = None, *, id: Any = None) -> dict | None:
        """``.screenChanged``: a new screen; focus moves to `focus` or the screen's first."""
        return self._notify("screenChanged", focus, id)

    def page_scrolled(self, text: str, *, id: Any = None) -> dict | None:
        """``.pageScrolled``: says where the scroll left the user ("Page 2 of 5")."""
        return self.send({"type": "notify", "notification": "pageScrolled", "text": text}, id=id)

    def _notify(self, notification: str, focus: str | None, id: Any) -> dict | None:
        message = {"type": "notify", "notification": notification}
        if focus is not None:
            message["focus"] = focus
        return self.send(message, id=id)


class Controller(Connection):
    """A controller: drives the navigator as the user's keys would, and follows the
    transcript (what Tandem speaks, shows in braille, plays, and the events behind them)."""

    def __init__(self, socket_path: str | None = None, *, timeout: float = DEFAULT_TIMEOUT):
        super().__init__("controller", socket_path, timeout=timeout)

    def command(self, name: str, *, id: Any = None) -> dict | None:
        """A navigator command, as scenarios write it: ``"next"``, ``"increment"``, ``"route 3"``."""
        return self.send({"type": "command", "command": name}, id=id)

    def subscribe(self, channels: Iterable[str] | None = None, *,
                  id: Any = None) -> Iterator[dict]:
        """Starts the transcript and returns an iterator over its lines (SPEC §3 objects:
        ``{"t": …, "ch": "speech", "op": "speak", "text": …}``). `channels` keeps only some
        of ``speech``, ``braille``, ``sound``, ``event``. The iterator reads `messages()`, so
        read either one or the other; it ends after `close()`."""
        message: dict = {"type": "subscribe"}
        chosen = None if channels is None else list(channels)
        wanted = None if chosen is None else frozenset(chosen)
        if chosen is not None:
            message["channels"] = chosen
        self.send(message, id=id)  # now, not at the iterator's first step
        # A service without the `channels` feature sends every channel: the others are
        # dropped here.
        return (received["line"] for received in self.messages()
                if received.get("type") == "transcript"
                and (wanted is None or received["line"].get("ch") in wanted))

    def unsubscribe(self, *, id: Any = None) -> dict | None:
        """Stops the transcript."""
        return self.send({"type": "unsubscribe"}, id=id)

    def status(self, *, id: Any = None) -> dict:
        """Tandem's state: ``apps`` (client, name, foreground), ``speech``, ``braille``, and
        the foreground app's ``screen`` and ``focus``. Always waits for the reply."""
        reply = self.send({"type": "status"}, id=self._next_id() if id is None else id)
        assert reply is not None
        return reply

    def foreground(self, client: str | None = None, name: str | None = None, *,
                   id: Any = None) -> dict | None:
        """Brings an app to the front, named by its client id (``"c2"``) or its name."""
        if (client is None) == (name is None):
            raise TypeError("foreground() takes a client id or an app name, one of them")
        target = {"client": client} if client is not None else {"name": name}
        return self.send({"type": "foreground", **target}, id=id)
