/// A strict JSON parser (RFC 8259) that records the line of every value.
///
/// Foundation's decoder reports neither lines nor paths, and Tandem's errors must name both;
/// the parser works on UTF-8 bytes and never traps on malformed input. It writes a flat
/// `JSONTape` (what the catalog decoder reads); `parse` builds a `JSONNode` tree from it.
public struct JSONParser {
    /// A syntax error at a line.
    public struct SyntaxError: Error, Sendable, Equatable {
        public let line: Int
        public let message: String
    }

    // State shared with `JSONParser+Strings.swift` is internal; everything else is private.
    // The parser reads through an unsafe buffer: no bounds or exclusivity checks on the hot path
    // (every access is guarded by an explicit `index < bytes.count`).
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var line = 1
    private var depth = 0
    /// Nesting deeper than this is refused rather than risking the stack.
    private static let maxDepth = 512

    // The tape being written: entries in a buffer grown by doubling, handed to a `JSONTape`.
    var out: UnsafeMutablePointer<JSONTape.Entry>
    private var count = 0
    private var capacity: Int
    var decoded: [String] = []

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // About one entry for every 8 to 9 bytes of a pretty-printed catalog; untouched capacity
        // costs address space, not memory.
        capacity = 16 + bytes.count / 5
        out = .allocate(capacity: capacity)
    }

    /// Parses one JSON document (surrounding white space allowed).
    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONNode {
        try tape(bytes).tree()
    }

    public static func parse(_ text: String) throws(SyntaxError) -> JSONNode {
        try parse(Array(text.utf8))
    }

    /// Parses one JSON document into a tape (the decoder's fast path).
    static func tape(_ bytes: [UInt8]) throws(SyntaxError) -> JSONTape {
        let result: Result<JSONTape, SyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            do throws(SyntaxError) {
                // Offsets, lengths and indices are 32-bit in the tape.
                guard buffer.count < Int(UInt32.max) else { throw parser.error("the document is larger than 4 GiB") }
                try parser.document()
            } catch {
                parser.out.deallocate()
                return .failure(error)
            }
            return .success(JSONTape(bytes: bytes, entries: parser.out, count: parser.count, decoded: parser.decoded))
        }
        return try result.get()
    }

    private mutating func document() throws(SyntaxError) {
        // A UTF-8 byte order mark is tolerated.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipSpace()
        try value()
        skipSpace()
        if index < bytes.count { throw error("unexpected \(describeCurrent()) after the JSON value") }
    }

    func error(_ message: String) -> SyntaxError { SyntaxError(line: line, message: message) }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        if b >= 0x21 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))'" }
        return "byte 0x\(String(b, radix: 16))"
    }

    @inline(__always)
    mutating func push(_ tag: JSONTape.Tag, _ payload: UInt64, line: Int) -> Int {
        if count == capacity {
            let bigger = UnsafeMutablePointer<JSONTape.Entry>.allocate(capacity: capacity * 2)
            bigger.moveInitialize(from: out, count: count)
            out.deallocate()
            out = bigger
            capacity *= 2
        }
        (out + count).initialize(to: JSONTape.Entry(payload: payload, line: UInt32(truncatingIfNeeded: line), tag: tag))
        count += 1
        return count - 1
    }

    /// Skips white space, counting lines. Between tokens there is often none: that case costs
    /// one comparison here, the rest is out of line.
    @inline(__always)
    private mutating func skipSpace() {
        if index < bytes.count && bytes[index] > 0x20 { return }
        skipSpaceRun()
    }

    private mutating func skipSpaceRun() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20:
                // Indentation: a run of spaces measured eight bytes at a time.
                guard index + 8 <= bytes.count else { index += 1; continue }
                let other = load8(index) ^ 0x2020_2020_2020_2020
                index += other == 0 ? 8 : other.trailingZeroBitCount >> 3
            case 0x0A: line += 1; index += 1
            case 0x09, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value() throws(SyntaxError) {
        guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "{"): try object()
        case UInt8(ascii: "["): try array()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let startLine = line
            _ = push(.number, try number().bitPattern, line: startLine)
        case UInt8(ascii: "t"): try literal("true"); _ = push(.true, 0, line: line)
        case UInt8(ascii: "f"): try literal("false"); _ = push(.false, 0, line: line)
        case UInt8(ascii: "n"): try literal("null"); _ = push(.null, 0, line: line)
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func literal(_ word: StaticString) throws(SyntaxError) {
        let n = word.utf8CodeUnitCount
        guard index + n <= bytes.count else { throw error("unexpected \(describeCurrent()), expected a value") }
        let w = word.utf8Start
        for i in 0..<n where bytes[index + i] != w[i] {
            throw error("unexpected \(describeCurrent()), expected a value")
        }
        index += n
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > Self.maxDepth { throw error("nesting deeper than \(Self.maxDepth) levels") }
    }

    /// Fills in a container's entry once its contents are on the tape.
    private mutating func close(_ at: Int, items: Int) {
        out[at].payload = UInt64(UInt32(truncatingIfNeeded: items)) | UInt64(count) << 32
    }

    private mutating func object() throws(SyntaxError) {
        let me = push(.object, 0, line: line)
        try enter()
        defer { depth -= 1 }
        index += 1
        var members = 0
        // Duplicate keys: a linear check while objects are small (most are), a set beyond that.
        var seen: Set<String>?
        var filter: UInt64 = 0
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            close(me, items: 0)
            return
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a string key")
            }
            let keyLine = line
            let key = try string()
            if isDuplicate(key, in: me, members: members, seen: &seen, filter: &filter) { throw SyntaxError(line: keyLine, message: "duplicate key \"\(keyString(key))\"") }
            members += 1
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()), expected ':' after key \"\(keyString(key))\"")
            }
            index += 1
            skipSpace()
            try value()
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of file, expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; break }
            throw error("unexpected \(describeCurrent()), expected ',' or '}'")
        }
        close(me, items: members)
    }

    private mutating func array() throws(SyntaxError) {
        let me = push(.array, 0, line: line)
        try enter()
        defer { depth -= 1 }
        index += 1
        var items = 0
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            close(me, items: 0)
            return
        }
        while true {
            skipSpace()
            try value()
            items += 1
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of file, expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; break }
            throw error("unexpected \(describeCurrent()), expected ',' or ']'")
        }
        close(me, items: items)
    }

    private mutating func number() throws(SyntaxError) -> Double {
        let start = index
        var integral = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.index
            while p.index < p.bytes.count, p.bytes[p.index] &- UInt8(ascii: "0") < 10 { p.index += 1 }
            return p.index - s
        }
        let intStart = index
        // The integer part's value as it is scanned (wrapping: only used for 15 digits or fewer).
        var v = 0
        while index < bytes.count {
            let d = bytes[index] &- UInt8(ascii: "0")
            guard d < 10 else { break }
            v = v &* 10 &+ Int(d)
            index += 1
        }
        let n = index - intStart
        if n == 0 { throw error("malformed number") }
        if n > 1 && bytes[intStart] == UInt8(ascii: "0") { throw error("malformed number: leading zero") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            if digits(&self) == 0 { throw error("malformed number: no digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            if digits(&self) == 0 { throw error("malformed number: no digits in exponent") }
        }
        // Integers of up to 15 digits (ids, frames, counts: nearly all) are exact as Doubles.
        if integral, index - start <= 16 {
            return Double(bytes[start] == UInt8(ascii: "-") ? -v : v)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("number \(text) is out of range") }
        return value
    }

}
