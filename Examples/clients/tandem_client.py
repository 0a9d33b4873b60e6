"""A client for Tandem's control socket (protocol v1, `tandem serve`): blocking and asyncio.

Standard library only; Python 3.9 or newer. Install it with ``pip install ./Examples/clients``
from the repository folder, or copy this one file into your project.

An *app* publishes its accessibility tree and reacts to what the blind user does::

    import tandem_client as tandem

    app = tandem.App("Groceries")                  # connects and says hello
    app.screen(tandem.Screen("list", root=..., title="Groceries", focus="title"))
    for message in app.messages():                 # actions, focus moves, errors, in order
        if message["type"] == "action" and message["action"] == "increment":
            app.set("banana.stepper", adjust=tandem.Adjust(1, max=20))  # within 500 ms: the user's own change
        elif message["type"] == "error":           # Tandem refused something sent earlier
            print(tandem.TandemError.from_event(message))

The same with asyncio: ``app = await tandem.AsyncApp.connect("Groceries")``, ``await
app.screen(...)``, ``async for message in app.events(): ...``, ``await app.set(...)``.

A *controller* drives the navigator and listens to what Tandem says::

    ctl = tandem.Controller()
    for line in ctl.subscribe(["speech"]):
        print(line["text"])

Replies and errors. Every sending method takes an optional ``id=`` (any JSON value but null).
With an id, the call waits for Tandem's reply to that message (``ack``, ``status`` or
``error``) up to `timeout` seconds and returns it, or raises `TandemError`. Without one, the
message is sent and the call returns at once; if Tandem rejects it, the error comes later as
an *event*: `next_message()` / `messages()` (`events()` in asyncio) give it as a message of
type ``"error"`` — Tandem's ``error``, ``line`` and ``id``, plus ``sent``, the message this
client sent on that line when it is still remembered — and the loop goes on.
`TandemError.from_event()` makes it an exception, for an app that wants to stop on it.
`sync()` waits until Tandem has handled everything sent so far (a ``status`` barrier) and
raises the first such error still waiting (taking them out of the queue). (`set` cannot carry a
request id: its ``id`` names the element.)

Lines. Tandem's ``welcome`` says how long a line it takes (``maxLine``, 1 MiB by default): a
longer message is refused before sending with `LineTooLong`, naming its size and the limit,
instead of the service closing the connection over it. An ``update`` carrying more nodes plus
edited ids than its ``maxUpdateNodes`` (8,192) is refused before sending with `UpdateTooLarge`. When the service does end a connection,
its reason (an error line) is the last event, and `ConnectionClosed` names it too.

Elements. `Element`, `Screen`, `Adjust`, `Progress`, `Action` and `Frame` are typed helpers
for what a ``screen``, ``update`` or ``set`` carries; plain dicts keep working everywhere. An
`Element` whose `children` is left None sends no ``children``: in an ``update`` that keeps the
element's children; ``[]`` means none (Docs/protocol.md#update).

Update then announce. In answer to an action, an app may send an ``update`` (or
``layoutChanged``) that moves focus and an announcement in either order: the user hears both,
in the order sent (Docs/protocol.md#update-then-announce). Both clients send what they are
given, in order; the rule is the service's.

Threads (blocking client). A background thread reads the socket, so a partial line or a slow
reader never blocks sending. Replies go to the call waiting for them; everything else
(``action``, ``focus``, ``transcript``, errors about unwaited messages) waits in a queue, read
by `next_message()`; the queue is unbounded, so a client should keep reading it. Sending is
safe from several threads. The asyncio client does the same in one task on the event loop.

Features. Protocol v1 grows only by additions; `welcome` lists those the service has by name
(Docs/protocol.md#features), kept in `features`, unknown names included. A service that lists
none (an older one) has none: `insert`, `remove` and `update(…, edits=…)` then raise
`FeatureUnavailable` before sending, since such a service would ignore the edits; an app's
`sync()` and `status()` need ``appStatus`` likewise::

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

import asyncio
import collections
import dataclasses
import itertools
import json
import os
import socket
import threading
from typing import Any, AsyncIterator, Iterable, Iterator, NamedTuple, Optional, Sequence, Union

__all__ = [
    "App", "Controller", "Connection", "AsyncApp", "AsyncController", "AsyncConnection",
    "TandemError", "ConnectionClosed", "FeatureUnavailable", "LineTooLong", "UpdateTooLarge",
    "Element", "Screen", "Adjust", "Progress", "Action", "Frame",
    "LineReader", "flatten", "edit", "default_socket_path", "PROTOCOL_VERSION", "DEFAULT_MAX_LINE",
    "DEFAULT_MAX_UPDATE_NODES",
    "INPUT_METHODS",
]

__version__ = "1.2.0"

PROTOCOL_VERSION = 1
"""The protocol version this client speaks in ``hello``."""

INPUT_METHODS = ("keyboard", "braille", "touch")
"""What a controller's ``command`` may say the user's key came from (its ``input``)."""

DEFAULT_TIMEOUT = 5.0
"""Seconds to wait for a reply before `TimeoutError`."""

DEFAULT_MAX_LINE = 1 << 20
"""Bytes a line may have (without its newline) when the ``welcome`` does not say: 1 MiB,
Tandem's default ``maxLine``."""

DEFAULT_MAX_UPDATE_NODES = 8192
"""Nodes plus edited ids an ``update`` may carry when the ``welcome`` does not say: Tandem's
``maxUpdateNodes`` (Docs/protocol.md#limits)."""

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


