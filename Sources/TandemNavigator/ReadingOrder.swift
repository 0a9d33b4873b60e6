import TandemModel

/// The elements a user can reach on a screen, in VoiceOver's order, built once per change of
/// structure so that a navigation step is a constant-time lookup.
///
/// Filters, in AccessKit's manner: hidden subtrees are excluded; while a modal element is
/// shown only its subtree is in scope; an accessible element stands for its whole subtree.
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

    public init(screen: Screen, language: String) {
        var builder = Builder(screen: screen, rightToLeft: Self.isRightToLeft(language))
        builder.computeAccessibility()
        modalRoot = builder.topModal()
        let root = modalRoot ?? 0
        elements = builder.unitElements(root)
        accessible = builder.accessible
        position = Array(repeating: -1, count: screen.elements.count)
        for (p, e) in elements.enumerated() {
            position[e] = Int32(p)
            if screen.elements[e].traits.contains(.header) { headings.append(p) }
        }
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
    public static func descendants(of element: Int, in screen: Screen, language: String) -> [Int] {
        let builder = Builder(screen: screen, rightToLeft: isRightToLeft(language))
        var out: [Int] = []
        builder.allDescendants(element, into: &out)
        return out
    }
}

/// One pass over a screen's element table.
private struct Builder {
    let screen: Screen
    let rightToLeft: Bool
    var accessible: [Bool] = []
    /// Own frame, or the union of the children's frames (Docs/formats.md#element).
    var frames: [Frame?] = []

    init(screen: Screen, rightToLeft: Bool) {
        self.screen = screen
        self.rightToLeft = rightToLeft
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

    /// What `element` contributes to the order: itself when accessible, else its elements.
    func unitElements(_ i: Int) -> [Int] {
        if screen.elements[i].hidden { return [] }
        if accessible[i] { return [i] }
        return containerElements(i)
    }

    /// The reachable elements inside a non-accessible container.
    func containerElements(_ c: Int) -> [Int] {
        let e = screen.elements[c]
        if let order = e.order {
            var out: [Int] = []
            for id in order {
                guard let i = screen.index[id], isShown(i, below: c) else { continue }
                out += unitElements(i)
            }
            return out
        }
        var units: [(frame: Frame?, elements: [Int])] = []
        collectUnits(c, into: &units)
        return sortUnits(units).flatMap(\.elements)
    }

    /// Children become units; a plain container is flattened so that its elements are sorted
    /// with their cousins, while a `group` or an `order` keeps its elements together.
    func collectUnits(_ c: Int, into units: inout [(frame: Frame?, elements: [Int])]) {
        for child in screen.elements[c].children {
            let e = screen.elements[child]
            if e.hidden { continue }
            if accessible[child] {
                units.append((frames[child], [child]))
            } else if e.group || e.order != nil {
                let inner = containerElements(child)
                if !inner.isEmpty { units.append((frames[child], inner)) }
            } else {
                collectUnits(child, into: &units)
            }
        }
    }

    /// Top to bottom in rows, then in the language's direction; declaration order unless every
    /// unit has a frame.
    func sortUnits<T>(_ units: [(frame: Frame?, elements: T)]) -> [(frame: Frame?, elements: T)] {
        guard units.count > 1, units.allSatisfy({ $0.frame != nil }) else { return units }
        let byTop = units.enumerated().sorted {
            let a = $0.element.frame!, b = $1.element.frame!
            return a.minY != b.minY ? a.minY < b.minY : $0.offset < $1.offset
        }
        var rows: [[(offset: Int, element: (frame: Frame?, elements: T))]] = []
        for u in byTop {
            if let first = rows.last?.first, first.element.frame!.sharesRow(with: u.element.frame!) {
                rows[rows.count - 1].append(u)
            } else {
                rows.append([u])
            }
        }
        return rows.flatMap { row in
            row.sorted {
                let a = $0.element.frame!, b = $1.element.frame!
                if rightToLeft { return a.maxX != b.maxX ? a.maxX > b.maxX : $0.offset < $1.offset }
                return a.minX != b.minX ? a.minX < b.minX : $0.offset < $1.offset
            }.map(\.element)
        }
    }

    func allDescendants(_ c: Int, into out: inout [Int]) {
        let kids = screen.elements[c].children.filter { !screen.elements[$0].hidden }
        let units: [(frame: Frame?, elements: Int)] = kids.map { (screen.elements[$0].frame ?? unionFrame($0), $0) }
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
