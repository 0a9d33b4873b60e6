/// Strings and keys: scanning them (eight bytes at a time), unescaping, and the duplicate-key
/// check, which compares keys on the tape without making `String`s for plain ASCII ones.
extension JSONParser {
    /// The eight bytes at `i` as one little-endian word (the caller checks `i + 8 <= count`).
    @inline(__always)
    func load8(_ i: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + i).loadUnaligned(as: UInt64.self))
    }

    /// The index after the value at `i`, which is complete on the tape.
    @inline(__always)
    private func after(_ i: Int) -> Int {
        let e = out[i]
        return e.tag == .array || e.tag == .object ? Int(truncatingIfNeeded: e.payload >> 32) : i + 1
    }

    /// Whether one of the first `members` keys of the object being parsed at `object` equals
    /// the key at `key` (as `String`s), or, past 16 members, is in `seen`.
    ///
    /// `filter` has a bit set for each plain ASCII key so far (a hash of its length and its
    /// first and last bytes): a plain key whose bit is clear is new without comparing it to
    /// any. It is all ones once the object has a key that is not plain ASCII, which could
    /// equal a plain one as a string.
    @inline(__always)
    func isDuplicate(_ key: Int, in object: Int, members: Int, seen: inout Set<String>?, filter: inout UInt64) -> Bool {
        let e = out[key]
        if e.tag == .bytes {
            let n = Int(truncatingIfNeeded: e.payload >> 32)
            let p = Int(truncatingIfNeeded: e.payload & 0xFFFF_FFFF)
            let h = n == 0 ? 0 : (n &* 7 &+ Int(bytes[p]) &* 3 &+ Int(bytes[p + n - 1])) & 63
            let bit: UInt64 = 1 << h
            defer { filter |= bit }
            if filter & bit == 0 && members < 16 { return false }
        } else {
            filter = .max
        }
        return isDuplicate(key, in: object, members: members, seen: &seen)
    }

    private func isDuplicate(_ key: Int, in object: Int, members: Int, seen: inout Set<String>?) -> Bool {
        if members < 16 {
            var k = object + 1
            for _ in 0..<members {
                if sameKey(k, key) { return true }
                k = after(k + 1)
            }
            return false
        }
        if seen == nil {
            var keys = Set<String>()
            var k = object + 1
            for _ in 0..<members {
                keys.insert(keyString(k))
                k = after(k + 1)
            }
            seen = keys
        }
        return !seen!.insert(keyString(key)).inserted
    }

    /// The text of a string entry already on the tape.
    func keyString(_ i: Int) -> String {
        let e = out[i]
        if e.tag == .decoded { return decoded[Int(truncatingIfNeeded: e.payload)] }
        let start = Int(truncatingIfNeeded: e.payload & 0xFFFF_FFFF), n = Int(truncatingIfNeeded: e.payload >> 32)
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<start + n]), as: UTF8.self)
    }

    /// Whether two string entries are equal as `String`s: their bytes when both are plain
    /// ASCII, canonical equivalence otherwise.
    private func sameKey(_ i: Int, _ j: Int) -> Bool {
        let a = out[i], b = out[j]
        guard a.tag == .bytes && b.tag == .bytes else { return keyString(i) == keyString(j) }
        guard a.payload >> 32 == b.payload >> 32 else { return false }
        let p = Int(truncatingIfNeeded: a.payload & 0xFFFF_FFFF), q = Int(truncatingIfNeeded: b.payload & 0xFFFF_FFFF)
        for k in 0..<Int(truncatingIfNeeded: a.payload >> 32) where bytes[p + k] != bytes[q + k] { return false }
        return true
    }

    private mutating func hex4() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("malformed \\u escape")
            }
            v = v * 16 + d
            index += 1
        }
        return v
    }

    /// Reads a string (a value or a key) onto the tape and returns its entry's index.
    @discardableResult
    mutating func string() throws(SyntaxError) -> Int {
        index += 1  // opening quote
        // Fast path: no escapes — the string is the bytes up to the closing quote.
        let start = index
        var i = index
        var high: UInt8 = 0
        // Eight bytes at a time up to the first quote, backslash or control character.
        while i + 8 <= bytes.count {
            let w = load8(i)
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            let quote = w ^ (ones &* 0x22), backslash = w ^ (ones &* 0x5C)
            // The high bit of a byte ends up set where `quote` or `backslash` is zero or `w` is
            // below 0x20; bytes above such a byte may be flagged too, the lowest never wrongly.
            let special = (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((w &- ones &* 0x20) & ~w)) & highs
            if special == 0 {
                if w & highs != 0 { high = 0x80 }
                i += 8
                continue
            }
            let before = special.trailingZeroBitCount & ~7  // bits of the bytes before it
            if before > 0 && w & highs & (UInt64.max >> (64 - before)) != 0 { high = 0x80 }
            i += before >> 3
            break
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                index = i + 1
                if high < 0x80 {
                    return push(.bytes, UInt64(start) | UInt64(i - start) << 32, line: line)
                }
                guard let s = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self) else {
                    throw error("string is not valid UTF-8")
                }
                return pushDecoded(s)
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { break }
            high |= b
            i += 1
        }
        return pushDecoded(try escapedString())
    }

    private mutating func pushDecoded(_ s: String) -> Int {
        decoded.append(s)
        return push(.decoded, UInt64(decoded.count - 1), line: line)
    }

    /// The general case: escapes, and errors (control characters, a missing closing quote).
    private mutating func escapedString() throws(SyntaxError) -> String {
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated string") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in \\u escape")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default:
                    throw error("invalid escape '\\\(Character(UnicodeScalar(e)))'")
                }
            case 0x00...0x1F:
                if b == 0x0A { throw error("line break inside a string") }
                throw error("control character inside a string")
            default:
                out.append(b)
                index += 1
            }
        }
    }
}
