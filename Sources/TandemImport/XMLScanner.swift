import CByteScan

/// The page source's XML read byte by byte: a small pull parser for the subset of XML 1.0 a
/// page source is written in (elements, attributes, text, comments, CDATA, processing
/// instructions, the five predefined entities and character references), refusing everything
/// else — a document type declaration, other entities, bytes that are not UTF-8, characters
/// XML does not allow — with the line and column where it stopped (Docs/import.md#reader).
///
/// It replaces Foundation's `XMLParser`, which hands every attribute over as a bridged string
/// in a dictionary: 10 to 30 times the time the catalog it produces takes to load
/// (Docs/benchmarks.md#import). Here an element is its tag, its place and the byte ranges of its
/// attributes; a value becomes a string only when a rule asks for it.
struct XMLScanner {
    /// One element as read, in document order (a row of `ElementColumns`); `parent` is an
    /// index into the same table.
    struct Row {
        /// The tag's name: an index into `tagNames`.
        var tag: Int32
        var line: Int
        var column: Int
        var parent: Int
        var attributes: Range<Int>
        /// Where the tag's name starts in the file, for its end tag to be compared byte for byte.
        var nameStart: Int
        /// Its attributes have the names of the previous element of its slot (`SpanTable.slot`:
        /// the previous with its tag's name, for the first 64 names), in the same order (at most
        /// 64: UiAutomator2 and WebDriverAgent write the same names node after node), so what
        /// the rules find by name is where it was in that element (`AndroidFacts.Places`).
        var sameNames = false
        /// The attributes (of the first 64) taken as the same text, name and value, as attribute
        /// `k` of element `template` (a run of them, `remembered`, or one, `startTag`): the rules
        /// take what they found there (`AndroidFacts`).
        var copied: UInt64 = 0
        /// The element those texts were read in, -1 when none was taken or they came from more
        /// than one.
        var template: Int32 = -1
    }

    private let file: String
    /// The elements read so far, a column each in `table`'s memory (an array's append checked
    /// its uniqueness and capacity in calls, element after element), valid while `table` is.
    private(set) var rows: ElementColumns
    /// How many elements are read.
    private(set) var count = 0
    /// The attributes' spans, in document order: written through a pointer into `table`'s
    /// memory (an array's append checked its uniqueness and capacity in calls, some 45
    /// instructions an attribute), which the page's `PageTree` then keeps.
    let table = SpanTable()
    private var spanBase: UnsafeMutablePointer<AttributeSpan>
    private var spanCount = 0
    private var spanCapacity = 0
    /// The spans written so far.
    var spans: UnsafeBufferPointer<AttributeSpan> { UnsafeBufferPointer(start: spanBase, count: spanCount) }
    /// Place of the current byte: the line, where it starts, and the UTF-8 continuation bytes
    /// passed on it (a column counts characters).
    private var line = 1
    private var lineStart = 0
    private var continuations = 0
    /// Tags seen before (by a hash of their bytes: where the first was, and its string), so a
    /// screen of 5,000 `node`s makes one string, not 5,000.
    private var tags: [UInt64: (from: Int, to: Int, id: Int32)] = [:]
    private var recent: [(from: Int, to: Int, id: Int32)] = []
    /// Each distinct tag name once, in the order first met (`Row.tag`).
    private(set) var tagNames: [String] = []
    /// Where each tag's name was first met (the bytes a guessed tag is compared with).
    private var tagPlaces: [Range<Int>] = []
    /// Whether each tag's name is ASCII (passing it moves no column count).
    private var tagASCII: [Bool] = []
    /// The first 64 attributes of the previous start tag with the current tag's name, in order
    /// (`Written`, in `table`'s memory; the tags after the first 64 names share one memory):
    /// as the current tag's attribute `k` is read, `memo[k]` is compared with it and then
    /// becomes it, so the memory is the current tag's when the tag ends. A page's rows repeat
    /// each kind of element's names (a WebDriverAgent cell's, its texts', its switch's).
    private var memo: UnsafeMutablePointer<Written>
    /// How many attributes the current tag has.
    private var currentCount = 0
    /// Bytes the runs' compares have read (`remembered`): at most `runWindow` a run tried, so
    /// a page's runs cost what its length does (`RepeatedNamesTests`).
    private(set) var runBytesCompared = 0

    /// An attribute as read: its name's hash (`nameHash`), its span, and where its text
    /// (`name="value"` with the closing quote) starts and how long it is. `length` is 0 unless
    /// the text is plain: printable ASCII and spaces, no reference, no tab or line break. A
    /// plain text is read the same wherever it is, so when the same bytes stand at the same
    /// place in the next start tag (`checkable="false"` in node after node), the attribute is
    /// taken as read there, shifted, without reading it again (`startTag`).
    /// `nameLength` is the name's length when it is ASCII and written `name="` (a name the next
    /// tag's attribute at the same place is compared with, `repeatedNames`), else 0.
    /// `end` is where the text ends (`start + length`) and `chainEnd` the same when the text
    /// follows the one remembered at the place before, of the same tag, after one space (a run
    /// `remembered` takes whole); each `Int.max` otherwise, so a run's test is one compare.
    struct Written {
        var hash: UInt64
        var span: Int
        var start: Int
        var length: Int
        var nameLength: Int
        var end: Int
        var chainEnd: Int
        /// A run from this text was tried and the text was not there (an index, a text, bounds:
        /// what differs row to row): the next tags read it by its name at once.
        var varies = false
        /// The element it was read in (`Row.template`).
        var element: Int32
    }

    /// The current tag's attributes taken from remembered texts (`Row.copied`) and the
    /// element those were read in (`Int32.min` before any; -1 for more than one).
    private var copiedMask: UInt64 = 0
    private var copiedFrom = Int32.min

    /// Attributes `k..<k + count` of the current tag were taken as the texts element `element`
    /// had at those places.
    @inline(__always)
    private mutating func copied(_ k: Int, _ count: Int, from element: Int32) {
        copiedMask |= ((~0 as UInt64) &>> UInt64(64 - count)) &<< UInt64(k)
        copiedFrom = copiedFrom == Int32.min || copiedFrom == element ? element : -1
    }

    /// The place and end of the text last remembered in the current tag (`remember`).
    private var lastRemembered = (k: -1, end: 0)

    /// Remembers the current tag's attribute `k` (the first 64): its name's hash, its span, where
    /// its text starts and how long it is when plain (0 otherwise), its name's length.
    @inline(__always)
    private mutating func remember(_ k: Int, hash: UInt64, span: Int, start: Int, length: Int, nameLength: Int, _ data: UnsafeBufferPointer<UInt8>) {
        guard k < 64 else { return }
        let end = length > 0 ? start + length : Int.max
        let chained = length > 0 && lastRemembered.k == k - 1 && lastRemembered.end + 1 == start && data[start - 1] == 0x20
        memo[k] = Written(hash: hash, span: span, start: start, length: length, nameLength: nameLength, end: end, chainEnd: chained ? end : Int.max,
                          element: Int32(truncatingIfNeeded: count))
        lastRemembered = length > 0 ? (k, end) : (-1, 0)
    }

