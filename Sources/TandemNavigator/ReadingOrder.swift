import TandemModel

/// The elements a user can reach on a screen, in VoiceOver's order (Docs/formats.md#reading-order),
/// kept so that a navigation step is a constant-time lookup and a change costs what it can move.
///
/// Filters, in AccessKit's manner: hidden subtrees are excluded; while a modal element is
/// shown only its subtree is in scope; an accessible element stands for its whole subtree.
///
/// The order is a concatenation of *scopes*: the root (or the shown modal), every container
/// that keeps its elements together (`group`, `order`, a tab bar, a `container` type), every
/// container an `order` names, and every modal container. A scope's
/// elements are contiguous in the order, so a change inside one is repaired by sorting that
/// scope again and splicing it in (`repair`), not by rebuilding the screen's order. Changes
/// that move nothing (a value, a label, most traits) cost nothing here.
public struct ReadingOrder: Sendable {
    /// Reachable elements (indices into `Screen.elements`) in navigation order.
    public private(set) var elements: [Int] = []
    /// Element index → position in `elements`, or -1 when unreachable.
    private var position: [Int32] = []
    /// Positions of elements with the `header` trait, ascending.
    public private(set) var headings: [Int] = []
    /// The shown modal element that scopes navigation, if any.
    public private(set) var modalRoot: Int?
    /// Whether each element is accessible (the default rule of Docs/formats.md#accessible applied).
    public private(set) var accessible: [Bool] = []
    /// Own frame, or the union of the children's frames.
    private(set) var frames: [Frame?] = []
    /// Container index → its scope: the first element and how many it has in `elements`.
    private(set) var scopes: [Int: Scope] = [:]
    let rightToLeft: Bool
    /// Frames whose tops are less than this many points apart are one row.
    let rowThreshold: Double

    struct Scope: Sendable {
        var first: Int?
        var count: Int
        /// Where the scope sorts among its cousins (its first element's frame); nil for the top.
        var key: Frame?
        /// Scopes directly inside this one (forgotten with it when it is sorted again).
        var inner: [Int]
    }

    /// `rowThreshold`: frames whose tops are less than this many points apart are one row
    /// (8 on a phone, 13 on a tablet; `Catalog.device`).
    public init(screen: Screen, language: String, rowThreshold: Double = Frame.phoneRowThreshold) {
        rightToLeft = Self.isRightToLeft(language)
        self.rowThreshold = rowThreshold
        computeAll(screen)
        rebuild(screen)
    }

    /// Position of an element in the order, or nil when it cannot be reached.
    public func position(of element: Int) -> Int? {
        guard element >= 0, element < position.count, position[element] >= 0 else { return nil }
        return Int(position[element])
    }

    public func contains(_ element: Int) -> Bool { position(of: element) != nil }

    /// Languages written right to left: frames in a row are read from the right.
    public static func isRightToLeft(_ language: String) -> Bool {
        let base = language.lowercased().split(separator: "-").first.map(String.init) ?? ""
        return ["ar", "he", "fa", "ur", "yi", "ps", "sd", "ug"].contains(base)
    }

    /// The non-hidden descendants of `element` in reading order (frames sorted as for
    /// navigation), used to label an accessible element that has no label of its own.
    public static func descendants(of element: Int, in screen: Screen, language: String,
                                   rowThreshold: Double = Frame.phoneRowThreshold) -> [Int] {
        var out: [Int] = []
        Units(screen: screen, rightToLeft: isRightToLeft(language), rowThreshold: rowThreshold).allDescendants(element, into: &out)
        return out
    }

    // MARK: building

    /// Accessibility and union frames of every element, children before parents.
    private mutating func computeAll(_ screen: Screen) {
        let n = screen.elements.count
        accessible = Array(repeating: false, count: n)
        frames = Array(repeating: nil, count: n)
        guard n > 0 else { return }
        for i in Self.postOrder(screen, from: 0) { _ = compute(i, screen) }
    }

