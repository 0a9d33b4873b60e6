import TandemModel

/// An element as a platform's rules made it, before it has an id: what it says (in a
/// catalog `Element` whose id, parent and children are not set yet), what its id should be
/// made from, where it was written, and the elements inside it.
struct ImportedNode {
    var element: Element
    /// The identifier or text the id is made from (`ic_close_24`, `Sign in`); made unique later.
    var idHint: String
    var source: SourceLocation
    var children: [ImportedNode] = []

    init(element: Element, idHint: String, source: SourceLocation, children: [ImportedNode] = []) {
        self.element = element; self.idHint = idHint; self.source = source; self.children = children
    }

    /// Whether VoiceOver stops on it (the rules make stops accessible and every container not).
    var isStop: Bool { element.accessible == true }
}

/// Ids unique in a catalog: made from an identifier or a label, lower case, words joined by
/// `-`; a repeated one gets `-2`, `-3`… in document order (Docs/import.md#ids).
struct IDMaker {
    private var used: Set<String> = []
    /// The next number to try for each base (a list of 10,000 rows with one resource id).
    private var next: [String: Int] = [:]

    mutating func make(_ hint: String) -> String {
        var base = Self.slug(hint)
        if base.isEmpty { base = "element" }
        var id = base
        var n = next[base, default: 2]
        while used.contains(id) {
            id = "\(base)-\(n)"
            n += 1
        }
        if id != base { next[base] = n }
        used.insert(id)
        return id
    }

    /// Letters and digits kept (lower case, any script), every other run of characters one `-`;
    /// at most 40 characters.
    static func slug(_ s: String) -> String {
        // ASCII (nearly every identifier and label): the same rule on bytes, without Characters.
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            var out: [UInt8] = []
            out.reserveCapacity(min(s.utf8.count, 40))
            var dash = false
            for b in s.utf8 {
                let lower = b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b
                if (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || (lower >= UInt8(ascii: "0") && lower <= UInt8(ascii: "9")) {
                    if dash, !out.isEmpty { out.append(UInt8(ascii: "-")) }
                    out.append(lower)
                    dash = false
                } else {
                    dash = true
                }
                if out.count >= 40 { break }
            }
            return String(decoding: out, as: UTF8.self)
        }
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
}

/// A screen's elements in the catalog's flat table (pre-order), with each one's source.
struct ScreenTable {
    var elements: [Element] = []
    var sources: [SourceLocation] = []

    mutating func add(_ node: ImportedNode, parent: Int?, ids: inout IDMaker) {
        var e = node.element
        e.id = ids.make(node.idHint)
        e.parent = parent
        let me = elements.count
        elements.append(e)
        sources.append(node.source)
        var kids: [Int] = []
        for c in node.children {
            kids.append(elements.count)
            add(c, parent: me, ids: &ids)
        }
        elements[me].children = kids
    }
}
