import TandemModel

/// Ids unique in a catalog: made from an identifier or a label, lower case, words joined by
/// `-`; a repeated one gets `-2`, `-3`… in document order (Docs/import.md#ids).
struct IDMaker {
    /// Every id made, with the index of its element in its screen's table (0 for ids made by
    /// `make(_:)`): while only one screen's ids are in it, it is that screen's id index
    /// (`index`), built as the ids are made instead of hashing each id again in `Screen.init`.
    private var used: [String: Int] = [:]
    /// The next number to try for each base (a list of 10,000 rows with one resource id).
    private var next: [String: Int] = [:]
    /// The base last found taken, with its next number (kept here, not in `next`, while it
    /// repeats: a list's rows one after another make no lookup for the taken base).
    private var repeated: (base: String, next: Int)?

    /// Whether no id has been made yet.
    var isEmpty: Bool { used.isEmpty }

    /// Every id made, each with its element's index: the id index of the screen whose ids
    /// were made first, while no other ids have been made.
    var index: [String: Int] { used }

    /// Room for `count` more ids without growing the set on the way.
    mutating func reserve(_ count: Int) { used.reserveCapacity(used.count + count) }

    mutating func make(_ hint: String) -> String { make(slugged: Self.slug(hint), element: 0) }

    /// The id for element `element` from its hint's slug (`slug`).
    mutating func make(slugged: String, element: Int) -> String {
        var base = slugged
        if base.isEmpty { base = "element" }
        // The same base as the last one taken: taken still (ids are never given back).
        if repeated?.base == base { return Self.firstFree(base, element, in: &used, from: &repeated!.next) }
        if used.insertIfAbsent(base, element) == nil { return base }   // the usual case: one lookup
        // Taken: the first free `base-N`, from where the last search for this base stopped;
        // the base before it keeps its number in `next` again.
        if let (before, n) = repeated { next[before] = n }
        repeated = (base, next[base] ?? 2)
        return Self.firstFree(base, element, in: &used, from: &repeated!.next)
    }

    private static func firstFree(_ base: String, _ element: Int, in used: inout [String: Int], from n: inout Int) -> String {
        var id: String
        repeat {
            id = numbered(base, n)
            n += 1
        } while used.insertIfAbsent(id, element) != nil
        return id
    }

    /// `base-n`, made from the bytes (what `"\(base)-\(n)"` makes, without the interpolation).
    static func numbered(_ base: String, _ n: Int) -> String {
        var base = base
        return base.withUTF8 { b in
            var digits = 1
            var rest = n.magnitude / 10
            while rest > 0 { digits += 1; rest /= 10 }
            let sign = n < 0 ? 1 : 0
            let count = b.count + 1 + sign + digits
            // The base, "-", the sign and the digits written once into the string (a short id
            // in ASCII is made in place, with no check of its bytes beyond that).
            return String(unsafeUninitializedCapacity: count) { out -> Int in
                if b.count > 0 { UnsafeMutableRawPointer(out.baseAddress!).copyMemory(from: b.baseAddress!, byteCount: b.count) }
                out[b.count] = UInt8(ascii: "-")
                if sign == 1 { out[b.count + 1] = UInt8(ascii: "-") }
                var magnitude = n.magnitude
                var at = count
                repeat {
                    at -= 1
                    out[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                } while magnitude > 0
                return count
            }
        }
    }

    /// Letters and digits kept (lower case, any script), every other run of characters one `-`;
    /// at most 40 characters.
    static func slug(_ s: String) -> String {
        // ASCII (nearly every identifier and label): the same rule on bytes, without Characters.
        var text = s
        if let ascii = text.withUTF8({ slug(ascii: $0) }) { return ascii }
        var out = ""
        var dash = false
        for ch in s.lowercased() {
            if ch.isLetter || ch.isNumber {
                if dash, !out.isEmpty { out.append("-") }
                out.append(ch)
                dash = false
            } else {
                dash = true
            }
            if out.count >= 40 { break }
        }
        return out
    }

    /// `slug` of the text whose UTF-8 bytes are `u`, made in one pass over the bytes when they
    /// are all ASCII (each byte a character: letters and digits are `A-Z a-z 0-9`); `nil` at the
    /// first byte over ASCII (the rule for any script applies then).
    static func slug(ascii u: UnsafeBufferPointer<UInt8>) -> String? {
        let n = u.count
        guard n > 0 else { return "" }
        let p = u.baseAddress!
        // Built in place (at most 40 letters and digits, each after at most one dash).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 80) { buffer -> String? in
            slugTable.withUnsafeBufferPointer { table -> String? in
                let out = buffer.baseAddress!
                var count = 0
                var dash = false
                var k = 0
                while k < n {
                    let c = table[Int(p[k])]
                    k += 1
                    if c == 0 { dash = true; continue }
                    if c == 0xFF { return nil }
                    if dash, count > 0 { out[count] = UInt8(ascii: "-"); count += 1 }
                    out[count] = c
                    count += 1
                    dash = false
                    if count >= 40 {
                        // The rest decides only whether the text is ASCII (the rule for any
                        // script applies to the whole text otherwise).
                        while k < n { if p[k] >= 0x80 { return nil }; k += 1 }
                        break
                    }
                }
                return String(decoding: UnsafeBufferPointer(start: out, count: count), as: UTF8.self)
            }
        }
    }

