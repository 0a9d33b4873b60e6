/// A page source as the rules read it: its elements in a flat table in document order (an
/// element's subtree is the run of rows from it to `end`), each with its tag, place and the
/// spans of its attributes in the file's bytes. One table, not a tree of values: the rules walk
/// it by index and resolve each element's attributes once (`AndroidFacts`, `IOSFacts`). A class:
/// the rules hold it and pass it around without copying its arrays.
final class PageTree {
    let file: String
    let bytes: [UInt8]
    /// The attributes' spans (`XMLScanner.spans`, in memory `table` keeps).
    let spans: UnsafeBufferPointer<AttributeSpan>
    private let table: SpanTable
    // Constants once read (`let`: a class's `var`s would be checked for exclusive access on every
    // read), each column where the reader wrote it (`ElementColumns`, in memory `table` keeps).
    /// Each element's tag: an index into `tagNames` (a page has a few distinct tags).
    let tagOf: UnsafeBufferPointer<Int32>
    let tagNames: [String]
    let lines: UnsafeBufferPointer<UInt32>
    let columns: UnsafeBufferPointer<UInt32>
    /// The first row after each element's subtree: its first child is the next row when that is
    /// before `end`, and a child's next sibling is at the child's `end`.
    let end: UnsafeBufferPointer<Int32>
    /// The element each element is in (-1 for the root).
    let parents: UnsafeBufferPointer<Int32>
    let attributes: UnsafeBufferPointer<Range<Int32>>
    /// Whether element `i`'s attribute names are those of the previous element with the same
    /// `slot`, in the same order (`XMLScanner.Row.sameNames`).
    let sameNames: UnsafeBufferPointer<Bool>
    /// The attributes of element `i` (of its first 64, as bits) that are, name and value, the
    /// text attribute `k` of element `template[i]` had (`XMLScanner.Row.copied`).
    let copied: UnsafeBufferPointer<UInt64>
    let template: UnsafeBufferPointer<Int32>

    var count: Int { tagOf.count }

    /// Element `i`'s tag's slot (`sameNames`): its tag for the first 64 tags, else 64.
    @inline(__always) func slot(_ i: Int) -> Int { SpanTable.slot(tagOf[i]) }

    /// Element `i`'s tag.
    func tag(_ i: Int) -> String { tagNames[Int(tagOf[i])] }

    /// Reads `data` with `XMLScanner` (the same refusals and places as `PageSourceReader.read`).
    init(_ data: [UInt8], file: String) throws(ImportError) {
        var scanner = XMLScanner(file: file)
        do {
            try data.withUnsafeBufferPointer { (d) throws(ImportError) in try scanner.scan(d) }
        }
        self.file = file
        bytes = data
        spans = scanner.spans
        table = scanner.table
        let rows = scanner.rows
        let n = scanner.count
        tagOf = UnsafeBufferPointer(start: rows.tag, count: n)
        tagNames = scanner.tagNames
        lines = UnsafeBufferPointer(start: rows.line, count: n)
        columns = UnsafeBufferPointer(start: rows.column, count: n)
        end = UnsafeBufferPointer(start: rows.end, count: n)
        parents = UnsafeBufferPointer(start: rows.parent, count: n)
        attributes = UnsafeBufferPointer(start: rows.attributes, count: n)
        sameNames = UnsafeBufferPointer(start: rows.sameNames, count: n)
        copied = UnsafeBufferPointer(start: rows.copied, count: n)
        template = UnsafeBufferPointer(start: rows.template, count: n)
    }

    func location(_ i: Int) -> SourceLocation {
        SourceLocation(file: file, line: Int(lines[i]), column: Int(columns[i]))
    }

    /// The children of element `i`, in order.
    func children(_ i: Int) -> Children { Children(end: end, first: i + 1, stop: Int(end[i])) }

