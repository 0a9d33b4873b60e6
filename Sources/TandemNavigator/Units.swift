import TandemModel

/// What one build produced: the elements in order, the scopes among them and the rows of each
/// sorted scope.
struct Built {
    var elements: [Int] = []
    var scopes: [Int: ReadingOrder.Scope] = [:]
    var rows: [Int: ScopeRows] = [:]
    /// The scopes being built, innermost last (each collects the scopes directly inside it).
    var open: [Int] = []
    /// Elements placed so far: an `order` that names one twice (or names a container and
    /// something inside it) places it once.
    var placed: Set<Int> = []
    /// Elements not placed because they were placed already.
    var skipped = 0

    mutating func place(_ e: Int) {
        if placed.insert(e).inserted { elements.append(e) } else { skipped += 1 }
    }
}

/// One unit of a container (Docs/formats.md#reading-order): an accessible element, or a group
/// (`isScope`) read as one block; `frame` is where it sorts.
struct SortUnit {
    var frame: Frame?
    var element: Int
    var isScope: Bool
}

/// Turns a screen's elements into units and sorts them (Docs/formats.md#reading-order).
struct Units {
    let screen: Screen
    let rightToLeft: Bool
    let rowThreshold: Double
    var accessible: [Bool] = []
    var frames: [Frame?] = []
    /// Sorted units by container, for the length of one build (a build's Units is never kept).
    let sorted = SortedUnits()

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
    /// sorts among its cousins at `key`; a sorted scope keeps its rows (`ScopeRows`) so that
    /// a change inside it re-forms only the rows it touches.
    func scope(_ c: Int, key: Frame?, into built: inout Built) {
        if let outer = built.open.last { built.scopes[outer]?.inner.insert(c) }
        built.scopes[c] = ReadingOrder.Scope(first: nil, count: 0, key: key, inner: [])
        built.open.append(c)
        let start = built.elements.count
        let skippedBefore = built.skipped
        if let order = screen.elements[c].order {
            for id in order {
                guard let i = screen.index[id], ReadingOrder.isShown(i, screen, below: c) else { continue }
                unit(i, into: &built)
            }
        } else {
            let entry = sortedEntry(c)
            for u in entry.units {
                if u.isScope { scope(u.element, key: u.frame, into: &built) } else { built.place(u.element) }
            }
            // Rows are kept only where each unit stands for exactly its own elements.
            if let rows = entry.rows, built.skipped == skippedBefore {
                built.rows[c] = ScopeRows(rows: rows, units: entry.units, flat: entry.flat)
            }
        }
        built.open.removeLast()
        let count = built.elements.count - start
        built.scopes[c]?.count = count
        built.scopes[c]?.first = count > 0 ? built.elements[start] : nil
    }

    /// Children become units; a plain container is flattened so that its elements are sorted
    /// with their cousins, while a group (`group`, `order`, a tab bar, a `container` type) or a
    /// modal keeps its elements together, placed where its first element is. `flat` gets the
    /// children of `c` and of every container flattened into it.
    func collect(_ c: Int, into units: inout [SortUnit], flat: inout [Int: [Int]]) {
        // Depth first, children in order: a stack of containers still to open, each child
        // handled when met (a container's children before its next sibling).
        var work: [(container: Int, next: Int)] = [(c, 0)]
        flat[c] = screen.elements[c].children
        while let (x, next) = work.last {
            let kids = screen.elements[x].children
            guard next < kids.count else { work.removeLast(); continue }
            work[work.count - 1].next = next + 1
            let child = kids[next]
            // Read in place, not copied: a copy retains each of the element's references.
            if screen.elements[child].hidden { continue }
            if accessible[child] {
                units.append(SortUnit(frame: frames[child], element: child, isScope: false))
            } else if screen.elements[child].formsGroup || screen.elements[child].modal {
                units.append(SortUnit(frame: groupKey(child), element: child, isScope: true))
            } else {
                flat[child] = screen.elements[child].children
                work.append((child, 0))
            }
        }
    }