    /// Recomputes one element's accessibility and frame from its children's; true when either changed.
    private mutating func compute(_ i: Int, _ screen: Screen) -> Bool {
        let e = screen.elements[i]
        var childAccessible = false
        var union: Frame?
        for c in e.children {
            if !screen.elements[c].hidden && accessible[c] { childAccessible = true }
            if let f = frames[c] { union = union.map { $0.union(f) } ?? f }
        }
        let a = e.accessible ?? (e.hasContent && !childAccessible)
        let f = e.frame ?? union
        defer { accessible[i] = a; frames[i] = f }
        return a != accessible[i] || f != frames[i]
    }

    /// The subtree of `root`, children before their parent (iterative: trees can be deep).
    static func postOrder(_ screen: Screen, from root: Int) -> [Int] {
        var out: [Int] = []
        var stack: [(Int, Int)] = [(root, 0)]
        while let (node, next) = stack.last {
            let kids = screen.elements[node].children
            if next < kids.count {
                stack[stack.count - 1].1 = next + 1
                stack.append((kids[next], 0))
            } else {
                out.append(node)
                stack.removeLast()
            }
        }
        return out
    }

    /// Builds the whole order again (the first time, or when the modal in front changed).
    private mutating func rebuild(_ screen: Screen) {
        scopes = [:]
        headings = []
        position = Array(repeating: -1, count: screen.elements.count)
        modalRoot = Self.topModal(screen)
        guard !screen.elements.isEmpty else { elements = []; return }
        let units = Units(screen: screen, rightToLeft: rightToLeft, rowThreshold: rowThreshold, accessible: accessible, frames: frames)
        var built = Built()
        units.top(modalRoot ?? 0, into: &built)
        elements = built.elements
        scopes = built.scopes
        for (p, e) in elements.enumerated() {
            position[e] = Int32(p)
            if screen.elements[e].traits.contains(.header) { headings.append(p) }
        }
    }

    // MARK: repairing after a change

    /// Brings the order up to date after elements changed: `changed` changed in place or are
    /// new (any field but their children), `restructured` got new children (elements no longer
    /// in the tree are gone from the screen's table already). `movesUnits`: some change can
    /// move something (see `changeMovesUnits`); otherwise only headings are looked at.
    ///
    /// Accessibility and frames are recomputed from each change up to the first ancestor they
    /// leave unchanged; then the smallest scope holding each change is sorted again. A change
    /// that moves nothing — a value, a label or a trait that flips neither accessibility nor
    /// the `header` trait — touches no scope at all.
    public mutating func repair(_ screen: Screen, changed: [Int], restructured: [Int], movesUnits: Bool) {
        if accessible.count < screen.elements.count {
            let grow = screen.elements.count - accessible.count
            accessible += repeatElement(false, count: grow)
            frames += repeatElement(nil, count: grow)
            position += repeatElement(-1, count: grow)
        }
        // Each change is recomputed, and so is its parent; further up only while accessibility
        // or a frame moved. The highest element that moved is where the order may move: the
        // scope around it is sorted again.
        var highest: [Int] = []
        for start in changed + restructured {
            var top = start
            var i: Int? = start
            var first = true
            while let x = i {
                let moved = compute(x, screen)
                if !first && !moved { break }
                if moved { top = x }
                first = false
                i = screen.elements[x].parent
            }
            highest.append(top)
        }
        if Self.topModal(screen) != modalRoot {
            rebuild(screen)
            return
        }
        guard movesUnits || !restructured.isEmpty else {
            for c in changed { updateHeading(c, screen) }
            return
        }
        var done: Set<Int> = []
        for d in highest {
            let s = scope(around: d, screen)
            if done.insert(s).inserted { sortAgain(s, screen) }
        }
    }

    /// Whether a change from `old` to `new` can move anything in the order (or only what is
    /// said about the element).
    public static func changeMovesUnits(from old: Element, to new: Element) -> Bool {
        old.frame != new.frame || old.hidden != new.hidden || old.modal != new.modal || old.group != new.group
            || old.order != new.order || old.accessible != new.accessible || old.hasContent != new.hasContent
            || old.container != new.container || old.traits.contains(.tabBar) != new.traits.contains(.tabBar)
    }

