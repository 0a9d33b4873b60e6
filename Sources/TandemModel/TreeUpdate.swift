/// A change to a screen's tree, as AccessKit's `TreeUpdate` (Docs/protocol.md#update): a list of
/// nodes that replace the elements with their ids, children lists that own the structure, and
/// an optional focus.
public struct TreeUpdate: Sendable, Hashable {
    /// One element as it is now. Its `children` are ignored: `childIDs`, when given, is the
    /// whole list of its children's ids, in order; nil keeps the children it has.
    public struct Node: Sendable, Hashable {
        public var element: Element
        public var childIDs: [String]?
        public init(element: Element, childIDs: [String]?) { self.element = element; self.childIDs = childIDs }
    }

    /// An edit of one element's children list, by id, without sending the list: `remove`
    /// takes ids out of it, then `insert` puts ids in after the child `after`, or before the
    /// child `before`, or (neither) at the end (Docs/protocol.md#edits).
    public struct ChildrenEdit: Sendable, Hashable {
        public enum Place: Sendable, Hashable {
            case end
            case after(String)
            case before(String)
        }
        public var parent: String
        public var remove: [String]
        public var insert: [String]
        public var place: Place

        public init(parent: String, remove: [String] = [], insert: [String] = [], place: Place = .end) {
            self.parent = parent; self.remove = remove; self.insert = insert; self.place = place
        }
    }

    public var nodes: [Node]
    /// Children lists edited in place, in order, each on the list as the edits before it left
    /// it (after the nodes' contents, before any element is removed).
    public var edits: [ChildrenEdit]
    /// Focus moves there afterwards (as `layoutChanged` with that element).
    public var focus: String?

    public init(nodes: [Node], edits: [ChildrenEdit] = [], focus: String? = nil) {
        self.nodes = nodes; self.edits = edits; self.focus = focus
    }

    /// What the update carries against `Screen.maxUpdateNodes`: its nodes plus the ids its
    /// edits remove or insert.
    public var size: Int { nodes.count + edits.reduce(0) { $0 + $1.remove.count + $1.insert.count } }

    /// The sentence refusing an update that carries `size` (nodes and edited ids) over `limit`
    /// (`maxUpdateNodes`, Docs/protocol.md#limits); the service's and the clients' words.
    public static func overLimit(_ size: Int, limit: Int = Screen.maxUpdateNodes) -> String {
        "the update carries \(size) nodes and edited ids, over the limit of \(limit) (maxUpdateNodes): send the rest in another update"
    }
}

/// Why a tree update was refused (nothing of it was applied).
public struct TreeUpdateError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What a tree update changed, for the reading order and the navigator.
public struct TreeChange: Sendable {
    /// Elements whose content changed (with what they were before), and new ones (nil).
    public var content: [(slot: Int, old: Element?)] = []
    /// Elements that got a new children list (compare it whole with the one before).
    public var restructured: [Int] = []
    /// Elements whose children list changed by known children only: an edit, or a whole list
    /// that differs from the one before in one stretch (same prefix and suffix).
    public var edited: [ChildrenDelta] = []
    /// Ids of the elements removed with their subtrees.
    public var removed: [String] = []
    /// The slots they had (empty now, `Element.isRemoved`).
    public var removedSlots: [Int] = []
    /// Children-list slots the edits looked at, moved or wrote (`applyEdits`): tests check
    /// that many edits of one long list cost the list once, not once an edit.
    public var listWork = 0
}

/// How one children list changed: the children that left it (now elsewhere, or removed from
/// the screen) and those that came into it (a child in both moved within the list). The
/// children in neither kept their order.
public struct ChildrenDelta: Sendable, Hashable {
    public var parent: Int
    public var removed: [Int]
    public var inserted: [Int]
    public init(parent: Int, removed: [Int], inserted: [Int]) { self.parent = parent; self.removed = removed; self.inserted = inserted }
}