    init(file: String) {
        self.file = file
        spanBase = table.base
        memo = table.memo
        rows = table.rows
    }

    /// Appends `row` to `rows`; returns its index.
    @inline(__always)
    private mutating func append(_ row: Row) -> Int {
        if count == rows.capacity {
            table.rows.resize(max(count * 2, 64), keeping: count)
            rows = table.rows
        }
        rows.write(count, row)
        count += 1
        return count - 1
    }

    /// Room for one more span.
    @inline(__always)
    private mutating func appendSpan(_ s: AttributeSpan) {
        if spanCount == spanCapacity { grow() }
        spanBase[spanCount] = s
        spanCount += 1
    }

    private mutating func grow(atLeast: Int = 0) {
        spanCapacity = max(spanCapacity * 2, 256, atLeast)
        table.resize(spanCapacity, keeping: spanCount)
        spanBase = table.base
    }

    private mutating func reserveSpans(_ capacity: Int) {
        guard capacity > spanCapacity else { return }
        spanCapacity = capacity
        table.resize(spanCapacity, keeping: spanCount)
        spanBase = table.base
    }

    // Byte classes (one table lookup in the loops that cross text and values).
    private static let plain: UInt8 = 0, special: UInt8 = 1

    mutating func scan(_ data: UnsafeBufferPointer<UInt8>) throws(ImportError) {
        guard data.count < Int(Int32.max) else {
            throw ImportError(file: file, message: "malformed XML: a page source of 2 GB or more is not read")
        }
        var i = 0
        let n = data.count
        if n >= 2, (data[0] == 0xFE && data[1] == 0xFF) || (data[0] == 0xFF && data[1] == 0xFE) {
            throw ImportError(file: file, line: 1, column: 1, message: "malformed XML: a UTF-16 file; page sources are UTF-8")
        }
        if n >= 3, data[0] == 0xEF, data[1] == 0xBB, data[2] == 0xBF { i = 3; lineStart = 3 }
        // About one element in 300 bytes and one attribute in 20 in page sources.
        table.rows.resize(n / 256 + 16, keeping: 0)
        rows = table.rows
        reserveSpans(n / 16 + 64)
        // The elements not yet closed, the innermost last, each with how many children it has so
        // far, and the elements at the top level: where the next start tag is, for its name's
        // guess. In `table`'s memory (an array's append and removal checked its uniqueness, a
        // call each, element after element).
        var depth = 0
        var top: Int { depth > 0 ? table.open[depth - 1].entry : -1 }
        var topLevel = 0
        var rootClosed = false
        let bodyStart = i
        while i < n {
            let b = data[i]
            if b == UInt8(ascii: "<") {
                guard i + 1 < n else { throw eof(data, top, inside: "a tag") }
                let next = data[i + 1]
                if next == UInt8(ascii: "/") {
                    guard depth > 0 else {
                        throw error(at: i, data, rootClosed ? "content after the root element" : "an end tag with no element open")
                    }
                    i = try endTag(data, at: i, closing: top)
                    rows.close(top, next: count)
                    depth -= 1
                    if depth == 0 { rootClosed = true }
                } else if next == UInt8(ascii: "?") {
                    if i + 5 <= n, data[i + 2] | 0x20 == UInt8(ascii: "x"), data[i + 3] | 0x20 == UInt8(ascii: "m"), data[i + 4] | 0x20 == UInt8(ascii: "l"),
                       i + 5 == n || Self.isSpace(data[i + 5]) || data[i + 5] == UInt8(ascii: "?"), i != bodyStart {
                        throw error(at: i, data, "an XML declaration (<?xml …?>) that is not at the very start of the file")
                    }
                    i = try skip(data, from: i + 2, until: "?>", what: "a processing instruction", top: top)
                } else if next == UInt8(ascii: "!") {
                    if Self.starts(data, at: i, "<!--") {
                        i = try comment(data, at: i, top: top)
                    } else if Self.starts(data, at: i, "<![CDATA[") {
                        guard depth > 0 else { throw error(at: i, data, "a CDATA section outside the root element") }
                        i = try skip(data, from: i + 9, until: "]]>", what: "a CDATA section", top: top)
                    } else if count == 0, Self.startsFolded(data, at: i, "<!DOCTYPE") || Self.startsFolded(data, at: i, "<!ENTITY") {
                        let (l, c) = place(of: i, data)
                        throw ImportError(file: file, line: l, column: c,
                                          message: "a document type declaration (<!DOCTYPE or <!ENTITY) is not read: page sources have none, and its entities could read other files or grow without bound")
                    } else {
                        throw error(at: i, data, "\"<!\" that starts no comment or CDATA section (a declaration is not allowed here)")
                    }
                } else {
                    if rootClosed { throw error(at: i, data, "content after the root element (a page source has one root)") }
                    let parent = top
                    let position: Int
                    if parent >= 0 {
                        position = table.open[depth - 1].children
                        table.open[depth - 1].children = position + 1
                    } else {
                        position = topLevel
                        topLevel += 1
                    }
                    let parentSlot = parent >= 0 ? SpanTable.slot(rows.tag[parent]) : SpanTable.slots - 1
                    let guess = parentSlot * SpanTable.positions + min(position, SpanTable.positions - 1)
                    let (me, selfClosing, after) = try startTag(data, at: i, parent: parent, guess: guess)
                    if !selfClosing {
                        if depth == table.openCapacity { table.growOpen() }
                        table.open[depth] = OpenElement(entry: me, children: 0)
                        depth += 1
                    } else if depth == 0 {
                        rootClosed = true
                    }
                    i = after
                }
            } else {
                // The indentation between two tags (spaces and line feeds, then "<") passed here,
                // as `text` begins, without the call: page sources write it between every two
                // tags. Anything else, `text` reads on from there.
                if i + 16 <= n {
                    let (next, stopped) = passBlanks16(data, i)
                    i = next
                    if stopped, data[i] == UInt8(ascii: "<") { continue }
                }
                i = try text(data, from: i, inElement: depth > 0, top: top)
            }
        }
        if depth > 0 { throw eof(data, top, inside: nil) }
        if count == 0 {
            throw ImportError(file: file, line: 1, column: 1, message: "malformed XML: no root element (an empty file?)")
        }
    }

    // MARK: Places and errors

    /// Line and column of byte `offset`, which is at or after the place already counted to.
    private mutating func place(of offset: Int, _ data: UnsafeBufferPointer<UInt8>) -> (Int, Int) {
        (line, offset - lineStart - continuations + 1)
    }

