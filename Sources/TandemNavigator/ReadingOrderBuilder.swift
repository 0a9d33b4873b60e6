import TandemModel

/// What is read as one block among its siblings: a single element, or a group's elements.
struct ReadingUnit {
    /// Where the unit sorts: an element's frame, or a group's first element's (SPEC §1).
    var key: Frame?
    var elements: [Int]
    /// One accessible element (not a group's block).
    var single: Bool
}

/// One pass over a screen's element table, building `ReadingOrder`.
struct ReadingOrderBuilder {
    let screen: Screen
    let rightToLeft: Bool
    let rowThreshold: Double
    var accessible: [Bool] = []
    /// Own frame, or the union of the children's frames (SPEC §1).
    var frames: [Frame?] = []
    var contexts: [Int: ElementContext] = [:]

    init(screen: Screen, rightToLeft: Bool, rowThreshold: Double) {
        self.screen = screen
        self.rightToLeft = rightToLeft
        self.rowThreshold = rowThreshold
    }

    /// Post-order over the pre-order table: children always have larger indices than their
    /// parent, so walking the table backwards visits every child before its parent.
    mutating func computeAccessibility() {
        let els = screen.elements
        accessible = Array(repeating: false, count: els.count)
        frames = Array(repeating: nil, count: els.count)
        for i in stride(from: els.count - 1, through: 0, by: -1) {
            let e = els[i]
            var childAccessible = false
            var union: Frame?
            for c in e.children {
                if !els[c].hidden && accessible[c] { childAccessible = true }
                if let f = frames[c] { union = union.map { $0.union(f) } ?? f }
            }
            accessible[i] = e.accessible ?? (e.hasContent && !childAccessible)
            frames[i] = e.frame ?? union
        }
    }

    /// The last shown modal element in document order: the one on top.
    func topModal() -> Int? {
        let els = screen.elements
        var i = els.count - 1
        while i >= 0 {
            if els[i].modal && isShown(i) { return i }
            i -= 1
        }
        return nil
    }

    func isShown(_ i: Int, below stop: Int? = nil) -> Bool {
        var p: Int? = i
        while let x = p, x != stop {
            if screen.elements[x].hidden { return false }
            p = screen.elements[x].parent
        }
        return true
    }

    /// What `element` contributes to the order: itself when accessible, else its elements as
    /// one block; nil when hidden or empty.
    mutating func unit(_ i: Int) -> ReadingUnit? {
        if screen.elements[i].hidden { return nil }
        if accessible[i] { return ReadingUnit(key: frames[i], elements: [i], single: true) }
        let units = containerUnits(i)
        let elements = units.flatMap(\.elements)
        if elements.isEmpty { return nil }
        return ReadingUnit(key: groupKey(i, units), elements: elements, single: false)
    }

    /// The units inside a non-accessible container, in its reading order: `order` exactly,
    /// else its children sorted by frame (plain containers flattened into it).
    mutating func containerUnits(_ c: Int) -> [ReadingUnit] {
        let e = screen.elements[c]
        var units: [ReadingUnit] = []
        if let order = e.order {
            for id in order {
                guard let i = screen.index[id], isShown(i, below: c), let u = unit(i) else { continue }
                units.append(u)
            }
        } else {
            collectUnits(c, into: &units)
            units = sortUnits(units)
        }
        if e.givesContext { assignContexts(c, units) }
        return units
    }

    /// Children become units; a plain container is flattened so that its elements are sorted
    /// with their cousins, while a group (`group`, `order`, a tab bar, a `container` type)
    /// keeps its elements together.
    mutating func collectUnits(_ c: Int, into units: inout [ReadingUnit]) {
        for child in screen.elements[c].children {
            let e = screen.elements[child]
            if e.hidden { continue }
            if accessible[child] || e.formsGroup {
                if let u = unit(child) { units.append(u) }
            } else {
                collectUnits(child, into: &units)
            }
        }
    }

    /// SPEC §1: a group is placed where its first element would be, not by its union frame.
    /// A sorted group's first is the one it reads first; an `order` is placed by its
    /// geometrically first element, whatever its order says (as VoiceOver places
    /// `accessibilityElements`). Without frames inside: the container's own or union frame.
    func groupKey(_ c: Int, _ units: [ReadingUnit]) -> Frame? {
        guard !units.isEmpty, units.allSatisfy({ $0.key != nil }) else { return frames[c] }
        if screen.elements[c].order == nil { return units[0].key }
        var best = units[0].key!
        for u in units.dropFirst() where readsBefore(u.key!, best) { best = u.key! }
        return best
    }

    /// VoiceOver's comparison: an earlier row first; in one row, the leading edge first.
    func readsBefore(_ a: Frame, _ b: Frame) -> Bool {
        if !a.sharesRow(with: b, threshold: rowThreshold) { return a.minY < b.minY }
        return rightToLeft ? a.minX > b.minX : a.minX < b.minX
    }

    /// Top to bottom in rows, then in the language's direction; declaration order unless every
    /// unit has a frame. A row starts at its topmost unit and takes every unit whose top is
    /// less than the threshold below that one's; in a row, left edges decide (the greater
    /// first in a right-to-left language); equal places keep declaration order.
    func sortUnits(_ units: [ReadingUnit]) -> [ReadingUnit] {
        guard units.count > 1, units.allSatisfy({ $0.key != nil }) else { return units }
        let byTop = units.indices.sorted { a, b in
            let ya = units[a].key!.minY, yb = units[b].key!.minY
            return ya != yb ? ya < yb : a < b
        }
        var rows: [[Int]] = []
        var rowStart: Frame?
        for i in byTop {
            let k = units[i].key!
            if let start = rowStart, start.sharesRow(with: k, threshold: rowThreshold) {
                rows[rows.count - 1].append(i)
            } else {
                rows.append([i])
                rowStart = k
            }
        }
        return rows.flatMap { row in
            row.sorted { a, b in
                let xa = units[a].key!.minX, xb = units[b].key!.minX
                if xa != xb { return rightToLeft ? xa > xb : xa < xb }
                return a < b
            }.map { units[$0] }
        }
    }

    func allDescendants(_ c: Int, into out: inout [Int]) {
        let kids = screen.elements[c].children.filter { !screen.elements[$0].hidden }
        let units = kids.map { ReadingUnit(key: screen.elements[$0].frame ?? unionFrame($0), elements: [$0], single: true) }
        for u in sortUnits(units) {
            out.append(u.elements[0])
            allDescendants(u.elements[0], into: &out)
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

extension Element {
    /// A container whose elements are read together and placed as one block.
    var formsGroup: Bool { group || order != nil || traits.contains(.tabBar) || container != nil }

    /// A container that tells its elements where they are (tab bar, segmented control, list,
    /// landmark, data table).
    public var givesContext: Bool {
        traits.contains(.tabBar) || (container != nil && container != .semanticGroup)
    }
}
