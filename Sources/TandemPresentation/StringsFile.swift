/// A `.strings` file as iOS localizers write it: `"key" = "value";` entries, each after an
/// optional `/* comment */` saying what it is; `//` line comments; the escapes `\"`, `\\`,
/// `\n`, `\t`, `\r` and `\U` or `\u` with four hex digits.
///
/// Parsed from bytes in pure Swift (the language tables are embedded in the binary, so
/// nothing is read from disk at run time). A problem does not stop the parse: the entries
/// before and after it are kept, and the problem is listed with its line.
public struct StringsFile: Sendable {
    public struct Entry: Sendable, Hashable {
        public var key: String
        public var value: String
        /// The comment just before the entry, trimmed; empty when there is none.
        public var comment: String
        public var line: Int
    }

    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    public private(set) var entries: [Entry] = []
    public private(set) var problems: [Problem] = []

    /// Key → value; the first of duplicated keys wins (a duplicate is a problem).
    public var table: [String: String] {
        var t: [String: String] = [:]
        for e in entries where t[e.key] == nil { t[e.key] = e.value }
        return t
    }

    public init(bytes: [UInt8]) {
        var scanner = Scanner(bytes: bytes)
        var seen: [String: Int] = [:]
        while true {
            let comment = scanner.skipSpaceAndComments()
            guard !scanner.atEnd else { break }
            let line = scanner.line
            do {
                let key = try scanner.quoted()
                _ = scanner.skipSpaceAndComments()
                try scanner.expect(UInt8(ascii: "="))
                _ = scanner.skipSpaceAndComments()
                let value = try scanner.quoted()
                _ = scanner.skipSpaceAndComments()
                try scanner.expect(UInt8(ascii: ";"))
                if let first = seen[key] {
                    problems.append(Problem(line: line, message: "duplicate key \"\(key)\" (first at line \(first))"))
                    continue
                }
                seen[key] = line
                entries.append(Entry(key: key, value: value, comment: comment, line: line))
            } catch {
                problems.append(error)
                scanner.skipPastSemicolon()
            }
        }
    }
}

extension StringsFile.Problem: Error {}

/// A cursor over the bytes of a `.strings` file.
private struct Scanner {
    let bytes: [UInt8]
    var at = 0
    var line = 1

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is allowed and ignored.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
    }

    var atEnd: Bool { at >= bytes.count }

    mutating func advance() {
        if bytes[at] == UInt8(ascii: "\n") { line += 1 }
        at += 1
    }

    func peek(_ offset: Int = 0) -> UInt8? { at + offset < bytes.count ? bytes[at + offset] : nil }

    /// Skips white space and comments; returns the text of the last block comment skipped.
    mutating func skipSpaceAndComments() -> String {
        var comment = ""
        while let c = peek() {
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                advance()
            } else if c == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                advance(); advance()
                let start = at
                while !atEnd, !(bytes[at] == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/")) { advance() }
                comment = String(decoding: bytes[start..<min(at, bytes.count)], as: UTF8.self)
                    .split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }.joined(separator: " ")
                    .trimmingSpaces()
                if !atEnd { advance(); advance() }
            } else if c == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") {
                while let d = peek(), d != 0x0A { _ = d; advance() }
            } else {
                break
            }
        }
        return comment
    }

    mutating func expect(_ byte: UInt8) throws(StringsFile.Problem) {
        guard peek() == byte else {
            throw StringsFile.Problem(line: line, message: "expected \"\(Character(Unicode.Scalar(byte)))\", found \(describe(peek()))")
        }
        advance()
    }

    func describe(_ byte: UInt8?) -> String {
        guard let b = byte else { return "the end of the file" }
        if b == UInt8(ascii: "\"") { return "a quote" }
        if b >= 0x21 && b < 0x7F { return "\"\(Character(Unicode.Scalar(b)))\"" }
        return b == 0x0A ? "the end of the line" : "byte \(b)"
    }

    /// A double-quoted string with its escapes resolved.
    mutating func quoted() throws(StringsFile.Problem) -> String {
        let startLine = line
        try expect(UInt8(ascii: "\""))
        var out: [UInt8] = []
        while true {
            guard let c = peek() else {
                throw StringsFile.Problem(line: startLine, message: "a string that is never closed")
            }
            advance()
            if c == UInt8(ascii: "\"") { break }
            guard c == UInt8(ascii: "\\") else { out.append(c); continue }
            guard let e = peek() else { continue }
            advance()
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "'"): out.append(e)
            case UInt8(ascii: "U"), UInt8(ascii: "u"):
                var v: UInt32 = 0
                for _ in 0..<4 {
                    guard let h = peek(), let d = hexValue(h) else {
                        throw StringsFile.Problem(line: line, message: "\\U needs four hex digits")
                    }
                    v = v * 16 + d
                    advance()
                }
                guard let scalar = Unicode.Scalar(v) else {
                    throw StringsFile.Problem(line: line, message: "\\U\(String(v, radix: 16)) is not a character")
                }
                out += Array(String(Character(scalar)).utf8)
            default:
                throw StringsFile.Problem(line: line, message: "unknown escape \\\(Character(Unicode.Scalar(e)))")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// After a problem: go on after the next `;` (or at the end).
    mutating func skipPastSemicolon() {
        while let c = peek() {
            advance()
            if c == UInt8(ascii: ";") { return }
        }
    }
}

private extension StringProtocol {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
