import CBrlAPI

/// BrlAPI key codes ↔ BRLTTY command names (`LNDN`, `ROUTE`, `KEY_ENTER`), for a client in
/// command mode (TTY mode with driver NULL), where a display key arrives as the BRLTTY command
/// its key table binds it to.
///
/// Plain commands come as `TYPE_CMD | command` and are named as BrlAPI's own key table names
/// them (`brlapi_describeKeyCode`); block commands (`ROUTE`, `CLIP_NEW`, …) carry an argument,
/// the routing key's 0-based cell. BRLTTY's `KEY_*` commands arrive as X keysyms, so those
/// names come from a small table here.
public enum BrailleKeyCodes {
    /// How BrlAPI should match a code when keys are accepted or ignored.
    public enum Match: Sendable, Hashable {
        /// That key, whatever its flags (a plain command or a keysym).
        case key
        /// The whole command block, every argument (`ROUTE` with any cell).
        case block
        /// Every character a braille keyboard types (`PASSCHAR`): the keysyms of Latin-1's
        /// printable characters and of Unicode's (BrlAPI's `0x1000000 | code point`).
        case characters
    }

    /// BRLTTY's command for a typed character; BrlAPI delivers it as the character's keysym,
    /// reported here as `PASSCHAR` with the code point as argument (Docs/keymaps.md#typing).
    public static let typedCharacter = "PASSCHAR"

    /// The keysym ranges `Match.characters` accepts (any modifier flags).
    static let characterRanges: [(first: UInt64, last: UInt64)] = [
        (CBRLAPI_KEY_TYPE_SYM | 0x20, CBRLAPI_KEY_FLAGS_MASK | CBRLAPI_KEY_TYPE_SYM | 0xFF),
        (CBRLAPI_KEY_TYPE_SYM | 0x0100_0000, CBRLAPI_KEY_FLAGS_MASK | CBRLAPI_KEY_TYPE_SYM | 0x010F_FFFF),
    ]

    /// BRLTTY's `KEY_*` commands and the keysyms BrlAPI delivers for them.
    static let keysyms: [(name: String, sym: brlapi_keyCode_t)] = [
        ("KEY_ENTER", CBRLAPI_KEY_SYM_LINEFEED), ("KEY_TAB", CBRLAPI_KEY_SYM_TAB),
        ("KEY_BACKSPACE", CBRLAPI_KEY_SYM_BACKSPACE), ("KEY_ESCAPE", CBRLAPI_KEY_SYM_ESCAPE),
        ("KEY_CURSOR_LEFT", CBRLAPI_KEY_SYM_LEFT), ("KEY_CURSOR_RIGHT", CBRLAPI_KEY_SYM_RIGHT),
        ("KEY_CURSOR_UP", CBRLAPI_KEY_SYM_UP), ("KEY_CURSOR_DOWN", CBRLAPI_KEY_SYM_DOWN),
        ("KEY_PAGE_UP", CBRLAPI_KEY_SYM_PAGE_UP), ("KEY_PAGE_DOWN", CBRLAPI_KEY_SYM_PAGE_DOWN),
        ("KEY_HOME", CBRLAPI_KEY_SYM_HOME), ("KEY_END", CBRLAPI_KEY_SYM_END),
        ("KEY_INSERT", CBRLAPI_KEY_SYM_INSERT), ("KEY_DELETE", CBRLAPI_KEY_SYM_DELETE),
    ]

    /// Function keys F1…F35 are `KEY_FUNCTION` with the 0-based key number as argument.
    static let functionKeyCount: brlapi_keyCode_t = 35

    /// Every command BrlAPI can name: plain commands (block 0) and block commands (argument 0),
    /// found by asking BrlAPI itself, so the names always match the library's.
    static let commands: [String: (code: brlapi_keyCode_t, match: Match)] = {
        var out: [String: (code: brlapi_keyCode_t, match: Match)] = [:]
        func add(_ code: brlapi_keyCode_t, _ match: Match) {
            var described = brlapi_describedKeyCode_t()
            guard brlapi_describeKeyCode(code, &described) == 0, let c = described.command else { return }
            let name = String(cString: c)
            if out[name] == nil { out[name] = (code, match) }
        }
        for n in 0..<256 { add(cbrlapi_key_cmd(0) | brlapi_keyCode_t(n), .key) }
        for block in 1..<64 { add(cbrlapi_key_cmd(UInt32(block)), .block) }
        return out
    }()

    /// The code to accept for a BRLTTY command name (case-insensitive), or nil when BrlAPI
    /// has no such command.
    public static func code(forCommand name: String) -> (code: UInt64, match: Match)? {
        let upper = name.uppercased()
        if upper == typedCharacter { return (0, .characters) }
        if let k = keysyms.first(where: { $0.name == upper }) { return (CBRLAPI_KEY_TYPE_SYM | k.sym, .key) }
        if let c = commands[upper], c.code != cbrlapi_key_cmd(0) { return (c.code, c.match) }
        return nil
    }

    /// The BRLTTY command a key code stands for: its name and, for block commands and
    /// function keys, the argument. Nil for codes no name is known for (typed characters).
    public static func command(for code: UInt64) -> (name: String, argument: Int?)? {
        let code = code & ~CBRLAPI_KEY_FLAGS_MASK
        switch code & CBRLAPI_KEY_TYPE_MASK {
        case CBRLAPI_KEY_TYPE_SYM:
            let sym = code & CBRLAPI_KEY_CODE_MASK
            if let k = keysyms.first(where: { $0.sym == sym }) { return (k.name, nil) }
            if sym >= CBRLAPI_KEY_SYM_FUNCTION, sym < CBRLAPI_KEY_SYM_FUNCTION + functionKeyCount {
                return ("KEY_FUNCTION", Int(sym - CBRLAPI_KEY_SYM_FUNCTION))
            }
            // A typed character: Latin-1's keysym is its code point; others are 0x1000000 | it.
            if (0x20...0xFF).contains(sym), sym != 0x7F { return (typedCharacter, Int(sym)) }
            if sym & 0xFF00_0000 == 0x0100_0000 { return (typedCharacter, Int(sym & 0x00FF_FFFF)) }
            return nil
        case CBRLAPI_KEY_TYPE_CMD:
            var described = brlapi_describedKeyCode_t()
            guard brlapi_describeKeyCode(code, &described) == 0, let c = described.command else { return nil }
            let isBlock = code & CBRLAPI_KEY_CMD_BLK_MASK != 0
            return (String(cString: c), isBlock ? Int(described.argument) : nil)
        default:
            return nil
        }
    }
}
