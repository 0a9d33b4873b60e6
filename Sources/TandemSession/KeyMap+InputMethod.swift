import TandemPresentation
import TandemVocabulary

extension KeyMap {
    /// The keys hints name for `method` (nil for touch: gestures). Of several keys bound to one
    /// command, the first of `namedKeyOrder`, else the first by name.
    public func hintKeys(for method: InputMethod) -> HintKeys? {
        let table: [String: KeyBinding]
        switch method {
        case .touch: return nil
        case .keyboard: table = terminal
        case .braille: table = braille
        }
        func key(_ command: Command) -> String? {
            let names = table.filter { $0.value == .command(command) }.map { Self.hintName(ofKey: $0.key) }
            return names.min { a, b in
                let (ra, rb) = (Self.namedKeyOrder.firstIndex(of: a) ?? Int.max, Self.namedKeyOrder.firstIndex(of: b) ?? Int.max)
                return ra != rb ? ra < rb : a < b
            }
        }
        return HintKeys(activate: key(.activate), increment: key(.increment), decrement: key(.decrement))
    }

    /// The keys a hint prefers, in order: those a keyboard labels (each has a `key.NAME` phrase).
    static let namedKeyOrder = ["enter", "space", "up", "down", "right", "left", "home", "end", "tab", "shift-tab",
                                "escape", "backspace", "delete", "page-up", "page-down"]

    /// A key as a hint names it: a terminal key as written; a display's `KEY_*` command as the
    /// keyboard key it stands for (`KEY_CURSOR_UP` is `up`); other BRLTTY commands as written.
    static func hintName(ofKey key: String) -> String {
        let braille: [String: String] = [
            "KEY_ENTER": "enter", "KEY_TAB": "tab", "KEY_BACKSPACE": "backspace", "KEY_ESCAPE": "escape",
            "KEY_CURSOR_LEFT": "left", "KEY_CURSOR_RIGHT": "right", "KEY_CURSOR_UP": "up", "KEY_CURSOR_DOWN": "down",
            "KEY_PAGE_UP": "page-up", "KEY_PAGE_DOWN": "page-down", "KEY_HOME": "home", "KEY_END": "end",
            "KEY_DELETE": "delete",
        ]
        return braille[key] ?? key
    }

    /// What a terminal key types while the user types into a text field: a printable character
    /// or Space types itself, Backspace deletes the character before the insertion point,
    /// Ctrl-U clears the field (as in a shell). nil: the key does what the map binds it to.
    public static func typingCommand(forTerminalKey key: TerminalKey) -> Command? {
        switch key {
        case .character(let c): .type(String(c))
        case .space: .type(" ")
        case .backspace: .deleteBackward
        case .control("u"): .clearText
        default: nil
        }
    }

    /// What a display key types while the user types into a text field: its Backspace deletes.
    public static func typingCommand(forBrailleCommand name: String) -> Command? {
        name.uppercased() == "KEY_BACKSPACE" ? .deleteBackward : nil
    }

    /// BRLTTY's commands for typing on a display's braille keyboard, taken by Tandem whatever
    /// the map says: `PASSCHAR` (a typed character, the code point as argument) and `PASSDOTS`
    /// (a chord, its dots as argument; read in the language's computer braille).
    public static let typingCommands: Set<String> = ["PASSCHAR", "PASSDOTS"]
}
