import TandemModel

/// A change to one children list split into `update`s that each carry at most `limit` nodes
/// and edited ids (`maxUpdateNodes`, Docs/protocol.md#limits), sent one after the other: each
/// is valid on its own, and together they leave the tree exactly as the one update would.
///
/// A new child is sent with its whole subtree when that fits; one whose subtree alone is over
/// the limit is sent first with an empty children list, and its children are then inserted
/// into it by the same rule, top-down. The new elements are taken as sent whole: every
/// element under a new child is in its `children` (an element with `children` nil has none).
///
///     for chunk in UpdateChunks.edits(parent: "list", remove: gone, insert: rows, limit: app.connection.limits.maxUpdateNodes) {
///         try app.update(chunk.nodes, edits: chunk.edits)
///     }
public enum UpdateChunks {
    /// One `update`: elements sent whole (`TandemApp.update(_:edits:focus:)`) and edits.
    public struct Chunk: Sendable, Hashable {
        public var nodes: [AppElement] = []
        public var edits: [TreeUpdate.ChildrenEdit] = []
        /// The nodes (each element and every one under it) plus the edits' ids.
        public var size = 0

        public init(nodes: [AppElement] = [], edits: [TreeUpdate.ChildrenEdit] = [], size: Int = 0) {
            self.nodes = nodes; self.edits = edits; self.size = size
        }
    }

    /// `remove` taken out of `parent`'s children, then each of `insert` put in at its place
    /// (as one update's edits, in order: a place names a child in the list by then, or one
    /// of `insert` before it). `limit` is 2 at least (a node and the id inserting it).
    public static func edits(parent: String, remove: [String], insert: [(element: AppElement, place: TreeUpdate.ChildrenEdit.Place)],
                             limit: Int) -> [Chunk] {
        var b = Builder(limit: limit)
        var gone = remove[...]
        while !gone.isEmpty {
            if b.room < 1 { b.flush() }
            let part = gone.prefix(b.room)
            b.add(edit: .init(parent: parent, remove: Array(part)), size: part.count)
            gone = gone.dropFirst(part.count)
        }
        for (element, place) in insert { b.insert(element, into: parent, at: place) }
        b.flush()
        return b.chunks
    }

    /// `whole`, an element given with its whole children list (kept children with `children`
    /// nil, so their subtrees stay; new ones with theirs), as one update's node: when it does
    /// not fit, the list is sent with the largest new subtrees cut to empty lists and filled
    /// after; when the list alone does not fit, each child is moved (or put) to the end in
    /// turn by edits, after `old` children not in the list are removed.
    public static func wholeList(_ whole: AppElement, old: [String], limit: Int) -> [Chunk] {
        let kids = whole.children ?? []
        let total = whole.subtreeSize
        if total <= limit { return [Chunk(nodes: [whole], edits: [], size: total)] }
        var b = Builder(limit: limit)
        let oldSet = Set(old)
        if 1 + kids.count <= limit {
            // The list whole, each new subtree kept while it fits, the others cut and filled after.
            var room = limit - 1 - kids.count
            var head = whole
            var cut: [AppElement] = []
            head.children = kids.map { kid in
                guard !oldSet.contains(kid.id), let grandchildren = kid.children, !grandchildren.isEmpty else { return kid }
                let extra = kid.subtreeSize - 1
                if extra <= room { room -= extra; return kid }
                cut.append(kid)
                var stub = kid
                stub.children = []
                return stub
            }
            b.add(node: head, size: limit - room)
            for kid in cut { b.fill(kid) }
        } else {
            let ids = Set(kids.map(\.id))
            var gone = old.filter { !ids.contains($0) }[...]
            while !gone.isEmpty {
                if b.room < 1 { b.flush() }
                let part = gone.prefix(b.room)
                b.add(edit: .init(parent: whole.id, remove: Array(part)), size: part.count)
                gone = gone.dropFirst(part.count)
            }
            // Fields of the parent as given, its list left as it is: the edits order it.
            var own = whole
            own.children = nil
            b.add(node: own, size: 1)
            for kid in kids {
                if oldSet.contains(kid.id) {
                    // a kept child moved to the end; its own fields as given
                    b.add(edit: .init(parent: whole.id, remove: [kid.id], insert: [kid.id]), size: 2)
                    var fields = kid
                    fields.children = nil
                    b.add(node: fields, size: 1)
                } else {
                    b.insert(kid, into: whole.id, at: .end)
                }
            }
        }
        b.flush()
        return b.chunks
    }

    /// Collects chunks in order, starting a new one when the next piece would not fit.
    struct Builder {
        let limit: Int
        var chunks: [Chunk] = []
        var current = Chunk()
        /// Elements the current chunk gives with a whole children list: an edit of their list
        /// must wait for the next chunk (Docs/protocol.md#edits).
        var listed: Set<String> = []

        init(limit: Int) {
            precondition(limit >= 2, "an update must carry a node and the id inserting it")
            self.limit = limit
        }

        var room: Int { limit - current.size }

        mutating func flush() {
            guard current.size > 0 || !current.nodes.isEmpty || !current.edits.isEmpty else { return }
            chunks.append(current)
            current = Chunk()
            listed = []
        }

        mutating func make(room size: Int) { if size > room { flush() } }

        mutating func add(edit: TreeUpdate.ChildrenEdit, size: Int) {
            make(room: size)
            current.edits.append(edit)
            current.size += size
        }

        mutating func add(node: AppElement, size: Int) {
            make(room: size)
            put(node, size: size)
        }

        /// Adds a node to the current chunk, which has room for it.
        mutating func put(_ node: AppElement, size: Int) {
            current.nodes.append(node)
            current.size += size
            var stack = [node]
            while let e = stack.popLast() {
                guard let kids = e.children else { continue }
                listed.insert(e.id)
                stack.append(contentsOf: kids)
            }
        }

        /// Puts `element` into `parent`'s list at `place`: whole when it fits in one chunk,
        /// else with an empty list first and its children inserted after it, top-down.
        mutating func insert(_ element: AppElement, into parent: String, at place: TreeUpdate.ChildrenEdit.Place) {
            var work = [(element: element, parent: parent, place: place)]
            while let (e, p, at) = work.popLast() {
                if listed.contains(p) { flush() }
                let nodes = e.subtreeSize
                var sent = e
                if nodes + 1 > limit {
                    sent.children = []
                    // last pushed is taken first: the children go in in their order, each at the end
                    for kid in (e.children ?? []).reversed() { work.append((kid, e.id, .end)) }
                }
                let size = nodes + 1 > limit ? 1 : nodes
                make(room: size + 1)
                current.edits.append(.init(parent: p, insert: [e.id], place: at))
                current.size += 1
                put(sent, size: size)
            }
        }

        /// Inserts the children of `element`, just sent with an empty list, into it in order.
        mutating func fill(_ element: AppElement) {
            for kid in element.children ?? [] { insert(kid, into: element.id, at: .end) }
        }
    }
}

extension AppElement {
    /// The element and every element under it: the nodes `nodes` makes, without building them.
    var subtreeSize: Int {
        var n = 0
        var stack = [self]
        while let e = stack.popLast() {
            n += 1
            stack.append(contentsOf: e.children ?? [])
        }
        return n
    }
}
