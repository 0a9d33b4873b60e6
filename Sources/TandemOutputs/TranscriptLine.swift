/// One JSON Lines record: fields in a fixed order (`t`, `ch`, then the channel's own), written
/// byte-for-byte the same on every run.
public struct TranscriptLine: Sendable, Hashable {
    public enum Value: Sendable, Hashable {
        case string(String)
        case int(Int)
        case bool(Bool)
    }

    public var fields: [(String, Value)] {
        get { storage.map { ($0.key, $0.value) } }
        set { storage = newValue.map { Field(key: $0.0, value: $0.1) } }
    }

    struct Field: Sendable, Hashable { let key: String; let value: Value }
    var storage: [Field]

    public init(_ fields: [(String, Value)]) { storage = fields.map { Field(key: $0.0, value: $0.1) } }

    public subscript(key: String) -> Value? { storage.first { $0.key == key }?.value }

    public func string(_ key: String) -> String? {
        if case .string(let s)? = self[key] { return s }
        return nil
    }

    public func int(_ key: String) -> Int? {
        if case .int(let i)? = self[key] { return i }
        return nil
    }

    /// The line as compact JSON, without the newline.
    public var json: String {
        var out = "{"
        for (i, f) in storage.enumerated() {
            if i > 0 { out += "," }
            out += Self.quote(f.key) + ":"
            switch f.value {
            case .string(let s): out += Self.quote(s)
            case .int(let n): out += String(n)
            case .bool(let b): out += b ? "true" : "false"
            }
        }
        return out + "}"
    }

    /// JSON string escaping: quotes, backslashes and control characters; everything else
    /// (including braille and Cyrillic) as UTF-8.
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
}
