#!/usr/bin/env python3
"""A Qt 5 app written for Tandem's AT-SPI tests (PyQt5, Debian's python3-pyqt5): an order form
whose widgets are rows of Docs/atspi.md's role table as Qt publishes them. Qt 5's AT-SPI bridge
is built into libQt5Gui; it publishes the tree when the session bus says accessibility is on
(org.a11y.Status IsEnabled) or QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 (both are set by
scripts/services/atspi.sh). Run it with Debian's /usr/bin/python3.

  --app-name NAME  its AT-SPI application name (QApplication.applicationName)

Commands on standard input, one a line, each answered by "ok COMMAND" once Qt has applied it:

  focus LABEL      keyboard focus moves to the widget LABEL ("Place order", "Gift wrap")
  add NAME         a list item NAME is added to the breads
  remove NAME      the list item NAME is removed
  note             prints "note TEXT": the line edit's text as Qt has it
  quit             the app ends (exit 0)

The app prints "pressed" when its "Place order" button is pressed (activate reached Qt).
"Review order" opens a modal dialog ("Send the order now?", Send, Cancel); it prints "sent" or
"cancelled" when the dialog closes.
"""
import sys

from PyQt5.QtCore import QSocketNotifier, Qt, QTimer
from PyQt5.QtWidgets import (QApplication, QCheckBox, QDialog, QLabel, QLineEdit, QListWidget,
                             QPushButton, QSpinBox, QVBoxLayout, QHBoxLayout, QWidget)

NAME = sys.argv[sys.argv.index("--app-name") + 1] if "--app-name" in sys.argv else "qt-form"


class OrderForm(QWidget):
    def __init__(self):
        super().__init__()
        self.setWindowTitle("Order")
        self.setGeometry(0, 0, 400, 600)
        box = QVBoxLayout(self)

        heading = QLabel("Order")  # Qt has no heading role for a label: it is a label
        box.addWidget(heading)

        row = QHBoxLayout()
        loaves = QLabel("Loaves")
        self.spin = QSpinBox()
        self.spin.setRange(1, 12)
        self.spin.setValue(3)
        self.spin.setAccessibleName("Loaves")
        loaves.setBuddy(self.spin)
        row.addWidget(loaves)
        row.addWidget(self.spin)
        box.addLayout(row)

        self.gift = QCheckBox("Gift wrap")
        self.gift.setChecked(True)
        box.addWidget(self.gift)

        self.note = QLineEdit()
        self.note.setAccessibleName("Note")
        box.addWidget(self.note)

        self.button = QPushButton("Place order")
        self.button.setAccessibleDescription("Sends the order to the bakery")
        self.button.clicked.connect(lambda: print("pressed", flush=True))
        box.addWidget(self.button)

        self.review = QPushButton("Review order")
        self.review.clicked.connect(self.open_dialog)
        box.addWidget(self.review)

        self.list = QListWidget()
        self.list.setAccessibleName("Breads")
        self.list.addItems(["Rye", "Sourdough", "Spelt"])
        box.addWidget(self.list)

        self.show()
        if "--ignore-stdin" not in sys.argv:
            self.notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Read, self)
            self.notifier.activated.connect(self.on_stdin)

    def open_dialog(self):
        dialog = QDialog(self)
        dialog.setWindowTitle("Confirm order")
        dialog.setModal(True)
        layout = QVBoxLayout(dialog)
        layout.addWidget(QLabel("Send the order now?"))
        send = QPushButton("Send")
        send.clicked.connect(dialog.accept)
        cancel = QPushButton("Cancel")
        cancel.clicked.connect(dialog.reject)
        layout.addWidget(send)
        layout.addWidget(cancel)
        dialog.finished.connect(lambda result: print("sent" if result else "cancelled", flush=True))
        dialog.setGeometry(50, 100, 300, 200)
        dialog.show()
        self.dialog = dialog

    def on_stdin(self, *_):
        line = sys.stdin.readline()
        if not line:
            QApplication.quit()
            return
        command, _, arg = line.strip().partition(" ")
        if command == "focus":
            self.activateWindow()
            for widget in (self.button, self.gift):
                if widget.text() == arg:
                    widget.setFocus()
        elif command == "add":
            self.list.addItem(arg)
        elif command == "remove":
            for item in self.list.findItems(arg, Qt.MatchExactly):
                self.list.takeItem(self.list.row(item))
        elif command == "note":
            print(f"note {self.note.text()}", flush=True)
        elif command == "quit":
            QApplication.quit()
            return
        else:
            print(f"unknown {command}", flush=True)
            return
        # answered after Qt's pending events (its accessibility events among them) went out
        QTimer.singleShot(0, lambda: print(f"ok {command}", flush=True))


if __name__ == "__main__":
    app = QApplication([sys.argv[0]])
    app.setApplicationName(NAME)
    form = OrderForm()
    print("ready", flush=True)
    sys.exit(app.exec_())