# -- errors ------------------------------------------------------------------------------------

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

    @classmethod
    def from_event(cls, event: dict) -> "TandemError":
        """The exception for an ``error`` event from `messages()` / `events()`, to raise it."""
        line = event.get("line")
        return cls(str(event.get("error", "unknown error")), line=line if isinstance(line, int) else None,
                   id=event.get("id"), sent=event.get("sent"), reply=event)


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


class LineTooLong(TandemError):
    """A message longer, as one line, than the service takes (``welcome``'s ``maxLine``): it was
    not sent, and the connection goes on. `size` is its length in bytes (without the newline),
    `limit` the service's."""

    def __init__(self, kind: str, size: int, limit: int):
        self.size, self.limit = size, limit
        super().__init__(f"the '{kind}' message is {size} bytes as one line, over the service's limit"
                         f" of {limit} bytes a line (maxLine), so it was not sent; send it in smaller"
                         " pieces (an update of fewer nodes, or edits)")


class UpdateTooLarge(TandemError):
    """An ``update`` carrying more nodes plus ids its edits remove or insert than the service
    takes (``welcome``'s ``maxUpdateNodes``, Docs/protocol.md#limits): it was not sent, and the
    connection goes on. `size` is what it carries, `limit` the service's."""

    def __init__(self, size: int, limit: int):
        self.size, self.limit = size, limit
        super().__init__(f"the update carries {size} nodes and edited ids, over the service's limit of"
                         f" {limit} (maxUpdateNodes), so it was not sent; send the rest in another update")


# -- typed elements ----------------------------------------------------------------------------

class Frame(NamedTuple):
    """``[x, y, width, height]`` in screen points."""
    x: float
    y: float
    width: float
    height: float


def _drop_none(fields: dict) -> dict:
    return {key: value for key, value in fields.items() if value is not None}


@dataclasses.dataclass
class Adjust:
    """An adjustable's number: ``{"value", "min", "max", "step", "format"}`` (Tandem fills in
    min 0, max 100, step 1 when left out; `format` renders the value, ``"%@ in cart"``)."""
    value: float
    min: Optional[float] = None
    max: Optional[float] = None
    step: Optional[float] = None
    format: Optional[str] = None

    def to_json(self) -> dict:
        return _drop_none(dataclasses.asdict(self))


@dataclasses.dataclass
class Progress:
    """A loading indicator: `value` 0…1, or None while indeterminate."""
    label: Optional[str] = None
    value: Optional[float] = None

    def to_json(self) -> dict:
        return _drop_none(dataclasses.asdict(self))


@dataclasses.dataclass
class Action:
    """A custom action, by the name the rotor says."""
    name: str

    def to_json(self) -> dict:
        return {"name": self.name}


# Python names whose JSON field is spelled otherwise.
_JSON_NAMES = {"magic_tap": "magicTap", "scroll_up": "scrollUp", "scroll_down": "scrollDown",
               "braille_label": "brailleLabel"}


@dataclasses.dataclass
class Element:
    """One element (Docs/formats.md#element): a field left None is not sent.

    `children` None sends no ``children`` — in an ``update`` node the element keeps the
    children it has; ``[]`` says it has none. Children are `Element`s (sent nested in a
    ``screen``, as nodes of their own in an ``update``), dicts, or ids (an ``update`` naming
    children already in the tree). `traits` is a list of trait names (or one name);
    `frame` a `Frame` or ``[x, y, width, height]``; `actions` `Action`s, dicts or names.
    `activate`, `magic_tap`, `escape`, `scroll_up`, `scroll_down`: True when the element
    handles that action. `extra` carries fields this class does not name, as given.
    """
    id: str
    label: Optional[str] = None
    value: Optional[str] = None
    hint: Optional[str] = None
    traits: Union[Sequence[str], str, None] = None
    frame: Union[Frame, Sequence[float], None] = None
    accessible: Optional[bool] = None
    children: Optional[Sequence[Union["Element", dict, str]]] = None
    order: Optional[Sequence[str]] = None
    group: Optional[bool] = None
    hidden: Optional[bool] = None
    modal: Optional[bool] = None
    actions: Optional[Sequence[Union[Action, dict, str]]] = None
    adjust: Union[Adjust, dict, None] = None
    progress: Union[Progress, dict, None] = None
    activate: Optional[bool] = None
    magic_tap: Optional[bool] = None
    escape: Optional[bool] = None
    scroll_up: Optional[bool] = None
    scroll_down: Optional[bool] = None
    braille_label: Optional[str] = None
    container: Optional[str] = None
    cell: Optional[dict] = None
    extra: dict = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict:
        """The element as a ``screen`` carries it: children nested, None fields left out."""
        out: dict = {}
        for spec in dataclasses.fields(self):
            value = getattr(self, spec.name)
            if value is None or spec.name == "extra":
                continue
            if spec.name == "traits":
                value = [value] if isinstance(value, str) else list(value)
            elif spec.name in ("frame", "order"):
                value = list(value)
            elif spec.name == "actions":
                value = [{"name": a} if isinstance(a, str) else _jsonable(a) for a in value]
            elif spec.name == "children":
                value = [_jsonable(child) for child in value]
            else:
                value = _jsonable(value)
            out[_JSON_NAMES.get(spec.name, spec.name)] = value
        out.update(self.extra)
        return out


@dataclasses.dataclass
class Screen:
    """A whole screen for `App.screen`: its id, its root element, a title and where focus starts."""
    id: str
    root: Union[Element, dict]
    title: Optional[str] = None
    focus: Optional[str] = None

    def to_json(self) -> dict:
        return _drop_none({"id": self.id, "title": self.title, "focus": self.focus,
                           "root": _jsonable(self.root)})


