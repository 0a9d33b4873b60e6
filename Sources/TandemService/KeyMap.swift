import TandemNavigator

/// Binds BRLTTY command names (and, for `tandem run`, terminal keys) to Tandem commands, so
/// that BRLTTY's own key tables handle each display's hardware (NVDA's way).
public struct KeyMap: Sendable, Hashable {
    /// BRLTTY command name (upper case, as `brltty-ctb`/BrlAPI name them) → command name.
    public var braille: [String: String]

    public init(braille: [String: String]) { self.braille = braille }

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