    /// The scope to sort again for a change of `element`: the nearest scope strictly above it
    /// (the element's own place among its parent's units may have moved), else the order's top.
    private func scope(around element: Int, _ screen: Screen) -> Int {
        let top = modalRoot ?? 0
        var i = element == top ? nil : screen.elements[element].parent
        while let x = i {
            if scopes[x] != nil { return x }
            if x == top { break }
            i = screen.elements[x].parent
        }
        return top
    }

    /// The header trait of an element that stayed where it was: add or remove its heading.
    private mutating func updateHeading(_ e: Int, _ screen: Screen) {
        guard let p = position(of: e) else { return }
        let isHeading = screen.elements[e].traits.contains(.header)
        let at = lowerBound(headings, p)
        let listed = at < headings.count && headings[at] == p
        if isHeading && !listed { headings.insert(p, at: at) }
        if !isHeading && listed { headings.remove(at: at) }
    }

    /// Sorts scope `s` again and splices its elements into the order.
    private mutating func sortAgain(_ s: Int, _ screen: Screen) {
        // The top scope is the whole order (and may itself have been hidden).
        guard s != (modalRoot ?? 0) else {
            rebuild(screen)
            return
        }
        guard let old = scopes[s] else {
            // Not a scope (yet): the top of the order is sorted from scratch.
            rebuild(screen)
            return
        }
        guard let first = old.first, let start = position(of: first) else {
            // An empty scope has no place in the order yet: sort the one around it.
            let outer = scope(around: s, screen)
            if outer == s || scopes[outer]?.first == nil { rebuild(screen) } else { sortAgain(outer, screen) }
            return
        }
        let range = start..<(start + old.count)
        guard range.upperBound <= elements.count else { rebuild(screen); return }
        // Scopes around this one, with where each starts, before anything moves.
        var around: [(container: Int, start: Int)] = []
        var a = screen.elements[s].parent
        while let x = a {
            if let f = scopes[x]?.first, let p = position(of: f) { around.append((x, p)) }
            a = screen.elements[x].parent
        }
        let keyBefore = old.key
        forget(innerScopesOf: s)
        for e in elements[range] { position[e] = -1 }
        let units = Units(screen: screen, rightToLeft: rightToLeft, rowThreshold: rowThreshold, accessible: accessible, frames: frames)
        var built = Built()
        units.scope(s, key: units.groupKey(s), into: &built)
        // An element an `order` elsewhere also lists would stand twice: build it all again.
        guard built.elements.allSatisfy({ position[$0] < 0 }) else { rebuild(screen); return }
        let delta = built.elements.count - range.count
        elements.replaceSubrange(range, with: built.elements)
        let end = delta == 0 ? range.upperBound : elements.count
        for p in start..<end { position[elements[p]] = Int32(p) }
        // Headings: those in the old range go; the new range's come; later ones shift.
        let lo = lowerBound(headings, range.lowerBound), hi = lowerBound(headings, range.upperBound)
        let fresh = built.elements.indices.filter { screen.elements[built.elements[$0]].traits.contains(.header) }.map { $0 + start }
        headings.replaceSubrange(lo..<hi, with: fresh)
        if delta != 0 { for k in (lo + fresh.count)..<headings.count { headings[k] += delta } }
        for (c, scope) in built.scopes { scopes[c] = scope }
        for (x, p) in around {
            scopes[x]!.count += delta
            scopes[x]!.first = scopes[x]!.count > 0 ? elements[p] : nil
        }
        // A group sorts among its cousins by its first element: when that moved, so may the
        // group, and the scope around it is sorted again.
        if scopes[s]?.key != keyBefore { sortAgain(scope(around: s, screen), screen) }
    }

