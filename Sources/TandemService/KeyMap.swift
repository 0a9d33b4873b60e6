import TandemNavigator

/// What a terminal key does in `tandem run`.
public enum TerminalAction: Sendable, Hashable {
    case command(Command)
    case quit
}

/// Binds BRLTTY command names (and, for `tandem run`, terminal keys) to Tandem commands, so
/// that BRLTTY's own key tables handle each display's hardware (NVDA's way).
public struct KeyMap: Sendable, Hashable {
    /// BRLTTY command name (upper case, as `brltty-ctb`/BrlAPI name them) → command name.
    public var braille: [String: String]
    /// Terminal key name (`TerminalKey.description`) → command name, or `quit`.
    public var terminal: [String: String]

    public init(braille: [String: String], terminal: [String: String] = KeyMap.defaultTerminal) {
        self.braille = braille
        self.terminal = terminal
    }

    /// The default terminal map for `tandem run` (documented in Docs/keymaps.md): arrows move
    /// and adjust, Home/End jump, Enter/Space activate, letters for the rest.
    public static let defaultTerminal: [String: String] = [
        "right": "next", "left": "previous", "up": "increment", "down": "decrement",
        "home": "first", "end": "last", "enter": "activate", "space": "activate",
        "tab": "action-next", "shift-tab": "action-previous",
        "m": "magic-tap", "escape": "escape", "backspace": "escape",
        "h": "next-heading", "H": "previous-heading",
        "a": "read-all", "r": "repeat", "l": "spell", "s": "stop",
        "page-up": "scroll-up", "page-down": "scroll-down",
        "<": "pan-left", ">": "pan-right",
        "[": "history-previous", "]": "history-next",
        "+": "rate-up", "-": "rate-down", "p": "punctuation", "v": "verbosity",
        "!": "mark", "?": "help", "f1": "help",
        "q": "quit", "ctrl-d": "quit",
    ]

    /// What a terminal key does: a command, `nil` for quit, or no binding at all.
    public func terminalAction(_ key: TerminalKey) -> TerminalAction? {
        guard let bound = terminal[key.description] else { return nil }
        if bound == "quit" { return .quit }
        return Command(name: bound).map { .command($0) }
    }

    /// The help key's text: every terminal binding, grouped by command in the command table's order.
    public var terminalHelp: String {
        var parts: [String] = []
        for (name, summary) in Command.table {
            let keys = terminal.filter { $0.value == name }.map(\.key).sorted()
            if !keys.isEmpty { parts.append("\(keys.joined(separator: " or ")): \(summary)") }
        }
        let quit = terminal.filter { $0.value == "quit" }.map(\.key).sorted()
        if !quit.isEmpty { parts.append("\(quit.joined(separator: " or ")): quit") }
        return parts.joined(separator: ". ")
    }

    /// The default braille map (documented in Docs/keymaps.md).
    public static let `default` = KeyMap(braille: [
        "LNUP": "previous", "LNDN": "next",
        "TOP": "first", "BOT": "last",
        "FWINLT": "pan-left", "FWINRT": "pan-right",
        "ROUTE": "route",
        "PRDIFLN": "previous-heading", "NXDIFLN": "next-heading",
        "HOME": "activate",
        "CSRTRK": "repeat",
        "SAY_LINE": "repeat", "SAY_BELOW": "read-all", "MUTE": "stop",
        "KEY_ENTER": "activate", "KEY_ESCAPE": "escape",
        "KEY_CURSOR_UP": "increment", "KEY_CURSOR_DOWN": "decrement",
        "KEY_TAB": "action-next", "KEY_BACKSPACE": "action-previous",
        "KEY_HOME": "magic-tap", "KEY_END": "spell",
    ])

    /// The command bound to a BRLTTY command, if any (unbound keys pass back to BRLTTY).
    public func command(forBrailleCommand name: String, argument: Int?) -> Command? {
        guard let bound = braille[name.uppercased()] else { return nil }
        if bound == "route" { return argument.map { .route($0) } }
        return Command(name: bound)
    }
}
