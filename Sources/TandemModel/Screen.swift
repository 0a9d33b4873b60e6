/// One screen of the app: a tree of elements with its root at index 0.
public struct Screen: Sendable, Hashable {
    public var id: String
    public var title: String?
    /// The element focused when the screen appears (as after `screenChanged`).
    public var focus: String?
    public var magicTap: [Effect]?
    public var escape: [Effect]?
    /// The flat element table; `elements[0]` is the root. A decoded screen is in pre-order;
    /// after tree updates (`apply(_:)`) new elements take free slots or go at the end, and a
    /// removed element's slot is empty (`Element.isRemoved`) until it is taken again.
    public internal(set) var elements: [Element]
    /// Element id → index in `elements`.
    public internal(set) var index: [String: Int]
    /// Elements with `modal` set (any order).
    public internal(set) var modals: [Int]
    /// Empty slots, reused by new elements.
    var free: [Int] = []
    /// Findings of `tandem lint` this screen accepts on purpose, with the reason (`"lint"` on
    /// the screen object).
    public var lint: LintException?
    /// The same on elements, by element index; an exception covers the element's subtree.
    public var elementLint: [Int: LintException] = [:]

    public init(id: String, title: String?, focus: String?, magicTap: [Effect]?, escape: [Effect]?, elements: [Element]) {
        var duplicates: [(element: Int, first: Int)] = []
        self.init(id: id, title: title, focus: focus, magicTap: magicTap, escape: escape, elements: elements, duplicates: &duplicates)
    }

    /// Also lists the elements whose id an earlier element of the screen already has, with
    /// that first one, in table order.
    init(id: String, title: String?, focus: String?, magicTap: [Effect]?, escape: [Effect]?, elements: [Element],
         duplicates: inout [(element: Int, first: Int)]) {
        self.id = id; self.title = title; self.focus = focus; self.magicTap = magicTap; self.escape = escape
        self.elements = elements
        var index: [String: Int] = [:]
        index.reserveCapacity(elements.count)
        // The first element with an id wins (one hash lookup each, no copy of the element).
        for i in elements.indices {
            if let first = index.insertIfAbsent(elements[i].id, i) { duplicates.append((i, first)) }
        }
        self.index = index
        self.modals = elements.indices.filter { elements[$0].modal }
    }

    /// A screen whose id index was made with its ids (`tandem import`): `index` must hold each
    /// element's id with its index and nothing else, the ids all different, so the screen is the
    /// one `init(id:title:focus:magicTap:escape:elements:)` makes, without hashing each id again.
    package init(id: String, title: String?, focus: String?, magicTap: [Effect]?, escape: [Effect]?, elements: [Element],
                 index: [String: Int]) {
        self.id = id; self.title = title; self.focus = focus; self.magicTap = magicTap; self.escape = escape
        self.elements = elements
        self.index = index
        self.modals = elements.indices.filter { elements[$0].modal }
    }

    /// The deepest an element of a screen an app sends may be (the root is at 0): a `screen`
    /// message reaches about this deep before its JSON nesting limit, and an `update` is held
    /// to the same (Docs/protocol.md#limits).
    public static let maxDepth = 250
    /// The most elements a screen an app sends may have (Docs/protocol.md#limits).
    public static let maxElements = 50_000
    /// The most an `update` may carry: its nodes plus the ids its edits remove or insert
    /// (Docs/protocol.md#limits). An update's work is linear in these, so this bounds what one
    /// line can cost the session thread; an app sends the rest in the next update.
    public static let maxUpdateNodes = 8_192

    /// Elements in the tree (the table's slots less the empty ones).
    public var liveCount: Int { elements.count - free.count }

    /// How deep the deepest element is (the root: 0), in one pass over the table; nil when
    /// some element is deeper than `limit` (not counted further).
    public func depth(limit: Int) -> Int? {
        var depths = [Int](repeating: -1, count: elements.count)
        var deepest = 0
        for i in elements.indices where !elements[i].isRemoved && depths[i] < 0 {
            var path: [Int] = []
            var x: Int? = i
            var base = -1
            while let u = x {
                if depths[u] >= 0 { base = depths[u]; break }
                path.append(u)
                x = elements[u].parent
            }
            for (k, u) in path.reversed().enumerated() { depths[u] = base + 1 + k }
            deepest = max(deepest, base + path.count)
            if deepest > limit { return nil }
        }
        return deepest
    }

    public subscript(id: String) -> Element? {
        index[id].map { elements[$0] }
    }
}

/// Lint rules a catalog turns off for one screen or element subtree, and why: a deliberate,
/// reviewed exception (`"lint": {"allow": ["small-target"], "why": "…"}`).
public struct LintException: Sendable, Hashable {
    /// Rule ids (`tandem lint --list-rules`).
    public var allow: [String]
    /// The reason, for the reviewer; required.
    public var why: String
    /// The line of `"lint"` in the catalog file.
    public var line: Int

    public init(allow: [String], why: String, line: Int) { self.allow = allow; self.why = why; self.line = line }
}

extension Dictionary where Value == Int {
    /// Stores `value` for `key` unless the key is there already (values are never negative);
    /// returns the value that was there. One hash lookup either way.
    @inline(__always)
    mutating func insertIfAbsent(_ key: Key, _ value: Int) -> Int? {
        func keep(_ slot: inout Int) -> Int? {
            if slot < 0 { slot = value; return nil }
            return slot
        }
        return keep(&self[key, default: -1])
    }
}
