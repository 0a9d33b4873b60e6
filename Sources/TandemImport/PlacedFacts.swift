import CByteScan

/// Facts of an element's attributes (`AndroidFacts`, `IOSFacts`) that can also be read by
/// place: an element whose attribute names are those of the previous element of its tag
/// (`PageTree.sameNames`) has each attribute where that element had it, so only its flags'
/// values are read (Docs/import.md#speed). Each rule set says which attributes it reads and
/// where they are (`Places`); finding the places once a run, and taking them for the rest of
/// the run, is here.
protocol PlacedFacts {
    /// Where each attribute the rules read is among an element's attributes, counted from the
    /// first (-1 when not written), with the places of its flags.
    associatedtype Places
    /// The places before any element of a tag was read.
    static var unplaced: Places { get }
    /// Element `i` read by name; where each attribute was, in `places`.
    init(_ tree: PageTree, _ i: Int, _ d: UnsafeBufferPointer<UInt8>, places: inout Places)
    /// Element `i`, whose attribute names are those `places` was made from.
    init(_ tree: PageTree, _ i: Int, _ d: UnsafeBufferPointer<UInt8>, places: Places)
}

extension PlacedFacts {
    /// Every element's facts: read by name where an element's names differ from the previous
    /// element of its tag's, by place where they are the same (`RepeatedNamesTests` checks both
    /// find the same).
    static func all(_ tree: PageTree) -> [Self] {
        tree.bytes.withUnsafeBufferPointer { d in
            var places = [Places](repeating: unplaced, count: SpanTable.slots)
            let n = tree.count
            return places.withUnsafeMutableBufferPointer { places in
                (0..<n).map { i in
                    tree.prefetchAttributesAhead(i, of: n, d)
                    return at(i, tree, d, places.baseAddress!)
                }
            }
        }
    }

    /// Element `i`'s facts, a step of `all`: by place when its names are those of the previous
    /// element of its tag's (`places`: one a slot, `SpanTable.slots`), else by name.
    @inline(__always)
    static func at(_ i: Int, _ tree: PageTree, _ d: UnsafeBufferPointer<UInt8>, _ places: UnsafeMutablePointer<Places>) -> Self {
        let slot = tree.slot(i)
        return tree.sameNames[i] ? Self(tree, i, d, places: places[slot]) : Self(tree, i, d, places: &places[slot])
    }
}

extension PageTree {
    // The rules read the page after the reader has passed all of it: its bytes and spans are
    // out of the cache by then, so a pass in document order asks for a node's lines some nodes
    // ahead: first its spans (found from `attributes` alone), some nodes later the bytes those
    // spans point at (Docs/benchmarks.md#import-stop-30).

    /// At element `i` of a pass over all `n`: asks for element `i + 12`'s attribute spans and
    /// element `i + 6`'s attributes' bytes.
    @inline(__always)
    func prefetchAttributesAhead(_ i: Int, of n: Int, _ d: UnsafeBufferPointer<UInt8>) {
        if i + 12 < n {
            let a = attributes[i + 12]
            var p = UnsafeRawPointer(spans.baseAddress! + Int(a.lowerBound))
            let end = UnsafeRawPointer(spans.baseAddress! + Int(a.upperBound))
            while p < end { cbytescan_prefetch(p); p += 64 }
        }
        if i + 6 < n {
            let a = attributes[i + 6]
            guard a.lowerBound < a.upperBound else { return }
            var b = Int(spans[Int(a.lowerBound)].nameFrom)
            let end = Int(spans[Int(a.upperBound) - 1].valueTo)
            while b <= end { cbytescan_prefetch(d.baseAddress! + b); b += 64 }
        }
    }

    /// At element `i` of a pass over all `n` that reads one attribute of each (`span`, -1 when
    /// not written): asks for element `i + 16`'s span of it and element `i + 8`'s value bytes.
    @inline(__always)
    func prefetchValueAhead(_ i: Int, of n: Int, _ d: UnsafeBufferPointer<UInt8>, _ span: (Int) -> Int32) {
        if i + 16 < n {
            let s = span(i + 16)
            if s >= 0 { cbytescan_prefetch(spans.baseAddress! + Int(s)) }
        }
        if i + 8 < n {
            let s = span(i + 8)
            if s >= 0 { cbytescan_prefetch(d.baseAddress! + Int(spans[Int(s)].valueFrom)) }
        }
    }

    /// The flags among element `i`'s attributes (`flag` tells a flag's bit from its name), each
    /// with its place counted from the element's first attribute.
    func flagPlaces<Bit>(of i: Int, _ d: UnsafeBufferPointer<UInt8>, flag: (NameKey) -> Bit?) -> [(bit: Bit, at: Int32)] {
        let first = attributes[i].lowerBound
        var out: [(bit: Bit, at: Int32)] = []
        for k in attributes[i] {
            if let bit = flag(NameKey(d, spans[Int(k)])) { out.append((bit, k - first)) }
        }
        return out
    }

    /// The bits of the flags at `places` (`flagPlaces`) that element `i` sets true.
    @inline(__always)
    func flagsOn<Bit: FixedWidthInteger>(of i: Int, _ d: UnsafeBufferPointer<UInt8>, at places: [(bit: Bit, at: Int32)]) -> Bit {
        let first = attributes[i].lowerBound
        var on: Bit = 0
        for (bit, k) in places {
            let span = Int(first + k)
            if isTrue(d, spans[span], span) { on |= bit }
        }
        return on
    }
}
