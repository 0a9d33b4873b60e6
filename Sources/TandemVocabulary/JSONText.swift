/// Writing JSON text the same way everywhere (transcripts, protocol messages): strings escaped
/// minimally (quotes, backslashes, control characters, U+2028/2029; everything else as
/// UTF-8, braille and Cyrillic included), numbers as integers when they are whole.
public enum JSONText {
    public static func quote(_ s: String) -> String {
        // Most text needs no escape: then it is copied whole, not scalar by scalar.
        if !needsEscape(s) { return "\"" + s + "\"" }
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if u.value < 0x20 || u.value == 0x7F {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    /// Whether `s` has anything `quote` escapes: a quote, a backslash, a control character,
    /// U+2028 or U+2029 (UTF-8 `E2 80 A8` / `E2 80 A9`; braille cells share the `E2` lead byte).
    static func needsEscape(_ s: String) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for b in s.utf8 {
            if b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F { return true }
            if previous == (0xE2, 0x80) && (b == 0xA8 || b == 0xA9) { return true }
            previous = (previous.1, b)
        }
        return false
    }

    public static func number(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 1e15 { return String(Int(n)) }
        return n.isFinite ? "\(n)" : "null"
    }
}