def _jsonable(value: Any) -> Any:
    """A typed helper as its JSON value (dicts, lists and plain values as they are)."""
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)) and not isinstance(value, Frame):
        return [_jsonable(item) for item in value]
    if isinstance(value, Frame):
        return list(value)
    return value


# -- lines -------------------------------------------------------------------------------------

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


def flatten(element: dict | Element) -> list[dict]:
    """An element with nested `children` (as in a ``screen``) as the flat nodes of an ``update``.

    Each node keeps its fields; its `children` become the list of the children's ids (an id
    given as a child stays an id). The parent comes before its children, in declaration order::

        flatten({"id": "row", "children": [{"id": "cell", "label": "Banana"}]})
        == [{"id": "row", "children": ["cell"]}, {"id": "cell", "label": "Banana"}]
    """
    nodes: list[dict] = []
    stack = [_jsonable(element)]
    while stack:  # iterative, so a deep tree cannot hit the recursion limit
        node = dict(stack.pop())
        children = node.get("children")
        if children is not None:
            node["children"] = [child if isinstance(child, str) else child["id"] for child in children]
            stack.extend(reversed([child for child in children if not isinstance(child, str)]))
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


def _encode(message: Any) -> bytes:
    # One line: json.dumps escapes newlines inside strings; NaN is not JSON, so refuse it here
    # rather than have Tandem reject the line; UTF-8 unescaped, as the protocol says. Typed
    # helpers (Element, Adjust, …) become their JSON.
    return (json.dumps(message, ensure_ascii=False, allow_nan=False, separators=(",", ":"),
                       default=_json_default) + "\n").encode("utf-8")


def _json_default(value: Any) -> Any:
    if hasattr(value, "to_json"):
        return value.to_json()
    raise TypeError(f"{type(value).__name__} is not JSON: {value!r}")


def _key(request_id: Any) -> str:
    """A request id as a dictionary key: ids are any JSON value, lists and objects too.
    A whole number matches whether it comes back as 7 or 7.0."""
    if isinstance(request_id, float) and request_id.is_integer():
        request_id = int(request_id)
    return json.dumps(request_id, sort_keys=True, separators=(",", ":"))


_CLOSED = object()  # queued when the connection ends


def _is_error_before(item: Any, line: int) -> bool:
    return (isinstance(item, dict) and item.get("type") == "error"
            and isinstance(item.get("line"), int) and item["line"] < line)


class _Core:
    """What both clients share: the welcome's limits and features, sent lines remembered for
    errors, the decoding of what Tandem sends. No I/O here."""

    def _setup(self, role: str, socket_path: str | None, timeout: float) -> None:
        self.role = role
        self.timeout = timeout
        self.socket_path = socket_path or default_socket_path()
        self.client_id: str | None = None
        self.features: frozenset = frozenset()
        self.max_line = DEFAULT_MAX_LINE
        self.max_update_nodes = DEFAULT_MAX_UPDATE_NODES
        self._lines_sent = 0
        self._sent: collections.OrderedDict = collections.OrderedDict()  # line number → message
        self._sent_lock = threading.Lock()  # _sent; the reader thread takes only this
        self._auto_ids = itertools.count(1)
        self._hello_done = False
        self._last_received: dict | None = None
        self._closed = False
        self._closed_by_us = False
        self._close_reason = "the connection is closed"

    @staticmethod
    def _hello(role: str, name: str | None, language: str | None) -> dict:
        hello = {"type": "hello", "v": PROTOCOL_VERSION, "role": role}
        if name is not None:
            hello["name"] = name
        if language is not None:
            hello["language"] = language
        return hello

    def _welcomed(self, welcome: dict) -> None:
        self.client_id = welcome.get("client")
        announced = welcome.get("features")
        if isinstance(announced, list):  # names this client does not know are kept too
            self.features = frozenset(name for name in announced if isinstance(name, str))
        limit = welcome.get("maxLine")
        if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0:
            self.max_line = limit
        nodes = welcome.get("maxUpdateNodes")
        if isinstance(nodes, int) and not isinstance(nodes, bool) and nodes > 0:
            self.max_update_nodes = nodes

    def require(self, feature: str, instead: str = "") -> None:
        """Raises `FeatureUnavailable` unless the service announced `feature`."""
        if feature not in self.features:
            raise FeatureUnavailable(feature, self.features, instead)

    def _require_status(self) -> None:
        if self.role == "app":
            self.require("appStatus", "; an app's status (and sync) needs a service that takes it")

    def _line_for(self, message: dict) -> tuple[int, bytes]:
        """The message as its line, numbered and remembered (call under the sending lock):
        refused before anything is counted when it is over the service's `maxLine`."""
        if self._closed:
            raise ConnectionClosed(self._close_reason)
        data = _encode(message)
        if len(data) - 1 > self.max_line:
            raise LineTooLong(str(message.get("type")), len(data) - 1, self.max_line)
        # Remembered before it is sent: Tandem's error about it may come back at once.
        self._lines_sent += 1
        with self._sent_lock:
            self._sent[self._lines_sent] = message
            if len(self._sent) > _REMEMBERED_LINES:
                self._sent.popitem(last=False)
        return self._lines_sent, data

    @staticmethod
    def _check(message: Any) -> None:
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise TypeError("a message is a dict with a string 'type'")

    def _next_id(self) -> str:
        """An id for a call that needs its reply and was given none."""
        return f"auto-{next(self._auto_ids)}"

    def _decode(self, line: bytes) -> dict:
        """A line from Tandem as a message; an ``error`` gets ``sent`` (what was sent on its line)."""
        try:
            message = json.loads(line.decode("utf-8"))
        except ValueError:  # includes UnicodeDecodeError
            message = None
        if not isinstance(message, dict):
            message = {"type": "error", "error": f"Tandem sent a line that is not a JSON object: {line[:200]!r}"}
            self._last_received = message
            return message
        self._last_received = message
        if message.get("type") == "error" and isinstance(message.get("line"), int):
            with self._sent_lock:
                sent = self._sent.get(message["line"])
            if sent is not None:
                message["sent"] = sent
        return message

    def _route(self, message: dict) -> str:
        """Where a decoded message goes: ``hello`` (the answer to hello), ``reply`` (a call
        waits for it, by id), ``drop`` or ``event``."""
        kind = message.get("type")
        if not self._hello_done and kind in ("welcome", "error"):
            return "hello"
        if kind in _REPLY_TYPES and "id" in message:
            return "reply"
        return "drop" if kind == "ack" else "event"

    def _end_reason(self, reason: str) -> str:
        """Why the connection ended, with the service's last word when it was an error: the
        service sends its reason (a line over its limit, a half line left too long) as an
        error line, then closes."""
        last = self._last_received
        if last is not None and last.get("type") == "error" and "id" not in last:
            return f"{reason}, after its error: {last.get('error')}"
        return reason


