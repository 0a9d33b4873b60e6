#!/usr/bin/env python3
"""A second GTK 3 app written for Tandem's AT-SPI tests (Docs/atspi.md): a data table (a
GtkTreeView, whose cells have AT-SPI's TableCell interface and three named actions each:
"expand or contract", "edit", "activate") and a progress bar whose value the test moves. Run it
on the private accessibility desktop with Debian's /usr/bin/python3 (python3-gi). Commands on
standard input, one a line; after each it prints "ok COMMAND" once GTK has applied it:

  progress F       the progress bar's fraction becomes F (0…1)
  quit             the app ends (exit 0)

It prints "activated NAME" when a row is activated (the cell's "activate" action: GTK's
row-activated), and "ready" once its window shows.
"""
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Atk", "1.0")
from gi.repository import Atk, GLib, Gtk  # noqa: E402

NAME = sys.argv[sys.argv.index("--app-name") + 1] if "--app-name" in sys.argv else "ledger"
GLib.set_prgname(NAME)
GLib.set_application_name("Ledger")


class Ledger:
    def __init__(self):
        self.window = Gtk.Window(title="Ledger")
        self.window.set_default_size(400, 300)
        self.window.move(0, 0)
        self.window.connect("destroy", lambda *_: Gtk.main_quit())
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8, margin=12)
        self.window.add(box)

        heading = Gtk.Label(label="Ledger", xalign=0)
        heading.get_accessible().set_role(Atk.Role.HEADING)
        box.pack_start(heading, False, False, 0)

        store = Gtk.ListStore(str, str)
        for row in (("Rye", "3 euros"), ("Spelt", "4 euros")):
            store.append(row)
        self.table = Gtk.TreeView(model=store)
        for i, title in enumerate(("Loaf", "Price")):
            self.table.append_column(Gtk.TreeViewColumn(title, Gtk.CellRendererText(), text=i))
        self.table.connect("row-activated", self.on_activated)
        box.pack_start(self.table, False, False, 0)

        self.progress = Gtk.ProgressBar()
        self.progress.get_accessible().set_name("Upload")
        box.pack_start(self.progress, False, False, 0)

        self.window.show_all()
        GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT,
                          GLib.IO_IN | GLib.IO_HUP, self.on_stdin)

    def on_activated(self, view, path, column):
        print(f"activated {view.get_model()[path][0]}", flush=True)

    def on_stdin(self, channel, condition):
        line = sys.stdin.readline()
        if not line:
            Gtk.main_quit()
            return False
        command, _, arg = line.strip().partition(" ")
        if command == "progress":
            self.progress.set_fraction(float(arg))
        elif command == "quit":
            Gtk.main_quit()
            return False
        else:
            print(f"unknown {command}", flush=True)
            return True
        GLib.idle_add(lambda: print(f"ok {command}", flush=True) and False, priority=GLib.PRIORITY_LOW)
        return True


if __name__ == "__main__":
    Ledger()
    print("ready", flush=True)
    Gtk.main()