extension Screen {
    /// Applies a tree update: each node replaces the element with its id (its fields left out
    /// are cleared) or adds it; a node's `childIDs` replace that element's children; each edit
    /// changes one children list by id; an element that is in no children list any more is
    /// removed with its subtree. The whole update is checked first: unknown ids, new nodes
    /// nothing names, an id in two children lists, an edit naming an id that is not where it
    /// says, cycles and the root named as a child are refused, and nothing is changed.
    ///
    /// Costs what it changes: the nodes given, their children lists, the ids an edit names
    /// (and a scan and a memory move of the edited list's slots), and what is removed.
    public mutating func apply(_ update: TreeUpdate) throws(TreeUpdateError) -> TreeChange {
        // The loops below read the nodes in place, by index (a `for n in update.nodes` copies
        // each node, an element of some twenty references, once a loop), and look each id up
        // as few times as they can: hashing ids is most of what a large update costs here.
        let nodes = update.nodes.indices
        var given: [String: Int] = [:]          // node id → index in update.nodes
        given.reserveCapacity(nodes.count)
        for k in nodes {
            let id = update.nodes[k].element.id
            guard !id.isEmpty else { throw TreeUpdateError("node \(k + 1) has no id") }
            guard given.updateValue(k, forKey: id) == nil else { throw TreeUpdateError("node \"\(id)\" is given twice") }
        }
        if let f = update.focus, index[f] == nil, given[f] == nil {
            throw TreeUpdateError("focus \"\(f)\" is neither an element of the screen nor a node of this update")
        }
        let rootID = elements.first?.id ?? ""
        // The new parent of every id a whole children list names.
        var newParent: [String: String] = [:]
        newParent.reserveCapacity(nodes.count)
        // The children those lists name that are in the tree already (each looked up once).
        var adopted: [(child: String, slot: Int, parent: String)] = []
        for k in nodes {
            guard let kids = update.nodes[k].childIDs else { continue }
            let id = update.nodes[k].element.id
            for c in kids {
                if let slot = index[c] { adopted.append((c, slot, id)) } else if given[c] == nil {
                    throw TreeUpdateError("the children of \"\(id)\" name \"\(c)\", which is neither in the tree nor a node of this update")
                }
                guard c != rootID else { throw TreeUpdateError("the root \"\(c)\" cannot be a child of \"\(id)\"") }
                if let other = newParent.updateValue(id, forKey: c) {
                    if other == id { throw TreeUpdateError("the children of \"\(other)\" name \"\(c)\" twice") }
                    throw TreeUpdateError("\"\(c)\" is named as a child of both \"\(other)\" and \"\(id)\"")
                }
            }
        }
        var lists = WholeLists(update: update, given: given)
        let edits = try checkEdits(update, given: given, newParent: newParent, rootID: rootID, lists: &lists)
        // The parent of an id once the update is applied (nil: in no list).
        func parentID(_ id: String) -> String? {
            if !edits.isEmpty, let p = edits[id] { return p.isEmpty ? nil : p }
            if let p = newParent[id] { return p }
            return treeParent(id, lists: &lists)
        }
        // Each node's slot in the table, nil for a new one.
        var slots: [Int?] = []
        slots.reserveCapacity(nodes.count)
        var added = 0
        for k in nodes {
            let id = update.nodes[k].element.id
            let slot = index[id]
            if slot == nil {
                guard parentID(id) != nil else {
                    throw TreeUpdateError("node \"\(id)\" is new, but no children list or edit in this update names it")
                }
                added += 1
            }
            slots.append(slot)
        }
        // An element moved to a new parent must leave its old parent's list in the same update.
        for (c, slot, p) in adopted {
            guard let old = elements[slot].parent else { continue }
            let oldID = elements[old].id
            if oldID != p, edits.isEmpty || edits[c] == nil, given[oldID].map({ update.nodes[$0].childIDs == nil }) ?? true {
                throw TreeUpdateError("\"\(c)\" is named as a child of \"\(p)\" but is still a child of \"\(oldID)\"")
            }
        }
        // No cycles, and no element deeper than `Screen.maxDepth`: a walk up from each parent and
        // each node in the new tree, stopping at the first element an earlier walk reached the
        // root from, so that every element is walked over once (a chain of N nodes costs N,
        // not N²).
        var depths: [String: Int] = [:]            // id → depth in the new tree (the root: 0)
        depths.reserveCapacity(nodes.count)
        // Kept between walks (emptied, not freed): one walk per node would otherwise allocate.
        var path: [String] = []
        // A walk longer than there are ids has gone round a cycle (found without a set of the
        // ids walked, which cost a hash of each).
        let distinct = elements.count + nodes.count + 1
        func depth(of p: String) throws(TreeUpdateError) -> Int {
            if let d = depths[p] { return d }
            path.removeAll(keepingCapacity: true)
            path.append(p)
            var x = parentID(p)
            var base = -1                          // the depth above the path's top
            while let u = x {
                if let d = depths[u] { base = d; break }
                guard path.count < distinct else {
                    throw TreeUpdateError("the children of \"\(p)\" make a cycle: \"\(p)\" would be inside itself")
                }
                path.append(u)
                x = parentID(u)
            }
            for (k, u) in path.reversed().enumerated() { depths[u] = base + 1 + k }
            return base + path.count
        }
        for k in nodes where update.nodes[k].childIDs != nil { _ = try depth(of: update.nodes[k].element.id) }
        for edit in update.edits where !edit.insert.isEmpty { _ = try depth(of: edit.parent) }
        for k in nodes {
            let id = update.nodes[k].element.id
            // An element already in the tree that stays under its parent keeps its depth (a
            // move of an ancestor is checked with its subtree below): not walked again.
            if slots[k] != nil && newParent[id] == nil && (edits.isEmpty || edits[id] == nil) { continue }
            let d = try depth(of: id)
            guard d <= Screen.maxDepth else {
                throw TreeUpdateError("\"\(id)\" would be \(d) levels below the root, deeper than the limit of \(Screen.maxDepth) (maxDepth)")
            }
        }
        // An element moved under a new parent takes its subtree with it.
        for (c, slot, p) in adopted {
            guard let old = elements[slot].parent, elements[old].id != p else { continue }
            let d = try depth(of: c) + height(below: slot, limit: Screen.maxDepth)
            guard d <= Screen.maxDepth else {
                throw TreeUpdateError("moving \"\(c)\" under \"\(p)\" would put its subtree \(d) levels below the root, deeper than the limit of \(Screen.maxDepth) (maxDepth)")
            }
        }
        for (c, p) in edits where !p.isEmpty {
            guard let slot = index[c], elements[slot].parent.map({ elements[$0].id }) != p else { continue }
            let d = try depth(of: c) + height(below: slot, limit: Screen.maxDepth)
            guard d <= Screen.maxDepth else {
                throw TreeUpdateError("moving \"\(c)\" under \"\(p)\" would put its subtree \(d) levels below the root, deeper than the limit of \(Screen.maxDepth) (maxDepth)")
            }
        }
        if added > 0 && liveCount + added > Screen.maxElements {
            throw TreeUpdateError("the update would make the screen \(liveCount + added) elements, over the limit of \(Screen.maxElements) (maxElements)")
        }

        // Checked: apply.
        var change = TreeChange()
        change.content.reserveCapacity(nodes.count)
        if added > 0 {
            // Grown geometrically: `reserveCapacity` makes room for exactly what is asked, so
            // asking for one more at each update that adds an element copied the whole table
            // (and rehashed the whole index) each time — 10 ms a one-row update at 50,000
            // elements (issue 27).
            let slots = elements.count + max(0, added - free.count)
            if slots > elements.capacity { elements.reserveCapacity(max(slots, elements.capacity * 2)) }
            if index.count + added > index.capacity { index.reserveCapacity(max(index.count + added, index.capacity * 2)) }
        }
        for k in nodes {
            if let slot = slots[k] {
                let old = modify(slot) { e in
                    let keep = (e.id, e.parent, e.children)
                    e = update.nodes[k].element
                    (e.id, e.parent, e.children) = keep
                }
                if old != elements[slot] { change.content.append((slot, old)) }
            } else {
                let slot = add(update.nodes[k].element)
                slots[k] = slot
                change.content.append((slot, nil))
            }
        }
        var deltas: [Int: ChildrenDelta] = [:]
        var detached: [Int] = []
        change.listWork = applyEdits(update.edits, into: &deltas, detached: &detached)
        var dropped: [(child: Int, from: Int)] = []
        for k in nodes {
            guard let kids = update.nodes[k].childIDs else { continue }
            let p = slots[k]!
            let children = kids.map { index[$0]! }
            if let delta = Self.stretch(from: elements[p].children, to: children, parent: p) {
                if !delta.removed.isEmpty {
                    let back = Set(delta.inserted)
                    for old in delta.removed where !back.contains(old) { dropped.append((old, p)) }
                }
                deltas[p] = delta
            } else {
                let keep = Set(children)
                for old in elements[p].children where !keep.contains(old) { dropped.append((old, p)) }
                change.restructured.append(p)
            }
            setChildren(of: p, to: children)
        }
        // A child dropped from its list (or taken out by an edit) and named by no other is
        // removed with its subtree.
        var removedSlots: [Int] = []
        for (c, from) in dropped where elements[c].parent == from && !elements[c].isRemoved {
            change.removed += removeSubtree(c, slots: &removedSlots)
        }
        for c in detached where elements[c].parent == nil && !elements[c].isRemoved && c != 0 {
            change.removed += removeSubtree(c, slots: &removedSlots)
        }
        change.removedSlots = removedSlots
        change.edited = deltas.keys.sorted().map { deltas[$0]! }
        if !change.removed.isEmpty {
            change.restructured.removeAll { elements[$0].isRemoved }
            change.content.removeAll { elements[$0.slot].isRemoved }
            change.edited.removeAll { elements[$0.parent].isRemoved }
        }
        return change
    }