# -- the calls of each role, shared by both clients ----------------------------------------------
#
# Each returns what `send` returns: the reply (or None) in the blocking client, an awaitable
# of it in the asyncio one.

class _Calls:
    def announce(self, text: str, priority: str | None = None, *, id: Any = None):
        """``UIAccessibility.post(.announcement)``; `priority` ``"high"`` speaks at once."""
        message = {"type": "notify", "notification": "announcement", "text": text}
        if priority is not None:
            message["priority"] = priority
        return self.send(message, id=id)  # type: ignore[attr-defined]


class _AppCalls(_Calls):
    def screen(self, screen: dict | Screen, *, id: Any = None):
        """The whole current screen (``id``, ``title``, ``focus``, ``root`` with nested
        children; a dict or a `Screen`). Brings the app to the foreground; a new screen id
        moves focus as ``screenChanged`` does."""
        return self.send({"type": "screen", "screen": _jsonable(screen)}, id=id)  # type: ignore[attr-defined]

    def update(self, nodes: Iterable[dict | Element], focus: str | None = None, *,
               edits: Iterable[dict] | None = None, id: Any = None):
        """Replaces whole elements (fields left out are cleared). A dict node is sent as it is:
        its `children`, when present, is a list of ids; new children come as nodes in the same
        update (see `flatten`); an element no longer in any children list is removed. An
        `Element` is sent with its subtree (flattened); its `children` left None sends none,
        so it keeps its children. `focus` moves focus there. `edits` change children lists by
        id without sending them (see `edit`); they need a service that announced ``edits``
        (else `FeatureUnavailable`, nothing sent). An update carrying more nodes plus edited
        ids than the service's `max_update_nodes` raises `UpdateTooLarge`, nothing sent."""
        if edits is not None:
            self.require("edits", "; send whole children lists with update() instead")  # type: ignore[attr-defined]
        flat: list = []
        for node in nodes:
            flat.extend(flatten(node) if isinstance(node, Element) else [node])
        message: dict = {"type": "update", "nodes": flat}
        size = len(flat)
        if edits is not None:
            message["edits"] = list(edits)
            size += sum(len(e.get("remove") or ()) + len(e.get("insert") or ()) for e in message["edits"])
        limit = self.max_update_nodes  # type: ignore[attr-defined]
        if size > limit:
            raise UpdateTooLarge(size, limit)
        if focus is not None:
            message["focus"] = focus
        return self.send(message, id=id)  # type: ignore[attr-defined]

    def insert(self, parent: str, nodes: Iterable[dict | Element], *, after: str | None = None,
               before: str | None = None, focus: str | None = None, id: Any = None):
        """Puts new elements into `parent`'s children after the child `after`, before the
        child `before`, or at the end, without sending the rest of the list: what it costs
        Tandem is what it names, however long the list. `nodes` are the new elements as
        nested elements (each flattened with its subtree). An edit: it needs a service that
        announced ``edits`` (see `update`)::

            app.insert("products", [row], after="banana.row")
        """
        elements = [_jsonable(node) for node in nodes]
        flat = [node for element in elements for node in flatten(element)]
        change = edit(parent, insert=[element["id"] for element in elements], after=after, before=before)
        return self.update(flat, focus, edits=[change], id=id)

    def remove(self, parent: str, ids: Iterable[str], *, focus: str | None = None, id: Any = None):
        """Takes children out of `parent`'s children by id (each removed with its subtree). An
        edit: it needs a service that announced ``edits`` (see `update`)."""
        return self.update([], focus, edits=[edit(parent, remove=ids)], id=id)

    def set(self, element_id: str, /, **fields: Any):
        """Changes only the named fields of one element; None clears a field::

            app.set("sheet", hidden=False, modal=True)
            app.set("banana.stepper", adjust=tandem.Adjust(2, max=20, format="%@ in cart"))

        No request id: in ``set`` the message's ``id`` is the element's. An error about it
        comes as an event, or from `sync()`.
        """
        for reserved in ("id", "type", "children"):
            if reserved in fields:
                raise TypeError(f"set() cannot change '{reserved}'"
                                + (" (use update() for children)" if reserved == "children" else ""))
        named = {_JSON_NAMES.get(name, name): _jsonable(value) for name, value in fields.items()}
        return self.send({"type": "set", "id": element_id, **named})  # type: ignore[attr-defined]

    def layout_changed(self, focus: str | None = None, *, id: Any = None):
        """``.layoutChanged``: part of the screen changed; focus moves to `focus` if given."""
        return self._notify("layoutChanged", focus, id)

    def screen_changed(self, focus: str | None = None, *, id: Any = None):
        """``.screenChanged``: a new screen; focus moves to `focus` or the screen's first."""
        return self._notify("screenChanged", focus, id)

    def page_scrolled(self, text: str, *, id: Any = None):
        """``.pageScrolled``: says where the scroll left the user ("Page 2 of 5")."""
        return self.send({"type": "notify", "notification": "pageScrolled", "text": text}, id=id)  # type: ignore[attr-defined]

    def _notify(self, notification: str, focus: str | None, id: Any):
        message = {"type": "notify", "notification": notification}
        if focus is not None:
            message["focus"] = focus
        return self.send(message, id=id)  # type: ignore[attr-defined]


