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

    public var nodes: [Node]
    /// Focus moves there afterwards (as `layoutChanged` with that element).
    public var focus: String?

    public init(nodes: [Node], focus: String? = nil) { self.nodes = nodes; self.focus = focus }
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
    /// Elements that got a new children list.
    public var restructured: [Int] = []
    /// Ids of the elements removed with their subtrees.
    public var removed: [String] = []
}

extension Screen {
    /// Applies a tree update: each node replaces the element with its id (its fields left out
    /// are cleared) or adds it; a node's `childIDs` replace that element's children; an
    /// element that is in no children list any more is removed with its subtree. The whole
    /// update is checked first: unknown ids, new nodes nothing names, an id in two children
    /// lists, cycles and the root named as a child are refused, and nothing is changed.
    ///
    /// Costs what it changes: the nodes given, their children lists, and what is removed.
    public mutating func apply(_ update: TreeUpdate) throws(TreeUpdateError) -> TreeChange {
        var given: [String: Int] = [:]          // node id → index in update.nodes
        for (k, n) in update.nodes.enumerated() {
            let id = n.element.id
            guard !id.isEmpty else { throw TreeUpdateError("node \(k + 1) has no id") }
            guard given.updateValue(k, forKey: id) == nil else { throw TreeUpdateError("node \"\(id)\" is given twice") }
        }
        let rootID = elements.first?.id ?? ""
        // The new parent of every id a children list names.
        var newParent: [String: String] = [:]
        for n in update.nodes {
            guard let kids = n.childIDs else { continue }
            for c in kids {
                guard index[c] != nil || given[c] != nil else {
                    throw TreeUpdateError("the children of \"\(n.element.id)\" name \"\(c)\", which is neither in the tree nor a node of this update")
                }
                guard c != rootID else { throw TreeUpdateError("the root \"\(c)\" cannot be a child of \"\(n.element.id)\"") }
                if let other = newParent.updateValue(n.element.id, forKey: c) {
                    throw TreeUpdateError("\"\(c)\" is named as a child of both \"\(other)\" and \"\(n.element.id)\"")
                }
            }
        }
        for n in update.nodes where index[n.element.id] == nil && newParent[n.element.id] == nil {
            throw TreeUpdateError("node \"\(n.element.id)\" is new, but no children list in this update names it")
        }
        // An element moved to a new parent must leave its old parent's list in the same update.
        for (c, p) in newParent {
            guard let slot = index[c], let old = elements[slot].parent else { continue }
            let oldID = elements[old].id
            if oldID != p, given[oldID].map({ update.nodes[$0].childIDs == nil }) ?? true {
                throw TreeUpdateError("\"\(c)\" is named as a child of \"\(p)\" but is still a child of \"\(oldID)\"")
            }
        }
        // No cycles: walking up from each parent in the new tree never meets the parent again.
        func parentID(_ id: String) -> String? {
            if let p = newParent[id] { return p }
            guard let slot = index[id], let p = elements[slot].parent else { return nil }
            let pid = elements[p].id
            // Dropped from the old parent's new list: no parent any more.
            if let k = given[pid], let kids = update.nodes[k].childIDs, !kids.contains(id) { return nil }
            return pid
        }
        for n in update.nodes where n.childIDs != nil {
            var seen: Set<String> = [n.element.id]
            var up = parentID(n.element.id)
            while let u = up {
                guard seen.insert(u).inserted else {
                    throw TreeUpdateError("the children of \"\(n.element.id)\" make a cycle: \"\(n.element.id)\" would be inside itself")
                }
                up = parentID(u)
            }
        }

        // Checked: apply.
        var change = TreeChange()
        for n in update.nodes {
            if let slot = index[n.element.id] {
                let old = modify(slot) { e in
                    let keep = (e.id, e.parent, e.children)
                    e = n.element
                    (e.id, e.parent, e.children) = keep
                }
                if old != elements[slot] { change.content.append((slot, old)) }
            } else {
                let slot = add(n.element)
                change.content.append((slot, nil))
            }
        }
        var dropped: [(child: Int, from: Int)] = []
        for n in update.nodes {
            guard let kids = n.childIDs else { continue }
            let p = index[n.element.id]!
            let slots = kids.map { index[$0]! }
            let keep = Set(slots)
            for old in elements[p].children where !keep.contains(old) { dropped.append((old, p)) }
            setChildren(of: p, to: slots)
            change.restructured.append(p)
        }
        // A child dropped from its list and named by no other is removed with its subtree.
        for (c, from) in dropped where elements[c].parent == from && !elements[c].isRemoved {
            change.removed += removeSubtree(c)
        }
        if !change.removed.isEmpty {
            change.restructured.removeAll { elements[$0].isRemoved }
            change.content.removeAll { elements[$0.slot].isRemoved }
        }
        return change
    }
}