    private mutating func error(at offset: Int, _ data: UnsafeBufferPointer<UInt8>, _ what: String) -> ImportError {
        let (l, c) = place(of: offset, data)
        return ImportError(file: file, line: l, column: c, message: "malformed XML: " + what)
    }

    /// The file ended inside something: the place is the end of the file.
    /// `top`: the innermost element open (-1 for none).
    private mutating func eof(_ data: UnsafeBufferPointer<UInt8>, _ top: Int, inside: String?) -> ImportError {
        // Count the rest of the file (the scan stopped before its end only inside a construct).
        let (l, c) = place(of: data.count, data)
        var what = "the file ends"
        if let inside { what += " inside \(inside)" }
        if top >= 0 {
            let tag = tagNames[Int(rows.tag[top])]
            what += inside == nil ? " inside <\(tag)>" : " in <\(tag)>"
            what += " (opened at line \(rows.line[top]), column \(rows.column[top])); is it truncated?"
        } else {
            what += "; is it truncated?"
        }
        return ImportError(file: file, line: l, column: c, message: "malformed XML: " + what)
    }

    /// Passes byte `i` for the line count: a newline starts a line, a continuation byte is no
    /// character. Returns the next offset. Bytes at or over 0x80 are checked to be UTF-8.
    @inline(__always)
    private mutating func pass(_ data: UnsafeBufferPointer<UInt8>, _ i: Int) throws(ImportError) -> Int {
        let b = data[i]
        if b == 0x0A { line += 1; lineStart = i + 1; continuations = 0; return i + 1 }
        if b < 0x20 {
            if b == 0x09 || b == 0x0D { return i + 1 }
            throw error(at: i, data, "a character XML does not allow (U+\(String(b, radix: 16, uppercase: true).leftPadded(4)))")
        }
        if b < 0x80 { return i + 1 }
        let length = Self.utf8Length(data, i)
        guard length > 0 else { throw error(at: i, data, "bytes that are not UTF-8") }
        if length == 3, data[i] == 0xEF, data[i + 1] == 0xBF, data[i + 2] >= 0xBE {
            throw error(at: i, data, "a character XML does not allow (U+FFFE or U+FFFF)")
        }
        continuations += length - 1
        return i + length
    }

    /// The length of the UTF-8 sequence at `i`, or 0 when it is not one (overlong forms,
    /// surrogates and values past U+10FFFF included).
    static func utf8Length(_ d: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        let b = d[i], n = d.count
        func cont(_ k: Int) -> Bool { k < n && d[k] & 0xC0 == 0x80 }
        switch b {
        case 0xC2...0xDF: return cont(i + 1) ? 2 : 0
        case 0xE0: return i + 1 < n && d[i + 1] >= 0xA0 && d[i + 1] <= 0xBF && cont(i + 2) ? 3 : 0
        case 0xED: return i + 1 < n && d[i + 1] >= 0x80 && d[i + 1] <= 0x9F && cont(i + 2) ? 3 : 0
        case 0xE1...0xEF: return cont(i + 1) && cont(i + 2) ? 3 : 0
        case 0xF0: return i + 1 < n && d[i + 1] >= 0x90 && d[i + 1] <= 0xBF && cont(i + 2) && cont(i + 3) ? 4 : 0
        case 0xF1...0xF3: return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0
        case 0xF4: return i + 1 < n && d[i + 1] >= 0x80 && d[i + 1] <= 0x8F && cont(i + 2) && cont(i + 3) ? 4 : 0
        default: return 0
        }
    }

    // MARK: Constructs

    /// A start tag at `i` (its `<`): the element's entry, whether it closes itself, the offset after it.
    ///
    /// `guess`: where in `SpanTable.guesses` the tag last met at this place is (the same child
    /// position under a parent of the same tag): when its name is there, byte for byte, and
    /// ends where a name ends, the name is not scanned or looked up again.
    private mutating func startTag(_ data: UnsafeBufferPointer<UInt8>, at start: Int, parent: Int, guess: Int) throws(ImportError) -> (Int, Bool, Int) {
        let (l, c) = place(of: start, data)
        let n = data.count
        var i = start + 1
        let nameStart = i
        var tagID: Int32 = -1
        let guessed = table.guesses + guess
        if guessed.pointee >= 0 {
            // The guessed tag's name (ASCII, or it would not be a guess) and the byte after it:
            // one that is not a name character ends it, as `name` would end it.
            let known = tagPlaces[Int(guessed.pointee)]
            let end = i + known.count
            if end < n, Self.equal(data, known.lowerBound, i, known.count), data[end] < 0x80, !Self.isNameASCII(data[end]) {
                tagID = guessed.pointee
                i = end
            }
        }
        if tagID < 0 {
            let before = continuations
            i = try name(data, from: i, what: "an element name")
            tagID = tagIndex(data, nameStart, i)
            // A name over ASCII moved the column count: it is read the long way each time.
            guessed.pointee = continuations == before ? tagID : -1
        }
        let first = spanCount
        let slot = SpanTable.slot(tagID)
        memo = table.memo + slot * 64
        // How many attributes the previous tag of this name had (-1: none before).
        let previousAll = table.counts[slot]
        let previousCount = min(max(previousAll, 0), 64)
        currentCount = 0
        defer { table.counts[slot] = currentCount }
        copiedMask = 0
        copiedFrom = Int32.min
        // The attributes that have the previous start tag's names at the same places, each
        // `name="value"` in printable ASCII after one space: only the value's end to find.
        let repeated = repeatedNames(data, &i, previousCount: previousCount)
        currentCount = repeated
        lastRemembered = (-1, 0)
        // The usual end: every attribute was in the run, then ">" or "/>". Anything else, the
        // general steps read (`attributes`, a function of its own so that this one stays small).
        let selfClosing: Bool
        if i < n, data[i] == UInt8(ascii: ">") {
            i += 1
            selfClosing = false
        } else if i + 1 < n, data[i] == UInt8(ascii: "/"), data[i + 1] == UInt8(ascii: ">") {
            i += 2
            selfClosing = true
        } else {
            (i, selfClosing) = try attributes(data, from: i, first: first, repeated: repeated, previousCount: previousCount,
                                              tagID: tagID, line: l, column: c, parent: parent)
        }
        let same = repeated == previousAll && spanCount - first == repeated
        let me = append(Row(tag: tagID, line: l, column: c, parent: parent, attributes: first..<spanCount, nameStart: nameStart,
                            sameNames: same, copied: copiedMask, template: copiedFrom == Int32.min ? -1 : copiedFrom))
        return (me, selfClosing, i)
    }