    struct Children: Sequence, IteratorProtocol {
        let end: UnsafeBufferPointer<Int32>
        var first: Int
        let stop: Int
        mutating func next() -> Int? {
            guard first < stop else { return nil }
            defer { first = Int(end[first]) }
            return first
        }
    }

    func hasChildren(_ i: Int) -> Bool { Int(end[i]) > i + 1 }

    // MARK: Attributes

    /// The span of attribute `name` of element `i`, looked up by name: for the few attributes
    /// read once a screen (the root's `width`), not for the rules' per-element reads.
    func span(_ i: Int, named name: StaticString) -> Int? {
        bytes.withUnsafeBufferPointer { d in
            for s in attributes[i] where Self.name(d, spans[Int(s)], is: name) { return Int(s) }
            return nil
        }
    }

    /// Whether the attribute's name is `name`.
    @inline(__always)
    static func name(_ d: UnsafeBufferPointer<UInt8>, _ s: AttributeSpan, is name: StaticString) -> Bool {
        let from = Int(s.nameFrom), count = Int(s.nameTo) - from
        guard count == name.utf8CodeUnitCount else { return false }
        let p = name.utf8Start
        for k in 0..<count where d[from + k] != p[k] { return false }
        return true
    }

    /// A name as the rules tell names apart: its length, its first eight bytes (zeros after a
    /// shorter name) and its last eight (zero for a name of eight or fewer). Two names with the
    /// same key are the same name.
    struct NameKey: Equatable {
        var count: Int
        var first: UInt64
        var last: UInt64

        /// A key written out (`AndroidFacts.Names`, `IOSFacts.Names`).
        @inline(__always)
        init(count: Int, first: UInt64, last: UInt64) { self.count = count; self.first = first; self.last = last }

        init(_ name: StaticString) {
            count = name.utf8CodeUnitCount
            let p = name.utf8Start
            first = 0; last = 0
            for k in 0..<min(count, 8) { first |= UInt64(p[k]) << UInt64(8 * k) }
            if count > 8 { for k in 0..<8 { last |= UInt64(p[count - 8 + k]) << UInt64(8 * k) } }
        }

        /// The key of the attribute name at `s` in `d`.
        @inline(__always)
        init(_ d: UnsafeBufferPointer<UInt8>, _ s: AttributeSpan) {
            let from = Int(s.nameFrom), to = Int(s.nameTo)
            count = to - from
            if from + 8 <= d.count {
                first = XMLScanner.word(d, from)
                if count < 8 { first &= (1 << UInt64(count * 8)) &- 1 }
            } else {
                first = 0
                for k in 0..<min(count, 8) { first |= UInt64(d[from + k]) << UInt64(8 * k) }
            }
            last = count > 8 ? XMLScanner.word(d, to - 8) : 0
        }
    }