    private mutating func forget(innerScopesOf s: Int) {
        guard let scope = scopes[s] else { return }
        for inner in scope.inner {
            forget(innerScopesOf: inner)
            scopes[inner] = nil
        }
    }

    private func lowerBound(_ sorted: [Int], _ value: Int) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    // MARK: modal

    /// The shown modal element on top: the last in document order.
    static func topModal(_ screen: Screen) -> Int? {
        var best: Int?
        for m in screen.modals where isShown(m, screen) {
            if best.map({ screen.comesBefore($0, m) }) ?? true { best = m }
        }
        return best
    }

    /// Whether nothing from `i` up to the root (or up to `stop`, which must then be an
    /// ancestor of `i`) is hidden.
    static func isShown(_ i: Int, _ screen: Screen, below stop: Int? = nil) -> Bool {
        var p: Int? = i
        while let x = p, x != stop {
            if screen.elements[x].hidden { return false }
            p = screen.elements[x].parent
        }
        // An `order` may name only descendants (an app's update is not checked beforehand).
        return stop == nil || p == stop
    }
}

/// What one build produced: the elements in order and the scopes among them.
struct Built {
    var elements: [Int] = []
    var scopes: [Int: ReadingOrder.Scope] = [:]
    /// The scopes being built, innermost last (each collects the scopes directly inside it).
    var open: [Int] = []
    /// Elements placed so far: an `order` that names one twice (or names a container and
    /// something inside it) places it once.
    var placed: Set<Int> = []

    mutating func place(_ e: Int) {
        if placed.insert(e).inserted { elements.append(e) }
    }
}

/// Turns a screen's elements into units and sorts them (Docs/formats.md#reading-order).
struct Units {
    let screen: Screen
    let rightToLeft: Bool
    let rowThreshold: Double
    var accessible: [Bool] = []
    var frames: [Frame?] = []

    init(screen: Screen, rightToLeft: Bool, rowThreshold: Double, accessible: [Bool] = [], frames: [Frame?] = []) {
        self.screen = screen; self.rightToLeft = rightToLeft; self.rowThreshold = rowThreshold
        self.accessible = accessible; self.frames = frames
    }

    /// What `element` contributes to the order: itself when accessible, else its elements (as
    /// a scope of its own).
    func unit(_ i: Int, into built: inout Built) {
        if screen.elements[i].hidden { return }
        if accessible[i] { built.place(i); return }
        scope(i, key: groupKey(i), into: &built)
    }

    /// The order's top: the root or the modal in front (where it sorts does not matter).
    func top(_ i: Int, into built: inout Built) {
        if screen.elements[i].hidden { return }
        if accessible[i] { built.place(i); return }
        scope(i, key: nil, into: &built)
    }

    /// The reachable elements inside a non-accessible container, recorded as a scope that
    /// sorts among its cousins at `key`.
    func scope(_ c: Int, key: Frame?, into built: inout Built) {
        if let outer = built.open.last { built.scopes[outer]?.inner.append(c) }
        built.scopes[c] = ReadingOrder.Scope(first: nil, count: 0, key: key, inner: [])
        built.open.append(c)
        let start = built.elements.count
        let e = screen.elements[c]
        if let order = e.order {
            for id in order {
                guard let i = screen.index[id], ReadingOrder.isShown(i, screen, below: c) else { continue }
                unit(i, into: &built)
            }
        } else {
            var collected: [(frame: Frame?, scope: Int?, elements: [Int])] = []
            collect(c, into: &collected)
            for u in sortUnits(collected) {
                if let inner = u.scope { scope(inner, key: u.frame, into: &built) } else { for e in u.elements { built.place(e) } }
            }
        }
        built.open.removeLast()
        let count = built.elements.count - start
        built.scopes[c]?.count = count
        built.scopes[c]?.first = count > 0 ? built.elements[start] : nil
    }