    /// What `slug(ascii:)` does with each byte: a letter or digit as it is kept (lower case),
    /// 0 for any other ASCII character (a dash before the next letter or digit), 0xFF over ASCII.
    private static let slugTable: [UInt8] = (0..<256).map { (b: Int) -> UInt8 in
        if b >= 0x80 { return 0xFF }
        let c = UInt8(b)
        if c >= UInt8(ascii: "A"), c <= UInt8(ascii: "Z") { return c | 0x20 }
        if (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) { return c }
        return 0
    }
}

extension Dictionary where Value == Int {
    /// Stores `value` for `key` unless the key is there already (values are never negative);
    /// returns the value that was there. One hash lookup either way.
    @inline(__always)
    fileprivate mutating func insertIfAbsent(_ key: Key, _ value: Int) -> Int? {
        func keep(_ slot: inout Int) -> Int? {
            if slot < 0 { slot = value; return nil }
            return slot
        }
        return keep(&self[key, default: -1])
    }
}

/// What an element's id is made from: a text, or an attribute's value in the page (its slug
/// made from the page's bytes, no string made for the value itself).
enum IDHint {
    case text(String)
    /// A span of the page (`PageTree.spans`): its value, or with `skip` above 0 the part of it
    /// after its first `skip` bytes, for a value written in plain ASCII (not `raw`): a resource
    /// id's name after `:id/`. (One case for both: a third case made every hint copied with a
    /// retain of its own, more than the iOS ids' whole saving.)
    case value(Int32, skip: Int32 = 0)
}

/// A screen's elements as the rules make them: the catalog's flat table in pre-order (each
/// element added after its parent and the elements before it), with where each came from and
/// what its id is to be made from (`IDMaker`, once the screen is whole).
struct ScreenBuilder {
    var elements: [Element] = []
    var sources: [SourceLocation] = []
    /// The identifier or text each id is made from (`ic_close_24`, `Sign in`).
    var hints: [IDHint] = []
    /// The page the `.value` hints are in.
    var page: PageTree?

    var count: Int { elements.count }

    /// Room for `count` elements (a page's node count: the most a screen can have), so the
    /// table is not copied as it grows.
    mutating func reserve(_ count: Int) {
        elements.reserveCapacity(count); sources.reserveCapacity(count); hints.reserveCapacity(count)
    }

    /// Adds `element` as the last child of `parent` (`nil`: the root); returns its index.
    @discardableResult
    mutating func add(_ element: consuming Element, hint: String, source: SourceLocation, parent: Int?) -> Int {
        add(element, id: .text(hint), source: source, parent: parent)
    }

