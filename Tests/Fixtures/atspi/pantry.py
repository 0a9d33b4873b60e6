#!/usr/bin/env python3
"""A GTK 3 app written for Tandem's AT-SPI tests: a pantry screen whose every widget is one
mapping rule of Docs/atspi.md. Run it on the private accessibility desktop
(scripts/services/atspi.sh env), with Debian's /usr/bin/python3 (python3-gi). The test drives the app's own changes through standard
input, one command a line, so each event path has a real source:

  status TEXT      the status label's text becomes TEXT (a name change)
  notify TEXT      the notification label shows TEXT (a notification becomes showing)
  hide-notice      the notification label hides again
  add NAME         a row NAME is appended to the list (children added)
  rows N           N rows "Row 1"… are appended to the list
  remove NAME      the row NAME is removed (children removed)
  progress F       the progress bar's fraction becomes F (0…1)
  dialog           the modal "Remove all items?" dialog opens (also its button)
  spin N           the spin button's value becomes N (the app's own change)
  focus LABEL      keyboard focus moves to the button LABEL ("Add to basket", "Organic only")
                   or the entry "Note"; the window takes X's keyboard focus (it is presented)
  hold-focus       from now on the window takes X's keyboard focus back whenever it loses it
                   (a window that will not let another come to the front)
  announce TEXT    the window announces TEXT (ATK's announcement signal: object:announcement)
  note             prints the note entry's text as "note TEXT" (what the user typed reached GTK)
  burst N          the status label's text changes N times at once (one GTK main-loop turn)
  quit             the app ends (exit 0)

With --ignore-stdin it reads nothing and runs until it is killed.

After each command it prints "ok COMMAND" on standard output, once GTK has applied it.
"""
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Atk", "1.0")
from gi.repository import Atk, GLib, Gtk  # noqa: E402

# The AT-SPI application name: `--app-name NAME` (tests running side by side each use their
# own). Not `--name`: GTK takes that one for itself.
NAME = sys.argv[sys.argv.index("--app-name") + 1] if "--app-name" in sys.argv else "pantry"
GLib.set_prgname(NAME)
GLib.set_application_name("Pantry")


def role(widget, atk_role):
    widget.get_accessible().set_role(atk_role)
    return widget