    /// How a whole children list differs from the one before when it differs in one stretch
    /// (the same prefix and suffix around it) of fewer than a quarter of the children; nil
    /// otherwise (compared whole).
    static func stretch(from old: [Int], to new: [Int], parent: Int) -> ChildrenDelta? {
        var pre = 0
        let common = min(old.count, new.count)
        while pre < common, old[pre] == new[pre] { pre += 1 }
        var suf = 0
        while suf < common - pre, old[old.count - 1 - suf] == new[new.count - 1 - suf] { suf += 1 }
        let removed = Array(old[pre..<(old.count - suf)]), inserted = Array(new[pre..<(new.count - suf)])
        guard (removed.count + inserted.count) * 4 <= max(8, old.count + new.count) else { return nil }
        return ChildrenDelta(parent: parent, removed: removed, inserted: inserted)
    }

    /// How many levels the subtree of `slot` reaches below it now (0: no children), counted no
    /// further than `limit` + 1.
    func height(below slot: Int, limit: Int) -> Int {
        var deepest = 0
        var stack = [(slot, 0)]
        while let (x, d) = stack.popLast() {
            deepest = max(deepest, d)
            if d > limit { break }
            for c in elements[x].children where elements[c].parent == x { stack.append((c, d + 1)) }
        }
        return deepest
    }

