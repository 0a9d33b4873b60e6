import TandemModel

/// Ids unique in a catalog: made from an identifier or a label, lower case, words joined by
/// `-`; a repeated one gets `-2`, `-3`… in document order (Docs/import.md#ids).
struct IDMaker {
    private var used: Set<String> = []
    /// The next number to try for each base (a list of 10,000 rows with one resource id).
    private var next: [String: Int] = [:]

    /// Room for `count` more ids without growing the set on the way.
    mutating func reserve(_ count: Int) { used.reserveCapacity(used.count + count) }

    mutating func make(_ hint: String) -> String {
        var base = Self.slug(hint)
        if base.isEmpty { base = "element" }
        if used.insert(base).inserted { return base }   // the usual case: one lookup
        // Taken: the first free `base-N`, from where the last search for this base stopped
        // (the number read and written back in one lookup of `next`).
        return Self.firstFree(base, in: &used, from: &next[base, default: 2])
    }

    private static func firstFree(_ base: String, in used: inout Set<String>, from n: inout Int) -> String {
        var id: String
        repeat {
            id = numbered(base, n)
            n += 1
        } while !used.insert(id).inserted
        return id
    }

    /// `base-n`, made from the bytes (what `"\(base)-\(n)"` makes, without the interpolation).
    static func numbered(_ base: String, _ n: Int) -> String {
        var base = base
        return base.withUTF8 { b in
            // The base, "-" and the number's digits (at most 20, and its sign), written once.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: b.count + 22) { out -> String in
                var count = b.count
                if count > 0 { UnsafeMutableRawPointer(out.baseAddress!).copyMemory(from: b.baseAddress!, byteCount: count) }
                out[count] = UInt8(ascii: "-")
                count += 1
                var magnitude = n.magnitude
                if n < 0 { out[count] = UInt8(ascii: "-"); count += 1 }
                let digitsFrom = count
                repeat {
                    out[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                    count += 1
                } while magnitude > 0
                var digits = UnsafeMutableBufferPointer(rebasing: out[digitsFrom..<count])
                digits.reverse()
                return String(decoding: UnsafeBufferPointer(rebasing: out[0..<count]), as: UTF8.self)
            }
        }
    }

    /// Letters and digits kept (lower case, any script), every other run of characters one `-`;
    /// at most 40 characters.
    static func slug(_ s: String) -> String {
        // ASCII (nearly every identifier and label): the same rule on bytes, without Characters,
        // in one pass over the string's own bytes (`nil` at the first byte over ASCII).
        var text = s
        let ascii: String? = text.withUTF8 { u in
            // Built in place (at most 40 letters and digits, each after at most one dash).
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 80) { out -> String? in
                var count = 0
                var dash = false
                var k = 0
                while k < u.count {
                    let b = u[k]
                    k += 1
                    if b >= 0x80 { return nil }
                    let lower = b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b
                    if (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || (lower >= UInt8(ascii: "0") && lower <= UInt8(ascii: "9")) {
                        if dash, count > 0 { out[count] = UInt8(ascii: "-"); count += 1 }
                        out[count] = lower
                        count += 1
                        dash = false
                    } else {
                        dash = true
                    }
                    if count >= 40 {
                        // The rest decides only whether the string is ASCII (the slow path's rule
                        // applies to the whole string otherwise).
                        while k < u.count { if u[k] >= 0x80 { return nil }; k += 1 }
                        break
                    }
                }
                return String(decoding: UnsafeBufferPointer(rebasing: out[0..<count]), as: UTF8.self)
            }
        }
        if let ascii { return ascii }
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

/// A screen's elements as the rules make them: the catalog's flat table in pre-order (each
/// element added after its parent and the elements before it), with where each came from and
/// what its id is to be made from (`IDMaker`, once the screen is whole).
struct ScreenBuilder {
    var elements: [Element] = []
    var sources: [SourceLocation] = []
    /// The identifier or text each id is made from (`ic_close_24`, `Sign in`).
    var hints: [String] = []

    var count: Int { elements.count }

    /// Room for `count` elements (a page's node count: the most a screen can have), so the
    /// table is not copied as it grows.
    mutating func reserve(_ count: Int) {
        elements.reserveCapacity(count); sources.reserveCapacity(count); hints.reserveCapacity(count)
    }

    /// Adds `element` as the last child of `parent` (`nil`: the root); returns its index.
    @discardableResult
    mutating func add(_ element: consuming Element, hint: String, source: SourceLocation, parent: Int?) -> Int {
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
    /// identifier keeps it).
    mutating func makeIDs(_ ids: inout IDMaker) {
        ids.reserve(elements.count)
        for i in elements.indices { elements[i].id = ids.make(hints[i]) }
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