class _ControllerCalls(_Calls):
    def command(self, name: str, *, input: str | None = None, id: Any = None):
        """A navigator command, as scenarios write it: ``"next"``, ``"increment"``, ``"route 3"``.

        `input` says what the user pressed the key on: ``"keyboard"``, ``"braille"`` or
        ``"touch"`` (`INPUT_METHODS`). Hints then name that method's keys, and ``activate`` on
        a text field from a keyboard or a braille display starts typing into it
        (Docs/keymaps.md#typing). Left out, the service's profile decides. Another word raises
        `ValueError`; a service that did not announce ``commandInput`` would ignore it, so the
        call raises `FeatureUnavailable` instead, before sending::

            ctl.command("activate", input="keyboard", id=1)
        """
        message = {"type": "command", "command": name}
        if input is not None:
            if not isinstance(input, str) or input not in INPUT_METHODS:
                raise ValueError(f"input must be one of {', '.join(INPUT_METHODS)}, not {input!r}")
            self.require("commandInput", "; leave input out and the service's profile decides")  # type: ignore[attr-defined]
            message["input"] = input
        return self.send(message, id=id)  # type: ignore[attr-defined]

    def unsubscribe(self, *, id: Any = None):
        """Stops the transcript."""
        return self.send({"type": "unsubscribe"}, id=id)  # type: ignore[attr-defined]

    def foreground(self, client: str | None = None, name: str | None = None, *, id: Any = None):
        """Brings an app to the front, named by its client id (``"c2"``) or its name."""
        if (client is None) == (name is None):
            raise TypeError("foreground() takes a client id or an app name, one of them")
        target = {"client": client} if client is not None else {"name": name}
        return self.send({"type": "foreground", **target}, id=id)  # type: ignore[attr-defined]

    @staticmethod
    def _subscription(channels: Iterable[str] | None) -> tuple[dict, frozenset | None]:
        message: dict = {"type": "subscribe"}
        chosen = None if channels is None else list(channels)
        if chosen is not None:
            message["channels"] = chosen
        return message, None if chosen is None else frozenset(chosen)

    @staticmethod
    def _wanted(received: dict, wanted: frozenset | None) -> bool:
        # A service without the `channels` feature sends every channel: the others are dropped.
        return (received.get("type") == "transcript"
                and (wanted is None or received["line"].get("ch") in wanted))


# -- the blocking client -------------------------------------------------------------------------