    /// Children become units; a plain container is flattened so that its elements are sorted
    /// with their cousins, while a group (`group`, `order`, a tab bar, a `container` type) or a
    /// modal keeps its elements together, placed where its first element is.
    func collect(_ c: Int, into units: inout [(frame: Frame?, scope: Int?, elements: [Int])]) {
        for child in screen.elements[c].children {
            let e = screen.elements[child]
            if e.hidden { continue }
            if accessible[child] {
                units.append((frames[child], nil, [child]))
            } else if e.formsGroup || e.modal {
                units.append((groupKey(child), child, []))
            } else {
                collect(child, into: &units)
            }
        }
    }

    /// Docs/formats.md#reading-order: a group is placed where its first element would be, not
    /// by its union frame. A sorted group's first is the one it reads first; an `order` is
    /// placed by its geometrically first element, whatever its order says (as VoiceOver places
    /// `accessibilityElements`). Without frames inside: the container's own or union frame.
    func groupKey(_ c: Int) -> Frame? {
        var inner: [(frame: Frame?, scope: Int?, elements: [Int])] = []
        if let order = screen.elements[c].order {
            for id in order {
                guard let i = screen.index[id], ReadingOrder.isShown(i, screen, below: c) else { continue }
                if accessible[i] { inner.append((frames[i], nil, [i])) } else { inner.append((groupKey(i), i, [])) }
            }
        } else {
            collect(c, into: &inner)
        }
        guard !inner.isEmpty, inner.allSatisfy({ $0.frame != nil }) else { return frames[c] }
        if screen.elements[c].order == nil { return sortUnits(inner)[0].frame }
        var best = inner[0].frame!
        for u in inner.dropFirst() where readsBefore(u.frame!, best) { best = u.frame! }
        return best
    }

    /// VoiceOver's comparison: an earlier row first; in one row, the leading edge first.
    func readsBefore(_ a: Frame, _ b: Frame) -> Bool {
        if !a.sharesRow(with: b, threshold: rowThreshold) { return a.minY < b.minY }
        return rightToLeft ? a.minX > b.minX : a.minX < b.minX
    }

    /// Top to bottom in rows, then in the language's direction; declaration order unless every
    /// unit has a frame. A row starts at its topmost unit and takes every unit whose top is
    /// less than the row threshold below that one's; equal places keep declaration order.
    func sortUnits<T>(_ units: [(frame: Frame?, scope: Int?, elements: T)]) -> [(frame: Frame?, scope: Int?, elements: T)] {
        guard units.count > 1, units.allSatisfy({ $0.frame != nil }) else { return units }
        let byTop = units.enumerated().sorted {
            let a = $0.element.frame!, b = $1.element.frame!
            return a.minY != b.minY ? a.minY < b.minY : $0.offset < $1.offset
        }
        var rows: [[(offset: Int, element: (frame: Frame?, scope: Int?, elements: T))]] = []
        for u in byTop {
            if let first = rows.last?.first, first.element.frame!.sharesRow(with: u.element.frame!, threshold: rowThreshold) {
                rows[rows.count - 1].append(u)
            } else {
                rows.append([u])
            }
        }
        return rows.flatMap { row in
            row.sorted {
                let a = $0.element.frame!, b = $1.element.frame!
                // Left edges in both directions, as VoiceOver compares them.
                if a.minX != b.minX { return rightToLeft ? a.minX > b.minX : a.minX < b.minX }
                return $0.offset < $1.offset
            }.map(\.element)
        }
    }

    func allDescendants(_ c: Int, into out: inout [Int]) {
        let kids = screen.elements[c].children.filter { !screen.elements[$0].hidden }
        let units: [(frame: Frame?, scope: Int?, elements: Int)] = kids.map { (screen.elements[$0].frame ?? unionFrame($0), nil, $0) }
        for u in sortUnits(units) {
            out.append(u.elements)
            allDescendants(u.elements, into: &out)
        }
    }

    func unionFrame(_ i: Int) -> Frame? {
        var union: Frame?
        for c in screen.elements[i].children {
            if let f = screen.elements[c].frame ?? unionFrame(c) { union = union.map { $0.union(f) } ?? f }
        }
        return union
    }
}