    /// Adds `element` as the last child of `parent` (`nil`: the root), its id to be made from
    /// `id`; returns its index.
    @discardableResult
    mutating func add(_ element: consuming Element, id hint: IDHint, source: SourceLocation, parent: Int?) -> Int {
        element.parent = parent
        let me = elements.count
        elements.append(element)
        sources.append(source)
        hints.append(hint)
        if let parent { elements[parent].children.append(me) }
        return me
    }

    /// Takes back the last element added, which has no children (a container left empty).
    mutating func removeLast() {
        let e = elements.removeLast()
        sources.removeLast()
        hints.removeLast()
        if let p = e.parent { elements[p].children.removeLast() }
    }

    /// Gives every element its id, in table order (document order: the first of a repeated
    /// identifier keeps it). When these are the first ids `ids` makes, returns the screen's id
    /// index (each id with its element's index), made on the way (`Screen(…, index:)`).
    @discardableResult
    mutating func makeIDs(_ ids: inout IDMaker) -> [String: Int]? {
        let alone = ids.isEmpty
        ids.reserve(elements.count)
        if let page {
            page.bytes.withUnsafeBufferPointer { d in
                // The last resource id's name and its slug: the rows of a list that repeat one
                // resource id make its slug once (the same bytes make the same slug).
                var last: (from: Int, count: Int, slug: String)?
                for i in elements.indices { elements[i].id = ids.make(slugged: slug(hints[i], page, d, last: &last), element: i) }
            }
        } else {
            for i in elements.indices {
                guard case .text(let t) = hints[i] else { preconditionFailure("a hint in a page, and no page") }
                elements[i].id = ids.make(slugged: IDMaker.slug(t), element: i)
            }
        }
        return alone ? ids.index : nil
    }

    /// The slug of a hint: a value's from its bytes when they are plain ASCII (what the slug
    /// of `page.string(span)` is), else from its string.
    /// `last`: the last resource id's name (a `skip` above 0) and its slug, taken again for the
    /// same bytes and replaced by another.
    private func slug(_ hint: IDHint, _ page: PageTree, _ d: UnsafeBufferPointer<UInt8>, last: inout (from: Int, count: Int, slug: String)?) -> String {
        switch hint {
        case .text(let t):
            return IDMaker.slug(t)
        case .value(let span, let skip) where skip > 0:
            let s = page.spans[Int(span)]
            let from = Int(s.valueFrom) + Int(skip), count = Int(s.valueTo) - from
            if let last, last.count == count, XMLScanner.equal(d, last.from, from, count) { return last.slug }
            let part = UnsafeBufferPointer(start: d.baseAddress! + from, count: count)
            let slug = IDMaker.slug(ascii: part) ?? IDMaker.slug(String(decoding: part, as: UTF8.self))
            last = (from, count, slug)
            return slug
        case .value(let span, _):
            let s = page.spans[Int(span)]
            if !s.raw, let ascii = IDMaker.slug(ascii: UnsafeBufferPointer(start: d.baseAddress! + Int(s.valueFrom), count: Int(s.valueTo - s.valueFrom))) {
                return ascii
            }
            return IDMaker.slug(page.string(Int(span)))
        }
    }

    /// Whether VoiceOver reaches anything: an accessible element (a stop) in the subtree of the
    /// last modal element in table order, or of the root when there is none. This is what
    /// `ReadingOrder` finds for the elements the rules make (every one says whether it is
    /// accessible, none is hidden), without sorting the screen (`ImportReachabilityTests`).
    var reachesAnything: Bool {
        guard !elements.isEmpty else { return false }
        let top = elements.indices.last(where: { elements[$0].modal }) ?? 0
        var pending = [top]
        while let i = pending.popLast() {
            if elements[i].accessible == true { return true }
            pending += elements[i].children
        }
        return false
    }
}