class _Waiter:
    """One call waiting for its reply."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.reply: dict | None = None
        self.error: TandemError | None = None


class _Inbox:
    """The messages that are not replies, in order; `_CLOSED` last once the connection ends."""

    def __init__(self) -> None:
        self._items: collections.deque = collections.deque()
        self._ready = threading.Condition()

    def put(self, item: Any) -> None:
        with self._ready:
            self._items.append(item)
            self._ready.notify_all()

    def get(self, timeout: float | None) -> Any:
        """The next item (None after `timeout`); `_CLOSED` stays, so every later call sees it."""
        with self._ready:
            if not self._ready.wait_for(lambda: self._items, timeout):
                return None
            item = self._items[0]
            if item is not _CLOSED:
                self._items.popleft()
            return item

    def take_errors(self, before_line: int) -> list[dict]:
        """Takes out the errors about lines before `before_line`."""
        with self._ready:
            errors = [item for item in self._items if _is_error_before(item, before_line)]
            self._items = collections.deque(item for item in self._items
                                            if not _is_error_before(item, before_line))
            return errors


class Connection(_Core):
    """One connection to Tandem, after ``hello`` and ``welcome``. `App` and `Controller` add
    the messages of their role; `send()` sends any message, for what they do not cover.

    `client_id` is the id Tandem gave this connection (``c1``, ``c2``, …); `features` the names
    of the protocol features its ``welcome`` announced (a frozenset; empty when it listed none);
    `max_line` the longest line it takes, in bytes (``maxLine``; 1 MiB when it did not say);
    `max_update_nodes` the most nodes plus edited ids an ``update`` may carry (``maxUpdateNodes``;
    8,192 when it did not say).
    """

    def __init__(self, role: str, socket_path: str | None = None, *, name: str | None = None,
                 language: str | None = None, timeout: float = DEFAULT_TIMEOUT):
        self._setup(role, socket_path, timeout)
        self._events = _Inbox()
        self._waiting: dict[str, _Waiter] = {}
        self._hello_waiter = _Waiter()  # welcome carries no id we can rely on: the first one is ours
        self._lock = threading.Lock()        # _waiting, _closed, _close_reason
        self._send_lock = threading.Lock()   # one line at a time; line numbers in send order

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
        try:
            self._send_line(self._hello(role, name, language))
            welcome = self._wait(self._hello_waiter, "welcome")
        except BaseException:  # refused, timed out or interrupted: no half-open connection
            self.close()
            raise
        self._welcomed(welcome)

    # -- sending ---------------------------------------------------------------------------

    def send(self, message: dict, *, id: Any = None, timeout: float | None = None) -> dict | None:
        """Sends one message. With `id`, waits for its reply and returns it (raises
        `TandemError` if it is an error, `TimeoutError` if none comes within `timeout`)."""
        self._check(message)
        if id is None:
            self._send_line(message)
            return None
        return self._request(message, id, timeout)[0]

    def _request(self, message: dict, id: Any, timeout: float | None) -> tuple[dict, int]:
        message = dict(message, id=id)
        key, waiter = _key(id), _Waiter()
        with self._lock:
            if key in self._waiting:
                raise ValueError(f"a message with id {key} is still waiting for its reply")
            self._waiting[key] = waiter  # before sending: the reply may beat us back
        try:
            line = self._send_line(message)
            return self._wait(waiter, message["type"], timeout), line
        finally:
            with self._lock:
                if self._waiting.get(key) is waiter:
                    del self._waiting[key]

    def status(self, *, id: Any = None, timeout: float | None = None) -> dict:
        """Tandem's state: ``apps`` (client, name, foreground), ``speech``, ``braille``, and
        the foreground app's ``screen`` and ``focus``. Always waits for the reply. From an
        app it needs ``appStatus`` (`FeatureUnavailable` otherwise)."""
        self._require_status()
        return self._request({"type": "status"}, self._next_id() if id is None else id, timeout)[0]

    def sync(self, timeout: float | None = None) -> None:
        """Waits until Tandem has handled every message sent before (a ``status``: replies come
        in order), then raises the first error about them still waiting to be read, taking
        them all out of `messages()`. From an app it needs ``appStatus``."""
        self._require_status()
        _, line = self._request({"type": "status"}, self._next_id(), timeout)
        errors = self._events.take_errors(line)
        if errors:
            raise TandemError.from_event(errors[0])

    def _send_line(self, message: dict) -> int:
        with self._send_lock:
            line, data = self._line_for(message)
            try:
                self._sock.sendall(data)
            except OSError as error:
                # The service closed the connection (its reason, an error line, may be on its
                # way): say it ended rather than "Broken pipe", once the reader has seen the end.
                if self._reader is not threading.current_thread():
                    self._reader.join(self.timeout)
                reason = self._close_reason if self._closed else error.strerror
                raise ConnectionClosed(f"cannot send to Tandem: {reason}") from error
            return line

    def _wait(self, waiter: _Waiter, what: str, timeout: float | None = None) -> dict:
        limit = self.timeout if timeout is None else timeout
        if not waiter.done.wait(limit):
            raise TimeoutError(f"no reply from Tandem to '{what}' within {limit:g} s")
        if waiter.error is not None:
            raise waiter.error
        assert waiter.reply is not None
        return waiter.reply

    # -- receiving -------------------------------------------------------------------------

    def next_message(self, timeout: float | None = None) -> dict | None:
        """The next message that is not a reply (``action``, ``focus``, ``transcript``, and
        ``error`` for a message sent without waiting: see `TandemError.from_event`), or None
        after `timeout` seconds (None: wait as long as it takes).

        Raises `ConnectionClosed` once the connection has ended and every message that came
        before has been read.
        """
        item = self._events.get(timeout)
        if item is _CLOSED:
            raise ConnectionClosed(self._close_reason)
        return item

    def messages(self) -> Iterator[dict]:
        """`next_message()` as an iterator: an error about a message sent without waiting is
        one of its messages (type ``"error"``), and the loop goes on. It ends after `close()`;
        it raises `ConnectionClosed` when Tandem ends the connection."""
        while True:
            try:
                yield self.next_message()  # type: ignore[misc]  # without a timeout never None
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
                        self._dispatch(self._decode(line))
        except OSError as error:
            reason = f"the connection to Tandem failed: {error.strerror}"
        self._finish(self._end_reason(reason))

    def _dispatch(self, message: dict) -> None:
        route = self._route(message)
        if route == "hello":
            self._hello_done = True
            self._resolve(self._hello_waiter, message)
        elif route == "reply":
            with self._lock:
                waiter = self._waiting.pop(_key(message["id"]), None)
            if waiter is not None:
                self._resolve(waiter, message)
            elif message.get("type") != "ack":  # an ack nobody waits for any more is dropped
                self._events.put(message)
        elif route == "event":
            self._events.put(message)

    @staticmethod
    def _resolve(waiter: _Waiter, message: dict) -> None:
        if message.get("type") == "error":
            waiter.error = TandemError.from_event(message)
        else:
            waiter.reply = message
        waiter.done.set()

    def _finish(self, reason: str) -> None:
        """The connection has ended: fail every waiting call, then tell the reader of messages."""
        with self._lock:
            if not self._closed:
                self._closed, self._close_reason = True, reason
            waiters = list(self._waiting.values()) + [self._hello_waiter]
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


class App(_AppCalls, Connection):
    """An app: publishes its screens and tree, posts notifications, receives ``action``
    (what the user did), ``focus`` (where the user is) and ``error`` (a message Tandem refused)
    from `messages()`.

    Element fields are Docs/formats.md#element's (label, value, hint, traits, frame, children,
    actions, adjust, progress, hidden, modal, …), as dicts or `Element`s; effects
    (``activate``, ``do``) are not sent: the app acts itself when an ``action`` arrives.
    """

    def __init__(self, name: str, socket_path: str | None = None, *, language: str = "en",
                 timeout: float = DEFAULT_TIMEOUT):
        super().__init__("app", socket_path, name=name, language=language, timeout=timeout)


class Controller(_ControllerCalls, Connection):
    """A controller: drives the navigator as the user's keys would, and follows the
    transcript (what Tandem speaks, shows in braille, plays, and the events behind them)."""

    def __init__(self, socket_path: str | None = None, *, timeout: float = DEFAULT_TIMEOUT):
        super().__init__("controller", socket_path, timeout=timeout)

    def subscribe(self, channels: Iterable[str] | None = None, *,
                  id: Any = None) -> Iterator[dict]:
        """Starts the transcript and returns an iterator over its lines (Docs/formats.md#transcript
        objects: ``{"t": …, "ch": "speech", "op": "speak", "text": …}``). `channels` keeps only
        some of ``speech``, ``braille``, ``sound``, ``event``. The iterator reads `messages()`,
        so read either one or the other; it ends after `close()`."""
        message, wanted = self._subscription(channels)
        self.send(message, id=id)  # now, not at the iterator's first step
        return (received["line"] for received in self.messages() if self._wanted(received, wanted))


# -- the asyncio client --------------------------------------------------------------------------

class _AsyncInbox:
    """`_Inbox` on the event loop."""

    def __init__(self) -> None:
        self._items: collections.deque = collections.deque()
        self._changed = asyncio.Event()

    def put(self, item: Any) -> None:
        self._items.append(item)
        self._changed.set()

    async def get(self, timeout: float | None) -> Any:
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while not self._items:
            self._changed.clear()
            left = None if deadline is None else deadline - loop.time()
            if left is not None and left <= 0:
                return None
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except asyncio.TimeoutError:
                return None
        item = self._items[0]
        if item is not _CLOSED:
            self._items.popleft()
        return item

    def take_errors(self, before_line: int) -> list[dict]:
        errors = [item for item in self._items if _is_error_before(item, before_line)]
        self._items = collections.deque(item for item in self._items if not _is_error_before(item, before_line))
        return errors


class AsyncConnection(_Core):
    """`Connection` for asyncio, on `asyncio.open_unix_connection`: every call that sends or
    waits is a coroutine. Open one with `AsyncApp.connect` / `AsyncController.connect` (or
    `AsyncConnection.open(role, …)`); use it from the event loop it was opened on."""

    def __init__(self, *args: Any, **kwargs: Any):
        raise TypeError(f"open it with `await {type(self).__name__}.connect(...)`")

    @classmethod
    async def open(cls, role: str, socket_path: str | None = None, *, name: str | None = None,
                   language: str | None = None, timeout: float = DEFAULT_TIMEOUT) -> "AsyncConnection":
        """Connects, says hello in `role`, and returns once Tandem has welcomed it."""
        self = cls.__new__(cls)
        self._setup(role, socket_path, timeout)
        self._events = _AsyncInbox()
        self._waiting: dict[str, asyncio.Future] = {}
        loop = asyncio.get_running_loop()
        self._hello_waiter: asyncio.Future = loop.create_future()
        try:
            self._stream_in, self._stream_out = await asyncio.open_unix_connection(self.socket_path)
        except OSError as error:
            raise ConnectionClosed(f"cannot connect to {self.socket_path}: {error.strerror}"
                                   " (is `tandem serve` running?)") from error
        self._reader_task = loop.create_task(self._read_loop())
        try:
            self._write(self._hello(role, name, language))
            welcome = await self._wait(self._hello_waiter, "welcome", None)
        except BaseException:
            await self.close()
            raise
        self._welcomed(welcome)
        return self

    # -- sending ---------------------------------------------------------------------------

    async def send(self, message: dict, *, id: Any = None, timeout: float | None = None) -> dict | None:
        """Sends one message. With `id`, waits for its reply and returns it (raises
        `TandemError` if it is an error, `TimeoutError` if none comes within `timeout`)."""
        self._check(message)
        if id is None:
            self._write(message)
            await self._drain()
            return None
        return (await self._request(message, id, timeout))[0]

    async def _request(self, message: dict, id: Any, timeout: float | None) -> tuple[dict, int]:
        message = dict(message, id=id)
        key = _key(id)
        if key in self._waiting:
            raise ValueError(f"a message with id {key} is still waiting for its reply")
        waiter = asyncio.get_running_loop().create_future()
        self._waiting[key] = waiter
        try:
            line = self._write(message)
            await self._drain()
            return await self._wait(waiter, message["type"], timeout), line
        finally:
            if self._waiting.get(key) is waiter:
                del self._waiting[key]

    async def status(self, *, id: Any = None, timeout: float | None = None) -> dict:
        """Tandem's state (see `Connection.status`)."""
        self._require_status()
        return (await self._request({"type": "status"}, self._next_id() if id is None else id, timeout))[0]

    async def sync(self, timeout: float | None = None) -> None:
        """Waits until Tandem has handled everything sent before; raises the first error about
        it still waiting to be read (see `Connection.sync`)."""
        self._require_status()
        _, line = await self._request({"type": "status"}, self._next_id(), timeout)
        errors = self._events.take_errors(line)
        if errors:
            raise TandemError.from_event(errors[0])

    def _write(self, message: dict) -> int:
        line, data = self._line_for(message)  # one task at a time: the line order is the write order
        self._stream_out.write(data)
        return line

    async def _drain(self) -> None:
        try:
            await self._stream_out.drain()
        except (OSError, RuntimeError) as error:
            raise ConnectionClosed(f"cannot send to Tandem: {error}") from error

    async def _wait(self, waiter: asyncio.Future, what: str, timeout: float | None) -> dict:
        limit = self.timeout if timeout is None else timeout
        try:
            return await asyncio.wait_for(asyncio.shield(waiter), limit)
        except asyncio.TimeoutError:
            raise TimeoutError(f"no reply from Tandem to '{what}' within {limit:g} s") from None

    # -- receiving -------------------------------------------------------------------------

    async def next_message(self, timeout: float | None = None) -> dict | None:
        """The next message that is not a reply, errors included (see `Connection.next_message`)."""
        item = await self._events.get(timeout)
        if item is _CLOSED:
            raise ConnectionClosed(self._close_reason)
        return item

    async def events(self) -> AsyncIterator[dict]:
        """`next_message()` as an async iterator (``async for message in app.events()``): an
        error about a message sent without waiting is one of its messages, and the loop goes
        on. It ends after `close()`; it raises `ConnectionClosed` when Tandem ends the
        connection."""
        while True:
            try:
                yield await self.next_message()  # type: ignore[misc]
            except ConnectionClosed:
                if self._closed_by_us:
                    return
                raise

    async def _read_loop(self) -> None:
        lines = LineReader()
        reason = "Tandem closed the connection"
        try:
            while True:
                data = await self._stream_in.read(65536)
                if not data:
                    break
                for line in lines.feed(data):
                    if line.strip():
                        self._dispatch(self._decode(line))
        except OSError as error:
            reason = f"the connection to Tandem failed: {error.strerror}"
        finally:
            self._finish(self._end_reason(reason))

    def _dispatch(self, message: dict) -> None:
        route = self._route(message)
        if route == "hello":
            self._hello_done = True
            self._resolve(self._hello_waiter, message)
        elif route == "reply":
            waiter = self._waiting.pop(_key(message["id"]), None)
            if waiter is not None:
                self._resolve(waiter, message)
            elif message.get("type") != "ack":
                self._events.put(message)
        elif route == "event":
            self._events.put(message)

    @staticmethod
    def _resolve(waiter: asyncio.Future, message: dict) -> None:
        if waiter.done():
            return
        if message.get("type") == "error":
            waiter.set_exception(TandemError.from_event(message))
        else:
            waiter.set_result(message)

    def _finish(self, reason: str) -> None:
        if not self._closed:
            self._closed, self._close_reason = True, reason
        for waiter in list(self._waiting.values()) + [self._hello_waiter]:
            if not waiter.done():
                waiter.set_exception(ConnectionClosed(self._close_reason))
        self._waiting.clear()
        self._events.put(_CLOSED)

    # -- closing ---------------------------------------------------------------------------

    async def close(self) -> None:
        """Ends the connection. Safe to call more than once."""
        if not self._closed:
            self._closed, self._closed_by_us = True, True
            self._close_reason = "the connection was closed by this client"
        out = getattr(self, "_stream_out", None)
        if out is not None and not out.is_closing():
            out.close()
        if out is not None:
            try:
                await out.wait_closed()
            except (OSError, RuntimeError):
                pass
        task = getattr(self, "_reader_task", None)
        if task is not None:
            await task

    async def __aenter__(self) -> "AsyncConnection":
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()


