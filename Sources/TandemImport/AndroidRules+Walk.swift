import Foundation
import TandemModel

/// The walk over a UiAutomator page (`AndroidRules.screen` works out what it reads of each
/// node first): the stops TalkBack reaches, TalkBack's merge, and what each id is made from.
extension AndroidRules {
    /// The page while `screen` walks it: the tree, and its bytes, spans, subtrees and each node's
    /// facts, what the walk reads of it and its frame, as pointers into memory `screen` keeps for
    /// the walk (no array retained or checked a read).
    struct Page {
        let tree: PageTree
        let d: UnsafeBufferPointer<UInt8>
        let spans: UnsafeBufferPointer<AttributeSpan>
        let end: UnsafeBufferPointer<Int32>
        let facts: UnsafeBufferPointer<AndroidFacts>
        let nodes: UnsafeBufferPointer<NodeInfo>
        /// Each node's bounds in pixels, and the pixels-to-points table its frame is made with.
        let pixels: UnsafeBufferPointer<(Double, Double, Double, Double)?>
        let points: Points
        /// The last resource id whose name `idHint` found, in memory `screen` keeps: a list's
        /// rows repeat one resource id, found again with one compare of its bytes.
        let lastResourceID: UnsafeMutablePointer<ResourceIDName>

        /// The row after node `i`'s subtree: its first child is `i + 1` when that is before it,
        /// and a child's next sibling is at the child's `stop`.
        @inline(__always) func stop(_ i: Int) -> Int { Int(end[i]) }

        @inline(__always) func string(_ span: Int32) -> String { tree.string(span, d) }

        /// Node `i`'s frame in points, made for the nodes that become elements.
        @inline(__always) func frame(_ i: Int) -> Frame? { AndroidRules.frame(pixels[i], points) }

        /// Whether a child of node `i` is on screen.
        func hasShownChild(_ i: Int) -> Bool {
            var c = i + 1
            while c < stop(i) {
                if nodes[c].shown { return true }
                c = stop(c)
            }
            return false
        }
    }

    /// What node `i` becomes, added to `out` under `parent`. `taken`: an actionable ancestor
    /// speaks for the non-actionable nodes under it (TalkBack's merge), so they are not stops.
    /// Each stop is built in place in the screen's table (no element copied).
    static func node(_ i: Int, taken: Bool, parent: Int, into out: inout ScreenBuilder, _ p: Page) {
        let info = p.nodes[i]
        let kind = info.kind
        let after = p.stop(i)   // the row after its subtree
        if info.actionable {
            let me = out.add(Element(id: ""), id: idHint(i, p), source: p.tree.location(i), parent: parent)
            stop(&out.elements[me], i, kind, p)
            merge(i, into: &out.elements[me], p)
            // TalkBack passes over a focusable node with nothing to say when it has children on
            // screen (only a leaf is a stop without words): a two-target row's widget frame,
            // Flutter's focusable root view (Docs/import.md#android-silent).
            if out.elements[me].label == nil, out.elements[me].value == nil, out.elements[me].hint == nil, !p.facts[i].isOn(.checkable),
               p.hasShownChild(i) {
                out.removeLast()
                var c = i + 1
                while c < after { node(c, taken: taken, parent: parent, into: &out, p); c = p.stop(c) }
                return
            }
            // Merged into the stop unless actionable itself: nothing else inside is walked to.
            guard info.actionableInside else { return }
            var c = i + 1
            while c < after { node(c, taken: true, parent: parent, into: &out, p); c = p.stop(c) }
            return
        }
        let speaks = info.speaksDescription || info.speaksText || p.facts[i].isOn(.checkable)
        if !taken, info.shown, speaks, kind != .list, kind != .tabBar {
            let me = out.add(Element(id: ""), id: idHint(i, p), source: p.tree.location(i), parent: parent)
            stop(&out.elements[me], i, kind, p)
            var c = i + 1
            while c < after { node(c, taken: false, parent: parent, into: &out, p); c = p.stop(c) }
            return
        }
        if kind == .tabBar || kind == .list {
            var e = Element(id: "")
            e.accessible = false
            e.frame = p.frame(i)
            if kind == .tabBar { e.traits = .tabBar }
            // A scrolling list scrolls on a three-finger swipe; what comes into view, the dump
            // cannot say (lint: a scroll view is no overlay, Docs/lint.md#overlay-not-modal).
            if kind == .list { e.scrollUp = []; e.scrollDown = [] }
            let me = out.add(e, id: idHint(i, p), source: p.tree.location(i), parent: parent)
            var c = i + 1
            while c < after { node(c, taken: taken, parent: me, into: &out, p); c = p.stop(c) }
            if out.count == me + 1 { out.removeLast() }   // nothing inside: no container
            return
        }
        var c = i + 1
        while c < after { node(c, taken: taken, parent: parent, into: &out, p); c = p.stop(c) }
    }

