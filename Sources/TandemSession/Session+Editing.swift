import TandemModel
import TandemNavigator
import TandemVocabulary

/// Typing into a text field with keys (Docs/keymaps.md#typing), as a keyboard or braille user
/// of VoiceOver or Orca expects: activating a focused text field starts editing ("Editing
/// Email"); while it lasts printable terminal keys type into the field, Backspace deletes and
/// Ctrl-U clears (`KeyMap.typingCommand`); Enter or Escape ends it ("Done editing Email"), and
/// so does focus leaving the field. Text typed on a display's braille keyboard goes into a
/// focused field whether or not editing was started, and starts it.
///
/// Only for keys: with touch (`InputMethod.touch`: scenarios of the VoiceOver model) nothing here
/// changes what is said, and `type`, `delete` and `clear` work as commands on their own.
extension Session {
    /// How the user drives the session: the profile's `input`, else the driver's default.
    public var inputMethod: InputMethod { profile.input ?? defaultInput }

    /// The field being typed into, if focus is still on it (the state is dropped once focus left).
    public mutating func editingField() -> String? {
        guard let id = typingInto else { editing = nil; return nil }
        return id
    }

    /// The field being typed into while focus is on it, as `status` reports it (`editingField()`
    /// without dropping a stale state).
    public var typingInto: String? {
        editing.flatMap { navigator.focusedElement?.id == $0 ? $0 : nil }
    }

    /// The focused element's id when it takes typed text: an enabled text, secure or search field.
    var editableFocus: String? {
        guard let e = navigator.focusedElement else { return nil }
        let t = e.traits
        guard t.contains(.textField) || t.contains(.secureTextField) || t.contains(.searchField), !t.contains(.notEnabled) else { return nil }
        return e.id
    }

    /// Enter (activate) or Escape on the field being typed into ends editing, and does nothing
    /// else: no second activation, no going back a screen. True when it did.
    mutating func endsEditing(_ command: Command) -> Bool {
        guard command == .activate || command == .escape, let id = editingField() else { return false }
        beginKey()
        editing = nil
        say(presenter.phrases.format("session.editingEnded", fieldName(id)), navigator.language)
        return true
    }

    /// After a navigator command with keys on `field` (focused before it): activating it starts
    /// editing, said; typing into it (a display's keyboard) starts it silently.
    mutating func startEditing(_ field: String, after command: Command) {
        guard navigator.focusedElement?.id == field, editingField() == nil else { return }
        switch command {
        case .activate:
            editing = field
            say(presenter.phrases.format("session.editingStarted", fieldName(field)), navigator.language)
        case .type, .deleteBackward, .clearText:
            editing = field
        default:
            break
        }
    }

    /// A field as the editing messages name it: its label, else its id.
    func fieldName(_ id: String) -> String {
        guard let e = navigator.element(id), let label = e.label else { return id }
        let name = navigator.catalog.resolve(label, language: navigator.language)
        return name.isEmpty ? id : name
    }
}

extension Session {
    /// The character a display's chord types, read in the language's computer braille by the
    /// display's translator (none with braille off).
    func typedCharacter(dots: Int) -> Character? {
        display.translator?.character(forDots: dots, language: navigator.language)
    }
}
