/// A parsed JSON document as one flat array of small fixed-size entries (a "tape"), in
/// document order: a container's entry is followed by its contents, an object's members as a
/// key entry then the value's entries. Every entry knows its line, and a container the index
/// just past its last entry, so a reader skips a whole subtree in one step.
///
/// There is no tree of nodes: parsing a 100k-element catalog makes one array instead of
/// millions of boxed values, and freeing it is one `free`. Strings stay in the input bytes
/// until a reader asks for them; only those with escapes or non-ASCII text are made eagerly
/// (`decoded`), because they had to be checked or unescaped anyway.
final class JSONTape {
    enum Tag: UInt8 {
        case null, `false`, `true`, number
        /// ASCII text without escapes: `payload` is the byte offset (low 32 bits) and length.
        case bytes
        /// Any other string: `payload` is its index in `decoded`.
        case decoded
        /// `payload`: the count of items or members (low 32 bits) and the index past the end.
        case array, object
    }

    struct Entry {
        var payload: UInt64
        var line: UInt32
        var tag: Tag
    }

    /// The document's bytes, which `.bytes` strings point into.
    let bytes: [UInt8]
    private let entries: UnsafeMutablePointer<Entry>
    private let count: Int
    private let decoded: [String]

    init(bytes: [UInt8], entries: UnsafeMutablePointer<Entry>, count: Int, decoded: [String]) {
        self.bytes = bytes; self.entries = entries; self.count = count; self.decoded = decoded
    }

    deinit { entries.deallocate() }

    /// Runs `body` with a view of the tape, valid only inside `body`.
    func withView<R>(_ body: (View) -> R) -> R {
        decoded.withUnsafeBufferPointer { d in
            bytes.withUnsafeBufferPointer { b in
                body(View(entries: UnsafeBufferPointer(start: entries, count: count), decoded: d, bytes: b))
            }
        }
    }

    /// Reads the tape by index. Nothing in it is reference-counted, so passing it around
    /// costs nothing; every index comes from the parser, so the structure is sound.
    struct View {
        let entries: UnsafeBufferPointer<Entry>
        let decoded: UnsafeBufferPointer<String>
        /// The document's bytes, which `.bytes` strings point into.
        let bytes: UnsafeBufferPointer<UInt8>

        @inline(__always) func tag(_ i: Int) -> Tag { entries[i].tag }
        @inline(__always) func line(_ i: Int) -> Int { Int(entries[i].line) }
        @inline(__always) func count(_ i: Int) -> Int { Int(truncatingIfNeeded: entries[i].payload & 0xFFFF_FFFF) }

        /// The index just past the value at `i` and everything inside it.
        @inline(__always) func end(_ i: Int) -> Int {
            let e = entries[i]
            return e.tag.rawValue >= Tag.array.rawValue ? Int(truncatingIfNeeded: e.payload >> 32) : i + 1
        }

        @inline(__always) func number(_ i: Int) -> Double { Double(bitPattern: entries[i].payload) }

        /// A string entry (value or key) as a `String`.
        func string(_ i: Int) -> String {
            let e = entries[i]
            if e.tag == .decoded { return decoded[Int(truncatingIfNeeded: e.payload)] }
            let start = Int(truncatingIfNeeded: e.payload & 0xFFFF_FFFF)
            let n = Int(truncatingIfNeeded: e.payload >> 32)
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<start + n]), as: UTF8.self)
        }

        /// Whether the key entry `i` is `children` (written plainly: only a hint depends on it).
        @inline(__always) func isChildrenKey(_ i: Int) -> Bool {
            let e = entries[i]
            guard e.tag == .bytes, e.payload >> 32 == 8 else { return false }
            let at = Int(truncatingIfNeeded: e.payload & 0xFFFF_FFFF)
            let word = UnsafeRawPointer(bytes.baseAddress! + at).loadUnaligned(as: UInt64.self)
            return UInt64(littleEndian: word) == 0x6E65_7264_6C69_6863  // "children"
        }

        /// A short name of the value's type, for error messages ("a string", "an object").
        func typeName(_ i: Int) -> String {
            switch tag(i) {
            case .null: "null"
            case .false, .true: "a boolean"
            case .number: "a number"
            case .bytes, .decoded: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }
}

/// A fixed set of ASCII field names, matched against a tape's key entries without making a
/// `String` or hashing one: a small open-addressed table on the key's length and first and
/// last bytes, then one comparison of the bytes. Same answers as a `Set<String>` of the names
/// (escaped or non-ASCII keys are compared as strings).
struct FieldNames: @unchecked Sendable {
    // Immutable after `init`, and only ever held in `static let`s (never freed): safe to share.
    private let storage: UnsafeMutablePointer<UInt8>
    private let starts: UnsafeMutablePointer<Int>
    /// `tableSize` buckets, each a position in `names` or -1.
    private let table: UnsafeMutablePointer<Int8>
    private static let tableSize = 64
    let names: [String]

    init(_ names: [String]) {
        precondition(names.count < Self.tableSize / 2, "a small set of names")
        self.names = names
        let total = names.reduce(0) { $0 + $1.utf8.count }
        storage = .allocate(capacity: max(total, 1))
        starts = .allocate(capacity: names.count + 1)
        table = .allocate(capacity: Self.tableSize)
        table.initialize(repeating: -1, count: Self.tableSize)
        var at = 0
        for (i, name) in names.enumerated() {
            precondition(name.utf8.allSatisfy { $0 < 0x80 }, "field names are ASCII")
            starts[i] = at
            for b in name.utf8 { storage[at] = b; at += 1 }
            var h = Self.bucket(storage + starts[i], at - starts[i])
            while table[h] >= 0 { h = (h + 1) & (Self.tableSize - 1) }
            table[h] = Int8(i)
        }
        starts[names.count] = at
    }

    @inline(__always)
    private static func bucket(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        guard n > 0 else { return 0 }
        return (n &* 7 &+ Int(p[0]) &* 3 &+ Int(p[n - 1])) & (tableSize - 1)
    }

    /// The position in `names` of the key entry `i`, or `nil` for a key not in the set.
    @inline(__always)
    func slot(_ i: Int, _ tape: JSONTape.View) -> Int? {
        let e = tape.entries[i]
        guard e.tag == .bytes else { return slot(of: tape.string(i)) }
        let key = tape.bytes.baseAddress! + Int(truncatingIfNeeded: e.payload & 0xFFFF_FFFF)
        let n = Int(truncatingIfNeeded: e.payload >> 32)
        var h = Self.bucket(key, n)
        while true {
            let s = Int(table[h])
            if s < 0 { return nil }
            let a = starts[s]
            if starts[s + 1] - a == n {
                var k = 0
                while k < n && storage[a + k] == key[k] { k += 1 }
                if k == n { return s }
            }
            h = (h + 1) & (Self.tableSize - 1)
        }
    }

    private func slot(of key: String) -> Int? { names.firstIndex(of: key) }
}
