import TandemNavigator
import TandemPresentation
import TandemVocabulary

/// What a key is bound to: a command, or (for `tandem run`'s terminal) leaving the session.
public enum KeyBinding: Sendable, Hashable {
    /// A command. One that takes an argument (`route`) gets the key's own (the routing key's cell).
    case command(Command)
    case quit

    /// Parses a binding as a profile writes it: a command name from `Command.table` (a command
    /// that takes an argument is written bare: `route`), or `quit`.
    public init?(name: String) {
        if name == "quit" { self = .quit; return }
        // A key carries no text: `type` is for scenarios, the socket and `tandem ctl`.
        if Command.info(named: name)?.takesText == true { return nil }
        if let info = Command.info(named: name), info.argument != nil {
            self = .command(info.command())
        } else if let c = Command(name: name) {
            self = .command(c)
        } else {
            return nil
        }
    }

    /// As a profile writes it.
    public var name: String {
        switch self {
        case .quit: "quit"
        case .command(let c): c.info.argument == nil ? c.name : c.info.name
        }
    }

    /// Whether the binding takes the key's argument.
    var takesArgument: Bool {
        if case .command(let c) = self { return c.info.argument != nil }
        return false
    }
}

/// Binds BRLTTY command names (and, for `tandem run`, terminal keys) to Tandem commands, so
/// that BRLTTY's own key tables handle each display's hardware (NVDA's way).
public struct KeyMap: Sendable, Hashable {
    /// BRLTTY command name (upper case, as `brltty-ctb`/BrlAPI name them) → binding.
    public var braille: [String: KeyBinding]
    /// Terminal key name (`TerminalKey.description`) → binding.
    public var terminal: [String: KeyBinding]

    public init(braille: [String: KeyBinding], terminal: [String: KeyBinding] = KeyMap.defaultTerminal) {
        self.braille = braille
        self.terminal = terminal
    }

    /// Builds bindings from names; every name must be a command or `quit` (a programming
    /// error otherwise: profiles are checked when they are decoded).
    static func bindings(_ names: [String: String]) -> [String: KeyBinding] {
        names.mapValues { KeyBinding(name: $0)! }
    }

    /// The default terminal map for `tandem run` (documented in Docs/keymaps.md): arrows move
    /// and adjust, Home/End jump, Enter/Space activate, letters for the rest.
    public static let defaultTerminal = bindings([
        "right": "next", "left": "previous", "up": "increment", "down": "decrement",
        "home": "first", "end": "last", "enter": "activate", "space": "activate",
        "tab": "action-next", "shift-tab": "action-previous",
        "m": "magic-tap", "escape": "escape", "backspace": "escape",
        "h": "next-heading", "H": "previous-heading",
        "a": "read-all", "A": "read-from-top", "r": "repeat", "l": "spell", "s": "stop",
        "page-up": "scroll-up", "page-down": "scroll-down",
        "<": "pan-left", ">": "pan-right",
        "[": "history-previous", "]": "history-next",
        "+": "rate-up", "-": "rate-down", "p": "punctuation", "v": "verbosity",
        "!": "mark", "?": "help", "f1": "help",
        "q": "quit", "ctrl-d": "quit",
    ])

    /// What a terminal key does, if it is bound.
    public func terminalAction(_ key: TerminalKey) -> KeyBinding? {
        terminal[key.description]
    }

    /// The help key's text in `phrases`' language: every terminal binding, grouped by command
    /// in the command table's order (key names stay as the keyboard has them).
    public func terminalHelp(_ phrases: Phrases) -> String {
        var parts: [String] = []
        for info in Command.table {
            let keys = terminal.filter { $0.value.name == info.name }.map(\.key).sorted()
            if !keys.isEmpty { parts.append("\(keys.joined(separator: " \(phrases.or) ")): \(phrases.commandSummary(info.name) ?? info.summary)") }
        }
        let quit = terminal.filter { $0.value == .quit }.map(\.key).sorted()
        if !quit.isEmpty { parts.append("\(quit.joined(separator: " \(phrases.or) ")): \(phrases.commandSummary("quit") ?? "quit")") }
        return parts.joined(separator: ". ")
    }

    /// The help text for a braille user: every display binding (BRLTTY command names, which the
    /// display's own key table turns into keys), grouped by command in the command table's order.
    public func brailleHelp(_ phrases: Phrases) -> String {
        var parts: [String] = []
        for info in Command.table {
            let keys = braille.filter { $0.value.name == info.name }.map(\.key).sorted()
            if !keys.isEmpty { parts.append("\(keys.joined(separator: " \(phrases.or) ")): \(phrases.commandSummary(info.name) ?? info.summary)") }
        }
        return parts.joined(separator: ". ")
    }

    /// The default braille map (documented in Docs/keymaps.md).
    public static let `default` = KeyMap(braille: bindings([
        "LNUP": "previous", "LNDN": "next",
        "TOP": "first", "BOT": "last",
        "FWINLT": "pan-left", "FWINRT": "pan-right",
        "ROUTE": "route",
        "PRDIFLN": "previous-heading", "NXDIFLN": "next-heading",
        "HOME": "activate",
        "CSRTRK": "repeat",
        "SAY_LINE": "repeat", "SAY_BELOW": "read-all", "SAY_ABOVE": "read-from-top", "MUTE": "stop",
        "KEY_ENTER": "activate", "KEY_ESCAPE": "escape",
        "KEY_CURSOR_UP": "increment", "KEY_CURSOR_DOWN": "decrement",
        "KEY_TAB": "action-next", "KEY_BACKSPACE": "action-previous",
        "KEY_HOME": "magic-tap", "KEY_END": "spell",
        // The tester's tools, so a braille-only user needs no keyboard: BRLTTY's own help key,
        // its prompt history for the speech history, its mark for the mark.
        "HELP": "help", "PRPROMPT": "history-previous", "NXPROMPT": "history-next", "SETMARK": "mark",
        // SETMARK is a routing-key command some drivers (BRLTTY 6.5's virtual one) do not
        // know; CLIP_NEW (a routing key with a modifier on every display's table; Tandem has no
        // clipboard) marks too. The rate keys set speech's pace and read-all's on the display.
        "CLIP_NEW": "mark", "SAY_SLOWER": "rate-down", "SAY_FASTER": "rate-up",
        // Spell needs no braille keyboard: BRLTTY's describe-character routing command spells.
        "DESCCHAR": "spell",
    ]))

    /// The command bound to a BRLTTY command, if any (unbound keys pass back to BRLTTY). A
    /// binding that takes an argument needs the key's (`ROUTE` without a cell does nothing).
    public func command(forBrailleCommand name: String, argument: Int?) -> Command? {
        guard case .command(let c)? = braille[name.uppercased()] else { return nil }
        guard c.info.argument != nil else { return c }
        return argument.map { c.info.command(argument: $0) }
    }
}