class AsyncApp(_AppCalls, AsyncConnection):
    """`App` for asyncio: ``app = await AsyncApp.connect("Counter")``; every sending call is
    awaited (``await app.set(…)``); ``async for message in app.events()``."""

    @classmethod
    async def connect(cls, name: str, socket_path: str | None = None, *, language: str = "en",
                      timeout: float = DEFAULT_TIMEOUT) -> "AsyncApp":
        """Connects as the app `name` and returns once Tandem has welcomed it."""
        return await cls.open("app", socket_path, name=name, language=language, timeout=timeout)  # type: ignore[return-value]


class AsyncController(_ControllerCalls, AsyncConnection):
    """`Controller` for asyncio: ``ctl = await AsyncController.connect()``, ``await
    ctl.command("next")``, ``await ctl.status()``, ``async for line in await ctl.subscribe()``."""

    @classmethod
    async def connect(cls, socket_path: str | None = None, *,
                      timeout: float = DEFAULT_TIMEOUT) -> "AsyncController":
        """Connects as a controller and returns once Tandem has welcomed it."""
        return await cls.open("controller", socket_path, timeout=timeout)  # type: ignore[return-value]

    async def subscribe(self, channels: Iterable[str] | None = None, *,
                        id: Any = None) -> AsyncIterator[dict]:
        """Starts the transcript (sent now) and returns an async iterator over its lines (see
        `Controller.subscribe`); it reads `events()`, so read one or the other."""
        message, wanted = self._subscription(channels)
        await self.send(message, id=id)

        async def lines() -> AsyncIterator[dict]:
            async for received in self.events():
                if self._wanted(received, wanted):
                    yield received["line"]
        return lines()
