/// A label as a catalog writes it: plain text, or a key into the catalog's `strings` with
/// arguments (`{"key": "job.cell", "args": ["Designer", "Acme"]}`).
public enum LabelText: Sendable, Hashable {
    case plain(String)
    case localized(key: String, args: [String])
}

/// A format string's placeholders: `%@` (taken in order) and positional `%1$@`.
public enum StringFormat {
    /// Substitutes `args` into `format`. `%%` is a literal percent sign. A placeholder with no
    /// argument renders empty (validation reports it beforehand).
    public static func render(_ format: String, _ args: [String]) -> String {
        var out = ""
        var next = 0
        var chars = Array(format)[...]
        while let c = chars.first {
            chars = chars.dropFirst()
            guard c == "%" else { out.append(c); continue }
            if chars.first == "%" { out.append("%"); chars = chars.dropFirst(); continue }
            if chars.first == "@" {
                chars = chars.dropFirst()
                if next < args.count { out += args[next] }
                next += 1
                continue
            }
            // positional: digits, '$', '@'
            let digits = chars.prefix { $0.isASCII && $0.isNumber }
            let rest = chars.dropFirst(digits.count)
            if !digits.isEmpty, rest.first == "$", rest.dropFirst().first == "@", let n = Int(String(digits)), n >= 1 {
                if n - 1 < args.count { out += args[n - 1] }
                chars = rest.dropFirst(2)
                continue
            }
            out.append(c)
        }
        return out
    }

    /// How many arguments the format needs: the highest position used, or the count of `%@`.
    public static func argumentCount(_ format: String) -> Int {
        var sequential = 0
        var highest = 0
        var chars = Array(format)[...]
        while let c = chars.first {
            chars = chars.dropFirst()
            guard c == "%" else { continue }
            if chars.first == "%" { chars = chars.dropFirst(); continue }
            if chars.first == "@" { sequential += 1; chars = chars.dropFirst(); continue }
            let digits = chars.prefix { $0.isASCII && $0.isNumber }
            let rest = chars.dropFirst(digits.count)
            if !digits.isEmpty, rest.first == "$", rest.dropFirst().first == "@", let n = Int(String(digits)) {
                highest = max(highest, n)
                chars = rest.dropFirst(2)
            }
        }
        return max(sequential, highest)
    }
}