    /// Docs/formats.md#reading-order: a group is placed where its first element would be, not
    /// by its union frame. A sorted group's first is the one it reads first; an `order` is
    /// placed by its geometrically first element, whatever its order says (as VoiceOver places
    /// `accessibilityElements`). Without frames inside: the container's own or union frame.
    func groupKey(_ c: Int) -> Frame? {
        if screen.elements[c].order == nil {
            let sorted = sortedEntry(c).units
            guard !sorted.isEmpty, sorted.allSatisfy({ $0.frame != nil }) else { return frames[c] }
            return sorted[0].frame
        }
        var inner: [Frame?] = []
        for id in screen.elements[c].order ?? [] {
            guard let i = screen.index[id], ReadingOrder.isShown(i, screen, below: c) else { continue }
            inner.append(accessible[i] ? frames[i] : groupKey(i))
        }
        guard !inner.isEmpty, inner.allSatisfy({ $0 != nil }) else { return frames[c] }
        var best = inner[0]!
        for f in inner.dropFirst() where readsBefore(f!, best) { best = f! }
        return best
    }

    /// The units of a container without an `order`, sorted, with their rows when every unit
    /// has a frame; each container's once a build (placing a group needs its sorted units, and
    /// so does building it).
    func sortedEntry(_ c: Int) -> SortedUnits.Entry {
        if let known = sorted.entries[c] { return known }
        var collected: [SortUnit] = []
        var flat: [Int: [Int]] = [:]
        collect(c, into: &collected, flat: &flat)
        let rows = sortRows(collected)
        let entry = SortedUnits.Entry(units: rows.map { $0.flatMap(\.units) } ?? collected, rows: rows, flat: flat)
        sorted.entries[c] = entry
        return entry
    }

    /// VoiceOver's comparison: an earlier row first; in one row, the leading edge first.
    func readsBefore(_ a: Frame, _ b: Frame) -> Bool {
        if !a.sharesRow(with: b, threshold: rowThreshold) { return a.minY < b.minY }
        return rightToLeft ? a.minX > b.minX : a.minX < b.minX
    }

    /// Top to bottom in rows, then in the language's direction; nil (declaration order) unless
    /// every unit has a frame. A row starts at its topmost unit and takes every unit whose top
    /// is less than the row threshold below that one's; equal places keep declaration order.
    func sortRows(_ units: [SortUnit]) -> [(top: Double, units: [SortUnit])]? {
        guard units.allSatisfy({ $0.frame != nil }) else { return nil }
        // The keys read out first, and the settings into locals: the comparisons read two
        // arrays of numbers, and no closure captures `self` (a copy of this struct in each
        // row's comparator retained and released all its references: a third of building
        // 50,000 elements' order, issue 27).
        let tops = units.map { $0.frame!.minY }, lefts = units.map { $0.frame!.minX }
        let rightToLeft = rightToLeft, threshold = rowThreshold
        let byTop = tops.indices.sorted { tops[$0] != tops[$1] ? tops[$0] < tops[$1] : $0 < $1 }
        var rows: [(top: Double, units: [SortUnit])] = []
        var k = 0
        while k < byTop.count {
            let top = tops[byTop[k]]
            var end = k + 1
            while end < byTop.count, abs(tops[byTop[end]] - top) < threshold { end += 1 }
            if end == k + 1 {
                rows.append((top, [units[byTop[k]]]))
            } else {
                let members = byTop[k..<end].sorted { a, b in
                    // Left edges in both directions, as VoiceOver compares them.
                    if lefts[a] != lefts[b] { return rightToLeft ? lefts[a] > lefts[b] : lefts[a] < lefts[b] }
                    return a < b
                }
                rows.append((top, members.map { units[$0] }))
            }
            k = end
        }
        return rows
    }

    /// `sortRows` read out, or the units as declared.
    func sortUnits(_ units: [SortUnit]) -> [SortUnit] {
        guard units.count > 1 else { return units }
        return sortRows(units).map { $0.flatMap(\.units) } ?? units
    }

    func allDescendants(_ c: Int, into out: inout [Int]) {
        let kids = screen.elements[c].children.filter { !screen.elements[$0].hidden }
        let units = kids.map { SortUnit(frame: screen.elements[$0].frame ?? unionFrame($0), element: $0, isScope: false) }
        for u in sortUnits(units) {
            out.append(u.element)
            allDescendants(u.element, into: &out)
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

/// What one build has sorted already, by container.
final class SortedUnits {
    struct Entry {
        var units: [SortUnit]
        var rows: [(top: Double, units: [SortUnit])]?
        var flat: [Int: [Int]]
    }
    var entries: [Int: Entry] = [:]
}