    /// The whole children lists of an update, as sets when asked whether they still hold a child.
    struct WholeLists {
        let update: TreeUpdate
        let given: [String: Int]
        var sets: [String: Set<String>] = [:]

        /// Whether `parent` is given with a whole list, and then whether it names `child`.
        mutating func names(_ parent: String, _ child: String) -> Bool? {
            guard let k = given[parent], let kids = update.nodes[k].childIDs else { return nil }
            if let s = sets[parent] { return s.contains(child) }
            let s = Set(kids)
            sets[parent] = s
            return s.contains(child)
        }
    }

    /// The parent of `id` after the update's whole lists (not its edits): its parent in the
    /// tree, unless that parent's new list drops it.
    func treeParent(_ id: String, lists: inout WholeLists) -> String? {
        guard let slot = index[id], let p = elements[slot].parent else { return nil }
        let pid = elements[p].id
        if lists.names(pid, id) == false { return nil }
        return pid
    }

    /// Checks the update's edits in order, each on the lists as the ones before it leave them;
    /// returns the parent each id an edit names has afterwards ("" for none).
    func checkEdits(_ update: TreeUpdate, given: [String: Int], newParent: [String: String], rootID: String,
                    lists: inout WholeLists) throws(TreeUpdateError) -> [String: String] {
        var moved: [String: String] = [:]
        func parent(_ id: String) -> String? {
            if let p = moved[id] { return p.isEmpty ? nil : p }
            if let p = newParent[id] { return p }
            return treeParent(id, lists: &lists)
        }
        for (k, edit) in update.edits.enumerated() {
            let p = edit.parent
            guard index[p] != nil || given[p] != nil else {
                throw TreeUpdateError("edits[\(k)].parent: \"\(p)\" is neither in the tree nor a node of this update")
            }
            if let g = given[p], update.nodes[g].childIDs != nil {
                throw TreeUpdateError("edits[\(k)]: \"\(p)\" comes with its whole children list in this update; give the list or edit it, not both")
            }
            guard !edit.remove.isEmpty || !edit.insert.isEmpty else {
                throw TreeUpdateError("edits[\(k)]: an edit needs \"remove\" or \"insert\"")
            }
            for (j, c) in edit.remove.enumerated() {
                guard parent(c) == p else {
                    let known = index[c] != nil || given[c] != nil
                    throw TreeUpdateError("edits[\(k)].remove[\(j)]: \"\(c)\" is not a child of \"\(p)\"\(known ? "" : " (no element has that id)")")
                }
                moved[c] = ""
            }
            switch edit.place {
            case .end: break
            case .after(let a), .before(let a):
                let key = if case .after = edit.place { "after" } else { "before" }
                guard parent(a) == p else {
                    throw TreeUpdateError("edits[\(k)].\(key): \"\(a)\" is not a child of \"\(p)\"\(edit.remove.contains(a) ? " (this edit removes it)" : "")")
                }
            }
            for (j, c) in edit.insert.enumerated() {
                let at = "edits[\(k)].insert[\(j)]"
                guard index[c] != nil || given[c] != nil else {
                    throw TreeUpdateError("\(at): \"\(c)\" is neither in the tree nor a node of this update")
                }
                guard c != rootID else { throw TreeUpdateError("\(at): the root \"\(c)\" cannot be a child of \"\(p)\"") }
                if let q = newParent[c] {
                    throw TreeUpdateError("\(at): \"\(c)\" is also named by the children of \"\(q)\" in this update")
                }
                if let q = parent(c) {
                    throw TreeUpdateError(q == p ? "\(at): \"\(c)\" is a child of \"\(p)\" already"
                                                 : "\(at): \"\(c)\" is still a child of \"\(q)\" (remove it there first)")
                }
                moved[c] = p
            }
        }
        return moved
    }
}
