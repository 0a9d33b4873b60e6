#!/usr/bin/env python3
"""Groceries: an example app for `tandem serve`, showing the whole loop.

    tandem serve &                                  # the service
    python3 Examples/clients/grocery_app.py         # this app: publishes its screen
    python3 Examples/clients/controller.py next next increment   # the user's keys

The app keeps its own model (the items and their quantities) and builds its accessibility
tree from it. Tandem tells it what the blind user did (``action``); the app changes its model
and sends what changed, as a real app's accessibility bridge would:

- a quick-add stepper (adjustable): ``increment``/``decrement`` → ``set`` of the new value,
  at once, so Tandem speaks it as the user's own change ("2 in cart");
- a custom action "Delete" on each row: → an announcement ("Banana deleted") and an
  ``update`` of the list without that row, moving focus to the next row;
- "Check out": a loading indicator is shown (visible and modal: Tandem moves focus into it),
  its progress rises in a few ``set``s, then a new ``screen`` says the order is confirmed.

Every message in and out is printed, so you can watch the protocol.
"""

from __future__ import annotations

import argparse
import sys
import time

import tandem_client as tandem  # beside this file

ROW_HEIGHT = 80
LIST_TOP = 96


class Groceries:
    """The app: its model, the tree built from it, and what it does on each action."""

    def __init__(self, app: tandem.App, step_seconds: float = 0.4, log=print):
        self.app = app
        self.step_seconds = step_seconds  # between progress steps while checking out
        self.log = log
        self.items = [
            {"id": "banana", "name": "Banana", "size": "1 kg", "price": "$1.99", "quantity": 0},
            {"id": "coffee", "name": "Coffee", "size": "500 g", "price": "$8.49", "quantity": 0},
            {"id": "milk", "name": "Milk", "size": "1 L", "price": "$1.29", "quantity": 0},
        ]

    # -- the tree, built from the model ----------------------------------------------------

    def list_screen(self) -> dict:
        return {"id": "list", "title": "Groceries", "focus": "title", "root": {
            "id": "list.root", "children": [
                # The screen's first focus: its title, as a heading.
                {"id": "title", "label": "Groceries", "traits": ["header"], "frame": [16, 44, 358, 44]},
                self.products(),
                {"id": "checkout", "label": "Check out", "traits": ["button"], "frame": [16, 740, 358, 48]},
                # Hidden until checkout; when shown, modal, so nothing else can be reached.
                {"id": "checkout.loading", "hidden": True, "frame": [145, 372, 100, 100],
                 "progress": {"label": "Placing order", "value": 0}},
            ]}}

    def products(self) -> dict:
        rows = [self.row(item, LIST_TOP + 8 + i * ROW_HEIGHT) for i, item in enumerate(self.items)]
        if not rows:
            rows = [{"id": "empty", "label": "Your list is empty", "frame": [16, LIST_TOP + 8, 358, 44]}]
        return {"id": "products", "frame": [0, LIST_TOP, 390, 3 * ROW_HEIGHT], "children": rows}

    def row(self, item: dict, y: int) -> dict:
        key = item["id"]
        # A group keeps the cell and its stepper together in reading order. The cell has no
        # label of its own: Tandem joins its children's ("Banana, 1 kg, $1.99").
        return {"id": f"{key}.row", "group": True, "children": [
            {"id": f"{key}.cell", "accessible": True, "frame": [16, y, 250, 64],
             "actions": [{"name": "Delete"}],
             "children": [
                 {"id": f"{key}.name", "label": item["name"], "frame": [88, y + 4, 170, 20]},
                 {"id": f"{key}.size", "label": item["size"], "frame": [88, y + 26, 80, 16]},
                 {"id": f"{key}.price", "label": item["price"], "frame": [88, y + 44, 80, 16]},
                 {"id": f"{key}.photo", "accessible": False, "frame": [16, y, 64, 64]},
             ]},
            {"id": f"{key}.stepper", "label": f"{item['name']} quantity", "traits": ["adjustable"],
             "frame": [276, y + 16, 98, 32], "adjust": self.adjust(item)},
        ]}

    @staticmethod
    def adjust(item: dict) -> dict:
        # Tandem renders `value` through `format` ("2 in cart").
        return {"value": item["quantity"], "min": 0, "max": 20, "step": 1, "format": "%@ in cart"}

    @staticmethod
    def confirmed_screen(count: int) -> dict:
        return {"id": "confirmed", "title": "Order confirmed", "focus": "confirmed.title", "root": {
            "id": "confirmed.root", "children": [
                {"id": "confirmed.title", "label": "Order confirmed", "traits": ["header"],
                 "frame": [16, 44, 358, 44]},
                {"id": "confirmed.summary",
                 "label": f"{count} item{'' if count == 1 else 's'}, delivery tomorrow between 8 and 10 AM",
                 "frame": [16, 100, 358, 48]},
                {"id": "confirmed.back", "label": "Back to groceries", "traits": ["button"],
                 "frame": [16, 740, 358, 48]},
            ]}}

    # -- what the user does --------------------------------------------------------------

    def run(self) -> None:
        """Publishes the list and answers actions until the connection ends."""
        self.app.screen(self.list_screen())
        self.log("-> screen list")
        for message in self.app.messages():
            if message["type"] == "focus":
                self.log(f"<- focus {message['id']}")
            elif message["type"] == "action":
                self.log(f"<- action {message['action']} {message['id']}"
                         + (f" {message['name']!r}" if "name" in message else ""))
                self.handle(message)
            elif message["type"] == "error":
                # Tandem refused a message sent earlier (a misspelled field, an unknown id): say
                # which, and go on — one mistake does not stop the app.
                self.log(f"<- error {tandem.TandemError.from_event(message)}")

    def handle(self, action: dict) -> None:
        kind, target = action["action"], action["id"]
        key, _, part = target.partition(".")
        item = next((i for i in self.items if i["id"] == key), None)
        if item and part == "stepper" and kind in ("increment", "decrement"):
            self.step(item, 1 if kind == "increment" else -1)
        elif item and part == "cell" and kind == "custom" and action.get("name") == "Delete":
            self.delete(item)
        elif target == "checkout" and kind == "activate":
            self.check_out()
        elif target == "confirmed.back" and kind == "activate":
            self.app.screen(self.list_screen())
            self.log("-> screen list")
        else:
            self.log("   (nothing to do)")

    def step(self, item: dict, by: int) -> None:
        quantity = min(20, max(0, item["quantity"] + by))
        if quantity == item["quantity"]:
            return  # at the end of its range: nothing changes, as a UIStepper would do
        item["quantity"] = quantity
        # Sent at once: a change within Tandem's user-action window (500 ms) after the
        # action is spoken as the user's own, cancelling the previous value.
        self.app.set(f"{item['id']}.stepper", adjust=self.adjust(item))
        self.log(f"-> set {item['id']}.stepper {quantity} in cart")

    def delete(self, item: dict) -> None:
        index = self.items.index(item)
        self.items.remove(item)
        after = self.items[min(index, len(self.items) - 1)]["id"] + ".cell" if self.items else "empty"
        # Announce, then update: the user hears "Banana deleted", then the row that took its
        # place. (The other order works too, in answer to an action: the announcement waits
        # for the focus speech — Docs/protocol.md#update-then-announce.)
        self.app.announce(f"{item['name']} deleted")
        # Replace the list and every row under it (rows moved up: new frames); the deleted
        # row is in no children list any more, so Tandem removes it with its subtree.
        self.app.update(tandem.flatten(self.products()), focus=after)
        self.log(f"-> notify announcement, update products (focus {after})")

    def check_out(self) -> None:
        count = sum(item["quantity"] for item in self.items)
        # Shown and modal: Tandem moves focus into it ("Placing order, 0%").
        self.app.set("checkout.loading", hidden=False, modal=True)
        self.log("-> set checkout.loading shown, modal")
        for step in range(1, 6):
            time.sleep(self.step_seconds)  # stands in for the order request
            self.app.set("checkout.loading", progress={"label": "Placing order", "value": step / 5})
            self.log(f"-> set checkout.loading {step * 20}%")
        self.app.screen(self.confirmed_screen(count))
        self.log("-> screen confirmed")


def main() -> int:
    parser = argparse.ArgumentParser(description="An example app for tandem serve.")
    parser.add_argument("--socket", help="the control socket (default: $XDG_RUNTIME_DIR/tandem/control.sock)")
    args = parser.parse_args()
    try:
        with tandem.App("Groceries", args.socket, language="en") as app:
            print(f"connected as {app.client_id}; Ctrl-C to quit")
            Groceries(app, log=lambda text: print(text, flush=True)).run()
    except tandem.ConnectionClosed as error:
        print(f"grocery_app: {error}", file=sys.stderr)
        return 1
    except tandem.TandemError as error:
        print(f"grocery_app: Tandem rejected a message: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