    /// `isTrue` for a value in `d`, without going through the page's arrays.
    @inline(__always)
    func isTrue(_ d: UnsafeBufferPointer<UInt8>, _ s: AttributeSpan, _ span: Int) -> Bool {
        if s.raw { return isTrue(span) }
        let from = Int(s.valueFrom), count = Int(s.valueTo) - from
        if count == 4 {
            return UnsafeRawPointer(d.baseAddress! + from).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x6575_7274)   // "true"
        }
        return count == 1 && d[from] == UInt8(ascii: "1")
    }

    /// The value as XML means it (references replaced, tabs and line breaks spaces).
    func string(_ span: Int) -> String {
        let s = spans[span]
        return bytes.withUnsafeBufferPointer { d in
            SourceDocument.decode(s, d)
        }
    }

    /// `string(_:)` with the page's bytes in hand (`bytes`): a plain value made straight from them.
    @inline(__always)
    func string(_ span: Int32, _ d: UnsafeBufferPointer<UInt8>) -> String {
        let s = spans[Int(span)]
        if s.raw { return string(Int(span)) }
        return String(decoding: UnsafeBufferPointer(start: d.baseAddress! + Int(s.valueFrom), count: Int(s.valueTo - s.valueFrom)), as: UTF8.self)
    }

    /// Calls `body` with the value's bytes (decoded first when it holds references or breaks).
    func withValue<R>(_ span: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let s = spans[span]
        if s.raw {
            var v = string(span)
            return v.withUTF8(body)
        }
        return bytes.withUnsafeBufferPointer { d in body(UnsafeBufferPointer(rebasing: d[Int(s.valueFrom)..<Int(s.valueTo)])) }
    }

    /// The values of `spans` joined with `separator`, made once from their bytes (what
    /// `spans.map(string).joined(separator:)` makes).
    func joined(_ list: UnsafeBufferPointer<Int>, separator: StaticString) -> String {
        if list.count == 1 { return string(list[0]) }
        let gap = separator.utf8CodeUnitCount
        var total = gap * (list.count - 1)
        var raw = false
        for span in list {
            let s = spans[span]
            total += Int(s.valueTo - s.valueFrom)
            raw = raw || s.raw
        }
        return bytes.withUnsafeBufferPointer { d in
            if raw {
                // A value with references or breaks is decoded first: its length is not its bytes'.
                var out: [UInt8] = []
                out.reserveCapacity(total)
                for (k, span) in list.enumerated() {
                    if k > 0 { out.append(contentsOf: UnsafeBufferPointer(start: separator.utf8Start, count: gap)) }
                    let s = spans[span]
                    if s.raw { out.append(contentsOf: SourceDocument.decode(s, d).utf8) } else { out.append(contentsOf: UnsafeBufferPointer(rebasing: d[Int(s.valueFrom)..<Int(s.valueTo)])) }
                }
                return String(decoding: out, as: UTF8.self)
            }
            // Plain values: their bytes and the separators written once into the string.
            // (Repaired as `String(decoding:)` repairs, were a value not UTF-8; the reader checked it is.)
            return String(unsafeUninitializedCapacity: total, initializingUTF8With: { out -> Int in
                var at = 0
                for (k, span) in list.enumerated() {
                    if k > 0 {
                        UnsafeMutableRawPointer(out.baseAddress! + at).copyMemory(from: separator.utf8Start, byteCount: gap)
                        at += gap
                    }
                    let s = spans[span]
                    let count = Int(s.valueTo - s.valueFrom)
                    if count > 0 { UnsafeMutableRawPointer(out.baseAddress! + at).copyMemory(from: d.baseAddress! + Int(s.valueFrom), byteCount: count) }
                    at += count
                }
                return at
            })
        }
    }

    /// `"true"` or `"1"` (WebDriverAgent's and UiAutomator2's booleans), as `SourceNode.flag` reads.
    func isTrue(_ span: Int) -> Bool {
        let s = spans[span]
        if s.raw { let v = string(span); return v == "true" || v == "1" }
        return bytes.withUnsafeBufferPointer { d in
            let from = Int(s.valueFrom), count = Int(s.valueTo) - from
            if count == 4 { return d[from] == UInt8(ascii: "t") && d[from + 1] == UInt8(ascii: "r") && d[from + 2] == UInt8(ascii: "u") && d[from + 3] == UInt8(ascii: "e") }
            return count == 1 && d[from] == UInt8(ascii: "1")
        }
    }

    /// Whether the value is empty.
    func isEmpty(_ span: Int) -> Bool {
        let s = spans[span]
        return s.valueTo == s.valueFrom
    }

    /// `hasText(_:)` with the page's bytes in hand (`bytes`): a plain value that is empty or
    /// starts with a printable ASCII character is told at once.
    @inline(__always)
    func hasText(_ span: Int32, _ d: UnsafeBufferPointer<UInt8>) -> Bool {
        let s = spans[Int(span)]
        if !s.raw {
            if s.valueTo == s.valueFrom { return false }
            let b = d[Int(s.valueFrom)]
            if b > 0x20, b < 0x80 { return true }
        }
        return hasText(Int(span))
    }

    /// Whether the value has a character that is not white space (`AndroidRules.text`'s test).
    func hasText(_ span: Int) -> Bool {
        let s = spans[span]
        if !s.raw {
            let found: Bool? = bytes.withUnsafeBufferPointer { d in
                var ascii = true
                for k in Int(s.valueFrom)..<Int(s.valueTo) {
                    let b = d[k]
                    if b >= 0x80 { ascii = false; break }
                    if b != 0x20, b < 0x09 || b > 0x0D { return true }
                }
                return ascii ? false : nil
            }
            if let found { return found }
        }
        let t = string(span)
        if t.utf8.allSatisfy({ $0 < 0x80 }) {
            return t.utf8.contains(where: { $0 != 0x20 && ($0 < 0x09 || $0 > 0x0D) })
        }
        return t.contains(where: { !$0.isWhitespace })
    }

    /// Whether attributes `a` and `b` are written with the same value bytes, both read plainly
    /// or both with references: the quick test for a value repeated from a tag before (`same`
    /// is the whole one).
    @inline(__always) func sameBytes(_ a: Int32, _ b: Int32, _ d: UnsafeBufferPointer<UInt8>) -> Bool {
        let x = spans[Int(a)], y = spans[Int(b)]
        return x.raw == y.raw && x.valueTo - x.valueFrom == y.valueTo - y.valueFrom
            && XMLScanner.equal(d, Int(x.valueFrom), Int(y.valueFrom), Int(x.valueTo - x.valueFrom))
    }

    /// Whether two values are the same text, as `String`'s `==` says (canonical equivalence:
    /// different bytes can be the same text only when one is not ASCII).
    func same(_ a: Int, _ b: Int) -> Bool {
        let x = spans[a], y = spans[b]
        if x.raw || y.raw { return string(a) == string(b) }
        let (equal, ascii) = bytes.withUnsafeBufferPointer { d -> (Bool, Bool) in
            if XMLScanner.same(d, x.valueFrom, x.valueTo, Int(y.valueFrom), Int(y.valueTo)) { return (true, true) }
            let ascii = !d[Int(x.valueFrom)..<Int(x.valueTo)].contains(where: { $0 >= 0x80 })
                && !d[Int(y.valueFrom)..<Int(y.valueTo)].contains(where: { $0 >= 0x80 })
            return (false, ascii)
        }
        if equal { return true }
        return ascii ? false : string(a) == string(b)
    }

    /// FNV-1a of the value's bytes, for caches keyed by a value (class names, types).
    func hash(_ span: Int) -> UInt64 {
        let s = spans[span]
        return bytes.withUnsafeBufferPointer { d in
            var h: UInt64 = 14695981039346656037
            for k in Int(s.valueFrom)..<Int(s.valueTo) { h = (h ^ UInt64(d[k])) &* 1099511628211 }
            return s.raw ? ~h : h
        }
    }
}

/// The values of one attribute seen before (a screen's few classes or types), each with what
/// it stands for, found again by their bytes: a few compares of lengths and words, where a hash
/// of the value and a dictionary took longer. Holds the first 32 distinct values; the caller
/// looks further for the rest.
struct RecentValues<Value> {
    private var entries: [(from: Int, count: Int, raw: Bool, value: Value)] = []

    /// What the value at `span` stands for, when the same bytes were added before.
    @inline(__always)
    func find(_ tree: PageTree, _ d: UnsafeBufferPointer<UInt8>, _ span: Int) -> Value? {
        let s = tree.spans[span]
        let from = Int(s.valueFrom), count = Int(s.valueTo) - from
        for e in entries where e.count == count && e.raw == s.raw && XMLScanner.equal(d, e.from, from, count) { return e.value }
        return nil
    }

    mutating func add(_ tree: PageTree, _ span: Int, _ value: Value) {
        guard entries.count < 32 else { return }
        let s = tree.spans[span]
        entries.append((Int(s.valueFrom), Int(s.valueTo - s.valueFrom), s.raw, value))
    }
}
