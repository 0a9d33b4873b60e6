/// One screen of the app: a tree of elements with its root at index 0.
public struct Screen: Sendable, Hashable {
    public var id: String
    public var title: String?
    /// The element focused when the screen appears (as after `screenChanged`).
    public var focus: String?
    public var magicTap: [Effect]?
    public var escape: [Effect]?
    /// The flat element table; `elements[0]` is the root.
    public var elements: [Element]
    /// Element id → index in `elements`.
    public var index: [String: Int]

    public init(id: String, title: String?, focus: String?, magicTap: [Effect]?, escape: [Effect]?, elements: [Element]) {
        self.id = id; self.title = title; self.focus = focus; self.magicTap = magicTap; self.escape = escape
        self.elements = elements
        var index: [String: Int] = [:]
        index.reserveCapacity(elements.count)
        for (i, e) in elements.enumerated() where index[e.id] == nil { index[e.id] = i }
        self.index = index
    }

    public subscript(id: String) -> Element? {
        index[id].map { elements[$0] }
    }
}