    /// The attributes of the start tag whose first `repeated` attributes `repeatedNames` read
    /// (of `previousCount` remembered), from `i` to its end: the offset after the tag, and
    /// whether it closes itself. Every XML rule for attributes is checked here.
    @inline(never)
    private mutating func attributes(_ data: UnsafeBufferPointer<UInt8>, from start: Int, first: Int, repeated: Int, previousCount: Int,
                                     tagID: Int32, line l: Int, column c: Int, parent: Int) throws(ImportError) -> (Int, Bool) {
        let n = data.count
        var i = start
        var tag: String { tagNames[Int(tagID)] }   // for messages
        // Two bits a name's hash, from two places in it (a two-bit Bloom filter): a second look
        // only when a name finds both its bits set, about a fifth as often as with one bit for
        // a tag of 18 attributes.
        var seen: UInt64 = 0, seen2: UInt64 = 0
        if repeated > 0, i < n, data[i] != UInt8(ascii: ">"), data[i] != UInt8(ascii: "/") {
            // More attributes for the general steps: the run's names in the check for a repeated name.
            for k in 0..<repeated {
                let hash = memo[k].hash
                seen |= 1 << (hash >> 58); seen2 |= 1 << ((hash >> 52) & 63)
            }
        }
        while true {
            let beforeSpace = i
            if i < n, data[i] == 0x20 { i += 1 }   // the one space page sources write
            while i < n, Self.isSpace(data[i]) { i = try pass(data, i) }
            guard i < n else { throw eofInTag(data, tag, l, c, parent) }
            let b = data[i]
            if b == UInt8(ascii: ">") { return (i + 1, false) }
            if b == UInt8(ascii: "/") {
                guard i + 1 < n else { throw eofInTag(data, tag, l, c, parent) }
                guard data[i + 1] == UInt8(ascii: ">") else { throw error(at: i + 1, data, "\">\" was expected after \"/\" in <\(tag)>") }
                return (i + 2, true)
            }
            guard i > beforeSpace else { throw error(at: i, data, "a space was expected between the attributes of <\(tag)>") }
            // An attribute: name = "value"
            let attributeStart = i
            let k = spanCount - first
            currentCount = k + 1
            if k < previousCount {
                // The same plain text as the previous start tag's attribute at this place: the
                // same name and value, read already (only the name's repetition is checked).
                let p = memo[k]
                if p.length > 0, i + p.length <= n, Self.equal(data, p.start, i, p.length) {
                    let s = spanBase[p.span].shifted(by: UInt32(truncatingIfNeeded: i - p.start))
                    let bit: UInt64 = 1 << (p.hash >> 58), bit2: UInt64 = 1 << ((p.hash >> 52) & 63)
                    if seen & bit != 0, seen2 & bit2 != 0 {
                        try checkRepeated(data, Int(s.nameFrom), Int(s.nameTo), first: first, at: attributeStart, tag: tag)
                    }
                    seen |= bit; seen2 |= bit2
                    copied(k, 1, from: p.element)
                    remember(k, hash: p.hash, span: spanCount, start: i, length: p.length, nameLength: p.nameLength, data)
                    appendSpan(s)
                    i += p.length
                    continue
                }
            }
            if let (nameTo, valueTo) = Self.plainAttribute(data, at: i) {
                // name="value" in printable ASCII, as nearly every attribute is: what the steps
                // below find, found without passing the bytes one by one.
                let hash = Self.nameHash(data, i, nameTo)
                let bit: UInt64 = 1 << (hash >> 58), bit2: UInt64 = 1 << ((hash >> 52) & 63)
                if seen & bit != 0, seen2 & bit2 != 0 {
                    try checkRepeated(data, i, nameTo, first: first, at: attributeStart, tag: tag)
                }
                seen |= bit; seen2 |= bit2
                remember(k, hash: hash, span: spanCount, start: i, length: valueTo + 1 - i, nameLength: nameTo - i, data)
                appendSpan(AttributeSpan(nameFrom: UInt32(i), nameTo: UInt32(nameTo), valueFrom: UInt32(nameTo + 2), valueTo: UInt32(valueTo), raw: false))
                i = valueTo + 1
                continue
            }
            let (lineBefore, continuationsBefore) = (line, continuations)
            let nameFrom = i
            i = try name(data, from: i, what: "an attribute name or \">\"")
            let nameTo = i
            let hash = Self.nameHash(data, nameFrom, nameTo)
            let bit: UInt64 = 1 << (hash >> 58), bit2: UInt64 = 1 << ((hash >> 52) & 63)
            if seen & bit != 0, seen2 & bit2 != 0 {
                try checkRepeated(data, nameFrom, nameTo, first: first, at: attributeStart, tag: tag)
            }
            seen |= bit; seen2 |= bit2
            while i < n, Self.isSpace(data[i]) { i = try pass(data, i) }
            guard i < n else { throw eofInTag(data, tag, l, c, parent) }
            guard data[i] == UInt8(ascii: "=") else {
                throw error(at: i, data, "attribute \(Self.string(data, nameFrom, nameTo)) has no value (\"=\" expected)")
            }
            i += 1
            while i < n, Self.isSpace(data[i]) { i = try pass(data, i) }
            guard i < n else { throw eofInTag(data, tag, l, c, parent) }
            let quote = data[i]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw error(at: i, data, "the value of attribute \(Self.string(data, nameFrom, nameTo)) has no quotes")
            }
            let valueOpen = i
            let (valueLine, valueColumn) = place(of: valueOpen, data)
            i += 1
            let valueFrom = i
            var raw = false
            while true {
                // Plain bytes (printable ASCII, not the quote, "<" or "&") 16 at a time.
                while i + 16 <= n {
                    let m = cbytescan_value_stops16(data.baseAddress! + i, quote)
                    if m == 0 { i += 16; continue }
                    i += m.trailingZeroBitCount
                    break
                }
                guard i < n else {
                    let (el, ec) = place(of: n, data)
                    throw ImportError(file: file, line: el, column: ec,
                                      message: "malformed XML: the file ends inside the value of attribute \(Self.string(data, nameFrom, nameTo)) of <\(tag)> (opened at line \(valueLine), column \(valueColumn)); is it truncated?")
                }
                let v = data[i]
                if v == quote { break }
                if v >= 0x20, v < 0x80, v != UInt8(ascii: "<"), v != UInt8(ascii: "&") { i += 1; continue }
                if v == UInt8(ascii: "<") { throw error(at: i, data, "\"<\" in the value of attribute \(Self.string(data, nameFrom, nameTo)) (write &lt;)") }
                if v == UInt8(ascii: "&") { i = try reference(data, at: i); raw = true; continue }
                if v == 0x09 || v == 0x0A || v == 0x0D { raw = true }   // read as a space (XML's value normalisation)
                i = try pass(data, i)
            }
            // Plain: no reference, tab or line break, nothing over ASCII (no line or continuation passed).
            let plain = !raw && line == lineBefore && continuations == continuationsBefore
            remember(k, hash: hash, span: spanCount, start: attributeStart, length: plain ? i + 1 - attributeStart : 0, nameLength: 0, data)
            appendSpan(AttributeSpan(nameFrom: UInt32(nameFrom), nameTo: UInt32(nameTo), valueFrom: UInt32(valueFrom), valueTo: UInt32(i), raw: raw))
            i += 1
        }
    }

    /// The attributes from `i` (just after the tag's name) that repeat the previous start tag's
    /// names at the same places: each one space, the same ASCII name as the previous tag's
    /// attribute there, `="`, and a value of printable ASCII (no `<`, `&`, quote, tab, line
    /// break or byte over ASCII) found 16 bytes at a time up to its quote. They need no check
    /// for a repeated name (the previous tag's names differ, or it was refused) and no step of
    /// the place count (nothing in them moves the line or column). Stops at the first
    /// attribute that is anything else, leaving `i` before it for the general steps; returns
    /// how many it read. Attributes whose whole texts (`name="value"` with the quote) are, byte
    /// for byte, the ones remembered at their places, written one after another there, are
    /// taken as a run with one compare of the bytes (`remembered`), each value ending where
    /// that one's did: page sources repeat `checkable="false" checked="false" …` node after
    /// node (Docs/import.md#speed).
    ///
    /// The memory of the previous tag is left as it is: this tag's names are its names, so the
    /// next tag's are compared with the same bytes, and an attribute's text remembered there
    /// (`Written.length`) is still one read before at that place (`startTag`'s shortcut
    /// shifts that earlier span). The names' hash bits (`seen`) are set by the caller only when
    /// the general steps read more attributes of the tag.
    @inline(__always)
    private mutating func repeatedNames(_ data: UnsafeBufferPointer<UInt8>, _ i: inout Int, previousCount: Int) -> Int {
        let n = data.count
        let base = data.baseAddress!
        if spanCount + previousCount > spanCapacity { grow(atLeast: spanCount + previousCount) }
        let out = spanBase + spanCount
        var at = i
        var k = 0
        while k < previousCount {
            let p = memo + k
            guard at < n, base[at] == 0x20 else { break }
            // Whole `name="value"` texts remembered from one tag, one after another (`Written.length`:
            // plain, so printable ASCII with its closing quote and no stop before it), the same
            // bytes here: `checkable="false" checked="false" clickable="false" …` node after node.
            // Each value ends where that one's did, so neither a name is compared again nor a
            // value's end looked for; the run is found with one compare of the bytes.
            if p.pointee.length > 0, !p.pointee.varies {
                let taken = Self.remembered(base, n, at: at, memo: p, upTo: previousCount - k, from: spanBase, into: out + k)
                runBytesCompared &+= taken.compared
                if taken.count > 0 {
                    copied(k, taken.count, from: p.pointee.element)
                    k += taken.count
                    at = taken.next
                    continue
                }
                p.pointee.varies = true
            }
            let length = p.pointee.nameLength
            let valueFrom = at &+ length &+ 3
            // ` name="` (the previous tag's name and the `="` after it, compared at once) and 16
            // bytes of the value there to read (so 16 at both names: the previous is before).
            guard length > 0, valueFrom + 16 <= n else { break }
            if length <= 14 {
                guard Self.same16(base + at + 1, base + p.pointee.start, length + 2) else { break }
            } else {
                guard cbytescan_equal(base + at + 1, base + p.pointee.start, length + 2, base + n) != 0 else { break }
            }
            var j = valueFrom
            var m = Self.valueStopsAndQuotes(base + j)
            while m & 0xFFFF == 0 {
                j += 16
                guard j + 16 <= n else { break }
                m = Self.valueStopsAndQuotes(base + j)
            }
            guard m & 0xFFFF != 0 else { break }
            let stop = m.trailingZeroBitCount
            // The first stop must be the quote (its bit in the high half).
            guard (m >> 16) >> stop & 1 != 0 else { break }
            j += stop
            (out + k).initialize(to: AttributeSpan(nameFrom: UInt32(truncatingIfNeeded: at + 1), nameTo: UInt32(truncatingIfNeeded: at + 1 + length),
                                                  valueFrom: UInt32(truncatingIfNeeded: valueFrom), valueTo: UInt32(truncatingIfNeeded: j), raw: false))
            at = j + 1
            k += 1
        }
        spanCount += k
        i = at
        return k
    }

    /// The run of attributes at `at` (the space before the first) that repeat, byte for byte,
    /// texts remembered at the same places (`memo`, at most `limit` of them) and written one
    /// after another, one space apart, in the tag they were read in (`Written.chainEnd`): each
    /// one's span that span shifted, written to `out`. How many, and the offset after the last
    /// (its quote); and how many bytes were compared.
    @inline(__always)
    static func remembered(_ base: UnsafePointer<UInt8>, _ n: Int, at: Int, memo: UnsafeMutablePointer<Written>, upTo limit: Int,
                           from spans: UnsafeMutablePointer<AttributeSpan>, into out: UnsafeMutablePointer<AttributeSpan>) -> (count: Int, next: Int, compared: Int) {
        let from = memo.pointee.start
        // The bytes the same here and there, from the first name on (the remembered tag is
        // before this one, so both runs are in the page): the texts that end inside them. At
        // most `runWindow`: rows written alike are the same bytes past the tag's end, to the
        // page's end when every row is (a run longer than the window is taken in pieces).
        let compared = cbytescan_common_prefix(base + at + 1, base + from, min(n - at - 1, runWindow))
        let same = from + compared
        guard memo.pointee.end <= same else { return (0, at, compared) }
        let shift = UInt32(truncatingIfNeeded: at + 1 - from)
        // A chain's texts were remembered one after another in one tag, so their spans are
        // one after another too.
        let source = spans + memo.pointee.span
        var count = 0
        repeat {
            (out + count).initialize(to: source[count].shifted(by: shift))
            count += 1
        } while count < limit && memo[count].chainEnd <= same
        return (count, memo[count - 1].end + Int(shift), compared)
    }

    /// The most bytes a run's compare reads (`remembered`).
    static let runWindow = 512

    /// Another name of this tag may have the same hash (both its bits were set): the names before it, by length
    /// and bytes.
    private mutating func checkRepeated(_ data: UnsafeBufferPointer<UInt8>, _ nameFrom: Int, _ nameTo: Int,
                                        first: Int, at attributeStart: Int, tag: String) throws(ImportError) {
        for k in first..<spanCount {
            let s = spanBase[k]
            if Int(s.nameTo - s.nameFrom) == nameTo - nameFrom, Self.same(data, s.nameFrom, s.nameTo, nameFrom, nameTo) {
                throw error(at: attributeStart, data, "attribute \(Self.string(data, nameFrom, nameTo)) is written twice in <\(tag)>")
            }
        }
    }

    /// An attribute at `start` written `name="value"` with nothing but printable ASCII (no
    /// reference, no "<", no space around "="): where its name and its value end. `nil` for
    /// anything else, which the general steps of `startTag` read (and refuse where XML does).
    @inline(__always)
    static func plainAttribute(_ d: UnsafeBufferPointer<UInt8>, at start: Int) -> (nameTo: Int, valueTo: Int)? {
        let n = d.count
        let base = d.baseAddress!
        let first = d[start]
        guard first < 0x80, isNameStart(first) else { return nil }
        var j = start + 1
        // The name's end, 16 bytes at a time while 16 are there (`cbytescan_not_name16`).
        while j + 16 <= n {
            let m = cbytescan_not_name16(base + j)
            if m == 0 { j += 16; continue }
            j += m.trailingZeroBitCount
            break
        }
        if j + 16 > n { while j < n, isNameASCII(d[j]) { j += 1 } }
        guard j + 1 < n, d[j] == UInt8(ascii: "="), d[j + 1] == UInt8(ascii: "\"") else { return nil }
        var k = j + 2
        // The first byte that is not plain, 16 at a time: it must be the closing quote.
        while k + 16 <= n {
            let m = cbytescan_value_stops16(base + k, UInt8(ascii: "\""))
            if m == 0 { k += 16; continue }
            k += m.trailingZeroBitCount
            return d[k] == UInt8(ascii: "\"") ? (j, k) : nil
        }
        while k < n {
            let v = d[k]
            if v == UInt8(ascii: "\"") { return (j, k) }
            guard v >= 0x20, v < 0x80, v != UInt8(ascii: "<"), v != UInt8(ascii: "&") else { return nil }
            k += 1
        }
        return nil
    }

    /// `cbytescan_value_stops_quotes16`: the stops of a double-quoted value among the 16 bytes
    /// at `p` (low half) and its quotes (high half).
    @inline(__always)
    static func valueStopsAndQuotes(_ p: UnsafePointer<UInt8>) -> UInt32 {
        cbytescan_value_stops_quotes16(p, UInt8(ascii: "\""))
    }

    /// `cbytescan_blanks16`: the bytes of the 16 at `p` that are neither a space nor a line
    /// feed (low half) and the line feeds (high half).
    @inline(__always)
    static func blanks16(_ p: UnsafePointer<UInt8>) -> UInt32 {
        cbytescan_blanks16(p)
    }

    /// `cbytescan_same16`: whether the first `count` (1...16) bytes at `a` and `b` are the
    /// same, 16 bytes readable at both.
    @inline(__always)
    static func same16(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        cbytescan_same16(a, b, count) != 0
    }

    /// Whether the `count` bytes at `a` and at `b` are the same (both runs inside `d`).
    @inline(__always)
    static func equal(_ d: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int, _ count: Int) -> Bool {
        let base = d.baseAddress!
        return cbytescan_equal(base + a, base + b, count, base + d.count) != 0
    }

    private mutating func eofInTag(_ data: UnsafeBufferPointer<UInt8>, _ tag: String, _ l: Int, _ c: Int, _ parent: Int) -> ImportError {
        let (el, ec) = place(of: data.count, data)
        return ImportError(file: file, line: el, column: ec,
                           message: "malformed XML: the file ends inside the start tag of <\(tag)> (at line \(l), column \(c)); is it truncated?")
    }

    /// An end tag at `i`; it must close the innermost open element.
    private mutating func endTag(_ data: UnsafeBufferPointer<UInt8>, at start: Int, closing top: Int) throws(ImportError) -> Int {
        let n = data.count
        var i = start + 2
        let nameFrom = i
        let tagID = Int(rows.tag[top])
        // The usual end tag: the start tag's name in ASCII, byte for byte, then ">" (what the
        // steps below find, found with one compare).
        let length = tagPlaces[tagID].count
        if tagASCII[tagID], nameFrom + length < n, data[nameFrom + length] == UInt8(ascii: ">"),
           Self.equal(data, Int(rows.nameStart[top]), nameFrom, length) {
            return nameFrom + length + 1
        }
        i = try name(data, from: i, what: "an element name after \"</\"")
        var tag: String { tagNames[tagID] }   // for messages
        // The start tag's name: the bytes of its tag's name where they start in that tag.
        let nameLength = tagPlaces[tagID].count
        let matches = nameLength == i - nameFrom && Self.equal(data, Int(rows.nameStart[top]), nameFrom, i - nameFrom)
        guard matches else {
            throw error(at: start, data, "</\(Self.string(data, nameFrom, i))> does not match <\(tag)> (opened at line \(rows.line[top]), column \(rows.column[top]))")
        }
        while i < n, Self.isSpace(data[i]) { i = try pass(data, i) }
        guard i < n else { throw eof(data, top, inside: "the end tag </\(tag)>") }
        guard data[i] == UInt8(ascii: ">") else { throw error(at: i, data, "\">\" was expected to end </\(tag)>") }
        return i + 1
    }

    /// A name (XML's Name production; characters at or over U+0080 are taken as name characters).
    private mutating func name(_ data: UnsafeBufferPointer<UInt8>, from start: Int, what: String) throws(ImportError) -> Int {
        let n = data.count
        var i = start
        guard i < n else { throw eof(data, -1, inside: nil) }
        let b = data[i]
        guard Self.isNameStart(b) else { throw error(at: i, data, "\(what) was expected") }
        while i < n {
            if i + 16 <= n {
                // ASCII name characters 16 at a time (`cbytescan_not_name16`); the first other
                // byte ends the name, or is passed below when it is over ASCII.
                let m = cbytescan_not_name16(data.baseAddress! + i)
                if m == 0 { i += 16; continue }
                i += m.trailingZeroBitCount
            }
            let c = data[i]
            if c < 0x80 {
                guard Self.isNameASCII(c) else { break }
                i += 1
            } else {
                i = try pass(data, i)
            }
        }
        return i
    }

    /// An ASCII name character (letters, digits, `-`, `.`, `_`, `:`), by one bit of two words.
    @inline(__always) static func isNameASCII(_ c: UInt8) -> Bool {
        // 0x00–0x3F: "-" "." "0"–"9" ":"; 0x40–0x7F: "A"–"Z" "_" "a"–"z".
        let low: UInt64 = 0x07FF_6000_0000_0000, high: UInt64 = 0x07FF_FFFE_87FF_FFFE
        return c < 64 ? (low >> UInt64(c)) & 1 != 0 : c < 128 && (high >> UInt64(c & 63)) & 1 != 0
    }

    /// The spaces and line feeds among the 16 bytes at `i` (16 must be there), the lines passed
    /// counted from the line feeds' bits (`cbytescan_blanks16`): the offset after them, and
    /// whether another byte ended them there.
    @inline(__always)
    private mutating func passBlanks16(_ data: UnsafeBufferPointer<UInt8>, _ i: Int) -> (next: Int, stopped: Bool) {
        let m = Self.blanks16(data.baseAddress! + i)
        let stops = m & 0xFFFF
        let passed = stops == 0 ? 16 : stops.trailingZeroBitCount
        let feeds = (m >> 16) & ((1 << UInt32(passed)) &- 1)
        if feeds != 0 {
            line += feeds.nonzeroBitCount
            lineStart = i + (31 - feeds.leadingZeroBitCount) + 1
            continuations = 0
        }
        return (i + passed, stops != 0)
    }

    /// Text between tags: skipped (page sources keep what they say in attributes), but checked.
    private mutating func text(_ data: UnsafeBufferPointer<UInt8>, from start: Int, inElement: Bool, top: Int) throws(ImportError) -> Int {
        let n = data.count
        var i = start
        // Spaces and line feeds (the indentation between tags) 16 at a time; the first other
        // byte is read below.
        while i + 16 <= n {
            let (next, stopped) = passBlanks16(data, i)
            i = next
            if stopped { break }
        }
        while i < n {
            let b = data[i]
            if b == UInt8(ascii: "<") { return i }
            if !inElement, !Self.isSpace(b) {
                throw error(at: i, data, count == 0 ? "text before the root element" : "content after the root element (a page source has one root)")
            }
            if b == UInt8(ascii: "&") { i = try reference(data, at: i); continue }
            if b == UInt8(ascii: ">"), i >= start + 2, data[i - 1] == UInt8(ascii: "]"), data[i - 2] == UInt8(ascii: "]") {
                throw error(at: i - 2, data, "\"]]>\" in text")
            }
            if b >= 0x20, b < 0x80 { i += 1; continue }
            i = try pass(data, i)
        }
        return i
    }

    /// `<!-- … -->`; `--` may not appear inside.
    private mutating func comment(_ data: UnsafeBufferPointer<UInt8>, at start: Int, top: Int) throws(ImportError) -> Int {
        let n = data.count
        var i = start + 4
        while i < n {
            if data[i] == UInt8(ascii: "-"), i + 1 < n, data[i + 1] == UInt8(ascii: "-") {
                guard i + 2 < n else { break }
                guard data[i + 2] == UInt8(ascii: ">") else { throw error(at: i, data, "\"--\" inside a comment") }
                return i + 3
            }
            i = try pass(data, i)
        }
        throw eof(data, top, inside: "a comment")
    }

    /// Up to and past `end` (a processing instruction's `?>`, CDATA's `]]>`).
    private mutating func skip(_ data: UnsafeBufferPointer<UInt8>, from start: Int, until end: StaticString, what: String, top: Int) throws(ImportError) -> Int {
        let n = data.count
        var i = start
        let first = end.utf8Start[0]
        while i < n {
            if data[i] == first, Self.starts(data, at: i, end) { return i + end.utf8CodeUnitCount }
            i = try pass(data, i)
        }
        throw eof(data, top, inside: what)
    }

    /// An entity or character reference at `i` (its `&`): checked, and the offset after its `;`.
    private mutating func reference(_ data: UnsafeBufferPointer<UInt8>, at start: Int) throws(ImportError) -> Int {
        switch Self.decodeReference(data, at: start) {
        case .success(let (_, next)): return next
        case .failure(let why): throw error(at: start, data, why.message)
        }
    }

    struct ReferenceError: Error { var message: String }

    /// The scalar a reference at `start` stands for and the offset after it.
    static func decodeReference(_ data: UnsafeBufferPointer<UInt8>, at start: Int) -> Result<(Unicode.Scalar, Int), ReferenceError> {
        let n = data.count
        var end = start + 1
        while end < n, end - start <= 12, data[end] != UInt8(ascii: ";") { end += 1 }
        guard end < n, data[end] == UInt8(ascii: ";"), end > start + 1 else {
            return .failure(ReferenceError(message: "\"&\" that starts no reference (write &amp;)"))
        }
        let body = UnsafeBufferPointer(rebasing: data[(start + 1)..<end])
        if body[0] == UInt8(ascii: "#") {
            var value: UInt32 = 0
            var digits = 0
            let hex = body.count > 1 && body[1] == UInt8(ascii: "x")
            for b in body.dropFirst(hex ? 2 : 1) {
                let d: UInt32
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: d = UInt32(b - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: d = UInt32(b - UInt8(ascii: "A") + 10)
                default: return .failure(ReferenceError(message: "a character reference that is not a number"))
                }
                value = value &* (hex ? 16 : 10) &+ d
                digits += 1
                if value > 0x10FFFF { break }
            }
            guard digits > 0, let scalar = Unicode.Scalar(value), isXMLChar(value) else {
                return .failure(ReferenceError(message: "a character reference to a character XML does not allow"))
            }
            return .success((scalar, end + 1))
        }
        let named: [(String, Unicode.Scalar)] = [("amp", "&"), ("lt", "<"), ("gt", ">"), ("quot", "\""), ("apos", "'")]
        for (word, scalar) in named where word.utf8.elementsEqual(body) { return .success((scalar, end + 1)) }
        return .failure(ReferenceError(message: "an entity that is not declared (&\(string(data, start + 1, end));): only &amp; &lt; &gt; &quot; &apos; and character references are known"))
    }

    static func isXMLChar(_ v: UInt32) -> Bool {
        v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || (0x10000...0x10FFFF).contains(v)
    }

    // MARK: Bytes

    /// Eight bytes from `i` (which has 8 after it), the first in the low byte.
    @inline(__always)
    static func word(_ d: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(d.baseAddress! + i).loadUnaligned(as: UInt64.self))
    }

    /// A hash of an attribute name (bytes `from..<to`), for the check that no name is written
    /// twice in a tag: names with different hashes differ; names with the same are compared.
    @inline(__always)
    static func nameHash(_ d: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> UInt64 {
        let count = to - from
        var h = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        // The same bytes give the same hash wherever they are (near the end of the file the
        // word is put together byte by byte).
        var w: UInt64 = 0
        if from + 8 <= d.count {
            w = word(d, from)
            if count < 8 { w &= (1 << UInt64(count * 8)) &- 1 }
        } else {
            for k in 0..<min(count, 8) { w |= UInt64(d[from + k]) << UInt64(8 * k) }
        }
        h ^= w
        if count > 8 { h = (h &* 0xBF58_476D_1CE4_E5B9) ^ word(d, to - 8) }
        h = (h ^ (h >> 31)) &* 0x94D0_49BB_1331_11EB
        return h ^ (h >> 29)
    }

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }

    @inline(__always) static func isNameStart(_ b: UInt8) -> Bool {
        (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z")) || b == UInt8(ascii: "_") || b == UInt8(ascii: ":") || b >= 0x80
    }

    static func starts(_ data: UnsafeBufferPointer<UInt8>, at i: Int, _ s: StaticString) -> Bool {
        let k = s.utf8CodeUnitCount
        guard i + k <= data.count else { return false }
        for j in 0..<k where data[i + j] != s.utf8Start[j] { return false }
        return true
    }

    static func startsFolded(_ data: UnsafeBufferPointer<UInt8>, at i: Int, _ s: StaticString) -> Bool {
        let k = s.utf8CodeUnitCount
        guard i + k <= data.count else { return false }
        for j in 0..<k where data[i + j] & 0xDF != s.utf8Start[j] & 0xDF { return false }
        return true
    }

    static func same(_ d: UnsafeBufferPointer<UInt8>, _ a: UInt32, _ aEnd: UInt32, _ b: Int, _ bEnd: Int) -> Bool {
        let a = Int(a), aEnd = Int(aEnd)
        guard aEnd - a == bEnd - b else { return false }
        for k in 0..<(aEnd - a) where d[a + k] != d[b + k] { return false }
        return true
    }

    static func string(_ d: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: d[from..<to]), as: UTF8.self)
    }

    /// The tag's index in `tagNames`, its string made once per distinct tag.
    private mutating func tagIndex(_ d: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Int32 {
        // The last tags read, by their name's bits: a screen has few, repeated element after element.
        let slot = Int(Self.nameHash(d, from, to) >> 58)
        if recent.isEmpty { recent = Array(repeating: (0, 0, -1), count: 64) }
        let r = recent[slot]
        if r.to - r.from == to - from, r.id >= 0, Self.equal(d, r.from, from, to - from) { return r.id }
        let id = slowTagIndex(d, from, to)
        recent[slot] = (from, to, id)
        return id
    }

    private mutating func slowTagIndex(_ d: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Int32 {
        var hash: UInt64 = 14695981039346656037
        for k in from..<to { hash = (hash ^ UInt64(d[k])) &* 1099511628211 }
        if let known = tags[hash], Self.same(d, UInt32(known.from), UInt32(known.to), from, to) { return known.id }
        tagNames.append(String(decoding: UnsafeBufferPointer(rebasing: d[from..<to]), as: UTF8.self))
        tagPlaces.append(from..<to)
        tagASCII.append(!d[from..<to].contains(where: { $0 >= 0x80 }))
        let id = Int32(tagNames.count - 1)
        tags[hash] = (from, to, id)
        return id
    }
}

extension XMLScanner {
    /// An element not yet closed: its index in `rows` and how many children it has so far.
    struct OpenElement {
        var entry: Int
        var children: Int
    }
}

/// The memory the reader writes the attributes' spans into (and its memory of the previous
/// start tag's attributes, and of the elements not yet closed), freed with the page's table
/// (`PageTree`) that keeps it.
final class SpanTable {
    private(set) var base: UnsafeMutablePointer<AttributeSpan>
    /// `XMLScanner.Written` for the first 64 attributes of the previous start tag of each
    /// name (`slot`), 64 a name.
    let memo: UnsafeMutablePointer<XMLScanner.Written>
    /// How many attributes that tag had, -1 before the first.
    let counts: UnsafeMutablePointer<Int>
    /// The tag last met at each child position (the first 7, then the rest as one) under a
    /// parent of each slot (the top level as the last slot), -1 before any: page sources repeat
    /// their rows' shapes, so it is the next start tag's name more often than not.
    let guesses: UnsafeMutablePointer<Int32>
    static let slots = 65
    static let positions = 8
    /// The elements read (`XMLScanner.rows`).
    var rows = ElementColumns()
    /// The elements not yet closed, the innermost last (`XMLScanner.scan`), room for `openCapacity`.
    private(set) var open: UnsafeMutablePointer<XMLScanner.OpenElement>
    private(set) var openCapacity = 64

    /// Twice the room for open elements, those there kept.
    func growOpen() {
        let bigger = UnsafeMutablePointer<XMLScanner.OpenElement>.allocate(capacity: openCapacity * 2)
        bigger.moveInitialize(from: open, count: openCapacity)
        open.deallocate()
        open = bigger
        openCapacity *= 2
    }

    /// A tag's memory: one for each of the first 64 names, one for all the others.
    @inline(__always) static func slot(_ tag: Int32) -> Int { min(Int(tag), slots - 1) }

    init() {
        base = UnsafeMutablePointer<AttributeSpan>.allocate(capacity: 0)
        // Read only where written (`counts` says how many).
        memo = UnsafeMutablePointer<XMLScanner.Written>.allocate(capacity: 64 * Self.slots)
        counts = UnsafeMutablePointer<Int>.allocate(capacity: Self.slots)
        counts.initialize(repeating: -1, count: Self.slots)
        guesses = UnsafeMutablePointer<Int32>.allocate(capacity: Self.slots * Self.positions)
        guesses.initialize(repeating: -1, count: Self.slots * Self.positions)
        open = UnsafeMutablePointer<XMLScanner.OpenElement>.allocate(capacity: openCapacity)
    }

    /// Moves the first `count` spans into memory for `capacity`.
    func resize(_ capacity: Int, keeping count: Int) {
        let bigger = UnsafeMutablePointer<AttributeSpan>.allocate(capacity: capacity)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
    }

    deinit {
        base.deallocate()
        memo.deallocate()
        counts.deallocate()
        guesses.deallocate()
        open.deallocate()
        rows.free()
    }
}

/// Where an attribute's name and value are in the file (the value without its quotes); `raw`
/// when the value holds a reference or a tab or line break, so reading it means decoding it.
/// Sixteen bytes: `raw` is the high bit of the value's end (a page source is under 2 GB), so a
/// run's spans are copied and shifted four words at a time (`XMLScanner.remembered`).
struct AttributeSpan: Sendable, Hashable {
    var nameFrom: UInt32
    var nameTo: UInt32
    var valueFrom: UInt32
    /// `valueTo`, and `raw` in the high bit.
    private var valueEnd: UInt32

    var valueTo: UInt32 { valueEnd & 0x7FFF_FFFF }
    var raw: Bool { valueEnd >> 31 != 0 }

    @inline(__always)
    init(nameFrom: UInt32, nameTo: UInt32, valueFrom: UInt32, valueTo: UInt32, raw: Bool) {
        self.nameFrom = nameFrom; self.nameTo = nameTo; self.valueFrom = valueFrom
        valueEnd = valueTo | (raw ? 0x8000_0000 : 0)
    }

    /// The same name and value read `shift` bytes further on (the same text written there):
    /// each word moved by `shift` (the value's end stays under 2 GB, so `raw`'s bit is kept).
    @inline(__always)
    func shifted(by shift: UInt32) -> AttributeSpan {
        var s = self
        s.nameFrom &+= shift; s.nameTo &+= shift; s.valueFrom &+= shift; s.valueEnd &+= shift
        return s
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