class Pantry:
    def __init__(self):
        self.window = Gtk.Window(title="Pantry")
        self.window.set_default_size(480, 640)
        self.window.move(0, 0)
        self.window.connect("destroy", lambda *_: Gtk.main_quit())
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8, margin=12)
        self.window.add(box)

        heading = role(Gtk.Label(label="Pantry", xalign=0), Atk.Role.HEADING)
        box.pack_start(heading, False, False, 0)

        row = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=8)
        apples = Gtk.Label(label="Apples")
        self.spin = Gtk.SpinButton.new_with_range(0, 10, 1)
        self.spin.set_value(2)
        self.spin.get_accessible().set_name("Apples quantity")
        apples.set_mnemonic_widget(self.spin)
        row.pack_start(apples, False, False, 0)
        row.pack_start(self.spin, False, False, 0)
        box.pack_start(row, False, False, 0)

        self.organic = Gtk.CheckButton(label="Organic only")
        box.pack_start(self.organic, False, False, 0)

        self.add_button = Gtk.Button(label="Add to basket")
        self.add_button.get_accessible().set_description("Adds the apples to the basket")
        self.add_button.connect("clicked", self.on_add)
        box.pack_start(self.add_button, False, False, 0)

        self.list = Gtk.ListBox()
        for name in ("Milk", "Bread", "Eggs"):
            self.append_row(name)
        box.pack_start(self.list, False, False, 0)

        self.progress = Gtk.ProgressBar()
        self.progress.get_accessible().set_name("Syncing")
        box.pack_start(self.progress, False, False, 0)

        self.status = role(Gtk.Label(label="Basket is empty", xalign=0), Atk.Role.STATUSBAR)
        box.pack_start(self.status, False, False, 0)

        self.notice = role(Gtk.Label(label="", xalign=0), Atk.Role.NOTIFICATION)
        self.notice.set_no_show_all(True)
        box.pack_start(self.notice, False, False, 0)

        remove = Gtk.Button(label="Remove all")
        remove.connect("clicked", lambda *_: self.open_dialog())
        box.pack_start(remove, False, False, 0)

        # a text entry (EditableText): what the user types in Tandem reaches GTK
        self.note = Gtk.Entry()
        self.note.get_accessible().set_name("Note")
        box.pack_start(self.note, False, False, 0)
        self.dialog = None
        self.basket = 0

        self.window.show_all()
        if "--ignore-stdin" not in sys.argv:  # a CI script's app that runs until it is killed
            GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT,
                              GLib.IO_IN | GLib.IO_HUP, self.on_stdin)

    def append_row(self, name):
        row = Gtk.ListBoxRow()
        row.add(Gtk.Label(label=name, xalign=0))
        row.set_name(name)
        row.show_all()
        self.list.add(row)

    def on_add(self, *_):
        self.basket += int(self.spin.get_value())
        self.status.set_text(f"{self.basket} apples in basket")

    def open_dialog(self):
        if self.dialog:
            return
        self.dialog = Gtk.Dialog(title="Remove all items?", transient_for=self.window, modal=True)
        self.dialog.add_button("Cancel", Gtk.ResponseType.CANCEL)
        self.dialog.add_button("Remove", Gtk.ResponseType.OK)
        self.dialog.get_content_area().add(Gtk.Label(label="The basket will be empty."))
        self.dialog.connect("response", self.on_response)
        self.dialog.show_all()

    def on_response(self, dialog, response):
        if response == Gtk.ResponseType.OK:
            self.basket = 0
            self.status.set_text("Basket is empty")
        dialog.destroy()
        self.dialog = None

    def on_stdin(self, channel, condition):
        line = sys.stdin.readline()
        if not line:
            Gtk.main_quit()
            return False
        command, _, arg = line.strip().partition(" ")
        if command == "status":
            self.status.set_text(arg)
        elif command == "notify":
            self.notice.set_text(arg)
            self.notice.show()
        elif command == "hide-notice":
            self.notice.hide()
        elif command == "add":
            self.append_row(arg)
        elif command == "rows":
            for i in range(int(arg)):
                self.append_row(f"Row {i + 1}")
        elif command == "remove":
            for row in self.list.get_children():
                if row.get_name() == arg:
                    self.list.remove(row)
        elif command == "progress":
            self.progress.set_fraction(float(arg))
        elif command == "dialog":
            self.open_dialog()
        elif command == "spin":
            self.spin.set_value(float(arg))
        elif command == "focus":
            # the app moves keyboard focus itself (as after a shortcut): to the button named ARG.
            # With no window manager the window gets the X input focus only when presented.
            self.window.present()
            for widget in (self.add_button, self.organic):
                if widget.get_label() == arg:
                    widget.grab_focus()
            if arg == "Note":
                self.note.grab_focus()
        elif command == "hold-focus":
            self.window.connect("focus-out-event", lambda *_: GLib.idle_add(lambda: self.window.present() and False) and False)
        elif command == "announce":
            self.window.get_accessible().emit("announcement", arg)
        elif command == "note":
            print(f"note {self.note.get_text()}", flush=True)
        elif command == "burst":
            for i in range(int(arg)):
                self.status.set_text(f"Burst {i + 1}")
        elif command == "quit":
            Gtk.main_quit()
            return False
        else:
            print(f"unknown {command}", flush=True)
            return True
        # answered once GTK has drawn and its accessibility events have gone out
        GLib.idle_add(lambda: print(f"ok {command}", flush=True) and False, priority=GLib.PRIORITY_LOW)
        return True


if __name__ == "__main__":
    Pantry()
    print("ready", flush=True)
    Gtk.main()