    /// Where a resource id's name starts and whether it is ASCII (`resourceName`), for the
    /// value at `from` of `count` bytes (`count` -1: none yet), which is the resource id's text
    /// in node `owner` (-1: none known).
    struct ResourceIDName {
        var from = 0, count = -1, start = 0
        var ascii = false
        var owner = -1
    }

    /// What the id is made from: the resource id's name (`com.example:id/save` → `save`), else
    /// the text, else the class. A value is taken from the page (`IDHint.value`, and the part
    /// after `:id/` of a resource id in plain ASCII, with its `skip`): no string made here.
    static func idHint(_ i: Int, _ p: Page) -> IDHint {
        let f = p.facts[i]
        if f.resourceID >= 0, !p.tree.isEmpty(Int(f.resourceID)) {
            // ASCII (every resource id in practice): the name after the first ":id/", found byte
            // by byte as `range(of:)` finds it; written plainly, a part of the page.
            let s = p.spans[Int(f.resourceID)]
            if !s.raw {
                // Whose text it is: the template's where the reader copied it (`PageTree.copied`),
                // so a list's rows find their row's resource id without reading its bytes.
                let place = Int(f.resourceID) - Int(p.tree.attributes[i].lowerBound)
                let t = Int(p.tree.template[i])
                let owner = t >= 0 && place < 64 && p.tree.copied[i] >> UInt64(place) & 1 != 0 ? t : i
                let from = Int(s.valueFrom), count = Int(s.valueTo) - from
                let last = p.lastResourceID
                if last.pointee.owner != owner {
                    if last.pointee.count != count || !XMLScanner.equal(p.d, last.pointee.from, from, count) {
                        let u = UnsafeBufferPointer(start: p.d.baseAddress! + from, count: count)
                        let (start, ascii) = resourceName(u, readable: p.d.count - from)
                        last.pointee = ResourceIDName(from: from, count: count, start: start, ascii: ascii)
                    }
                    last.pointee.owner = owner
                }
                if last.pointee.ascii { return .value(f.resourceID, skip: Int32(last.pointee.start)) }
            }
            // Decoded first (references, breaks) or over ASCII: as a string.
            let ascii = p.tree.withValue(Int(f.resourceID)) { u -> String? in
                guard !u.contains(where: { $0 >= 0x80 }) else { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: u[nameStart(u)...]), as: UTF8.self)
            }
            if let ascii { return .text(ascii) }
            let r = p.tree.string(Int(f.resourceID))
            return .text(r.range(of: ":id/").map { String(r[$0.upperBound...]) } ?? r)
        }
        if p.nodes[i].speaksDescription { return .value(f.description) }
        if p.nodes[i].speaksText { return .value(f.text) }
        return .text(simpleName(p.tree, i, f))
    }

    /// `nameStart(u)` and whether every byte of `u` is ASCII, eight bytes a step (`readable`:
    /// how many bytes from `u`'s start may be read, the rest of the page): each ":" found in a
    /// word by the zero-byte test, then compared byte by byte with ":id/".
    @inline(__always)
    static func resourceName(_ u: UnsafeBufferPointer<UInt8>, readable: Int) -> (start: Int, ascii: Bool) {
        let n = u.count
        guard n > 0, let p = u.baseAddress else { return (0, true) }
        var start = 0
        var high: UInt64 = 0
        var k = 0
        while k < n {
            var w: UInt64 = 0
            if k + 8 <= readable {
                w = UInt64(littleEndian: UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self))
            } else {
                for b in 0..<min(8, n - k) { w |= UInt64(p[k + b]) << UInt64(8 * b) }
            }
            if n - k < 8 { w &= (1 << UInt64(8 * (n - k))) &- 1 }   // the bytes after the value: zeros
            high |= w
            if start == 0 {
                // A zero byte where a ":" is (and some false ones above a zero, checked below).
                let z = w ^ 0x3A3A_3A3A_3A3A_3A3A
                var colons = (z &- 0x0101_0101_0101_0101) & ~z & 0x8080_8080_8080_8080
                while colons != 0 {
                    let j = k + colons.trailingZeroBitCount >> 3
                    if j + 4 <= n, p[j] == UInt8(ascii: ":"), p[j + 1] == UInt8(ascii: "i"), p[j + 2] == UInt8(ascii: "d"), p[j + 3] == UInt8(ascii: "/") {
                        start = j + 4
                        break
                    }
                    colons &= colons &- 1
                }
            }
            k += 8
        }
        return (start, high & 0x8080_8080_8080_8080 == 0)
    }

    /// Where a resource id's name starts: after its first ":id/" (`com.example:id/save`), else 0.
    @inline(__always)
    static func nameStart(_ u: UnsafeBufferPointer<UInt8>) -> Int {
        guard u.count >= 4 else { return 0 }
        for k in 0...(u.count - 4) where u[k] == UInt8(ascii: ":") && u[k + 1] == UInt8(ascii: "i") && u[k + 2] == UInt8(ascii: "d") && u[k + 3] == UInt8(ascii: "/") {
            return k + 4
        }
        return 0
    }

    /// A stop with what it says of itself, written into `e`, a new element already in the
    /// screen's table.
    static func stop(_ e: inout Element, _ i: Int, _ kind: AndroidRole.Kind, _ p: Page) {
        let f = p.facts[i]
        let info = p.nodes[i]
        e.accessible = true
        e.frame = p.frame(i)
        var traits = AndroidRole(kind: kind).traits
        let description = info.speaksDescription ? p.string(f.description) : nil
        let text = info.speaksText ? p.string(f.text) : nil
        let hint = f.hint >= 0 && p.tree.hasText(Int(f.hint)) ? p.string(f.hint) : nil
        var label: String?
        var value: String?
        if kind == .textField || f.isOn(.password) {
            traits.insert(.textField)
            if f.isOn(.password) { traits.insert(.secureTextField) }
            // An empty field's text is its hint in a dump: the hint labels it, as the placeholder.
            label = description ?? hint
            if let text, text != hint { value = text }
            if label == nil, value == nil, let text { label = text }
        } else {
            label = description ?? text
            e.hint = hint
        }
        if kind == .progress {
            e.progress = Progress(label: nil, value: nil)
        }
        if kind == .adjustable {
            // A seek bar's text is its position.
            label = description
            value = text
        }
        // TalkBack's role for a clickable ImageView is an image button: it says "button".
        if kind == .image, f.isOn(.clickable) { traits = .button }
        if f.isOn(.checkable) || kind == .checkable {
            if kind == .radio {
                if f.isOn(.checked) { traits.insert(.selected) }
            } else {
                traits.formUnion([.button, .switchButton])
                value = f.isOn(.checked) ? "1" : "0"
            }
        }
        if f.isOn(.selected) { traits.insert(.selected) }
        if f.isOff(.enabled) { traits.insert(.notEnabled) }
        // Something happens on a double tap, though the dump cannot say what.
        if f.isOn(.clickable) || f.isOn(.longClickable), traits.isDisjoint(with: [.button, .link, .adjustable, .textField]) {
            e.activate = []
        }
        e.traits = traits
        e.label = label.map(LabelText.plain)
        e.value = value
    }

    /// TalkBack's merge: a focusable or clickable stop says the texts of the nodes inside it
    /// that do not take focus themselves, in document order, as one label; a checkable one
    /// among them gives the stop its state (Docs/import.md#android-merge). Each node is walked
    /// by the merge of its nearest actionable ancestor only (the walk stops at actionable nodes).
    static func merge(_ i: Int, into stop: inout Element, _ p: Page) {
        var checked: (Bool, radio: Bool)?
        let end = p.stop(i)
        // Labelled by what is inside it: not when it has a label or is a field.
        let labels = stop.label == nil && !stop.traits.contains(.textField)
        // The texts' spans, joined only when they label the stop: at most one a node inside.
        let label: String? = withUnsafeTemporaryAllocation(of: Int.self, capacity: max(end - i - 1, 1)) { texts -> String? in
            var count = 0
            // Document order is the table's order: the subtree of `n` is the rows up to
            // `end[n]`, so a node passed over with what is inside it is a jump there.
            var n = i + 1
            while n < end {
                let info = p.nodes[n]
                guard !info.actionable, info.shown else { n = p.stop(n); continue }
                let f = p.facts[n]
                if f.isOn(.checkable) || info.kind == .checkable { checked = (f.isOn(.checked), info.kind == .radio) }
                if info.speaksDescription {
                    texts[count] = Int(f.description); count += 1
                    n = p.stop(n)
                    continue
                }
                if info.speaksText { texts[count] = Int(f.text); count += 1 }
                n += 1
            }
            guard labels, count > 0 else { return nil }
            return p.tree.joined(UnsafeBufferPointer(rebasing: texts[0..<count]), separator: ", ")
        }
        if let label { stop.label = .plain(label) }
        if let (on, radio) = checked, stop.value == nil {
            if radio {
                if on { stop.traits.insert(.selected) }
            } else {
                stop.traits.formUnion([.button, .switchButton])
                stop.value = on ? "1" : "0"
            }
            if stop.traits.contains(.button) { stop.activate = nil }
        }
    }
}
