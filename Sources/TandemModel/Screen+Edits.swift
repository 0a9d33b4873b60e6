/// Changing a screen's tree in place, at the cost of what changes (never a walk of the whole
/// screen): the content of one element, a children list, an added or removed subtree.
extension Screen {
    /// Changes the element at `slot` (any field but `id`, `parent` and `children`, which the
    /// tree owns); returns it as it was.
    @discardableResult
    public mutating func modify(_ slot: Int, _ change: (inout Element) -> Void) -> Element {
        let old = elements[slot]
        change(&elements[slot])
        elements[slot].id = old.id
        elements[slot].parent = old.parent
        elements[slot].children = old.children
        if old.modal != elements[slot].modal {
            if elements[slot].modal { modals.append(slot) } else { modals.removeAll { $0 == slot } }
        }
        return old
    }

    /// Adds an element with no parent or children yet; returns its slot (a free one if any).
    mutating func add(_ element: Element) -> Int {
        var e = element
        e.parent = nil
        e.children = []
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            elements[slot] = e
        } else {
            slot = elements.count
            elements.append(e)
        }
        index[e.id] = slot
        if e.modal { modals.append(slot) }
        return slot
    }

    /// Gives `parent` exactly these children, in order, and each of them its parent.
    mutating func setChildren(of parent: Int, to children: [Int]) {
        elements[parent].children = children
        for c in children { elements[c].parent = parent }
    }

    /// Removes `slot` and every descendant that still has its parent there (descendants that
    /// moved elsewhere stay); returns the removed elements' ids, and adds their slots to `slots`.
    mutating func removeSubtree(_ slot: Int, slots: inout [Int]) -> [String] {
        var removed: [String] = []
        var stack = [slot]
        while let x = stack.popLast() {
            for c in elements[x].children where elements[c].parent == x { stack.append(c) }
            removed.append(elements[x].id)
            slots.append(x)
            index[elements[x].id] = nil
            if elements[x].modal { modals.removeAll { $0 == x } }
            elements[x] = Element(id: "")
            elements[x].isRemoved = true
            free.append(x)
        }
        return removed
    }

    /// Whether `a` comes before `b` in document order (pre-order: a parent before its children,
    /// siblings in their children list's order).
    public func comesBefore(_ a: Int, _ b: Int) -> Bool {
        guard a != b else { return false }
        switch parting(a, b) {
        case .ancestor(let aFirst):
            return aFirst
        case .under(let parent, let x, let y):
            let siblings = elements[parent].children
            return (siblings.firstIndex(of: x) ?? 0) < (siblings.firstIndex(of: y) ?? 0)
        }
    }

    /// Where two different elements part in the tree, for declaration order.
    enum Parting {
        /// One is the other's ancestor; `aFirst` when it is `a`.
        case ancestor(aFirst: Bool)
        /// They descend from two different children, `a` and `b`, of `parent`.
        case under(parent: Int, a: Int, b: Int)
    }

    /// Where `a` and `b` (different) part: their paths from the root, compared.
    func parting(_ a: Int, _ b: Int) -> Parting {
        func chain(_ x: Int) -> [Int] {
            var out = [x]
            while let p = elements[out.last!].parent { out.append(p) }
            return out.reversed()
        }
        let ca = chain(a), cb = chain(b)
        var k = 0
        while k < ca.count, k < cb.count, ca[k] == cb[k] { k += 1 }
        if k == ca.count { return .ancestor(aFirst: true) }
        if k == cb.count { return .ancestor(aFirst: false) }
        return .under(parent: ca[k - 1], a: ca[k], b: cb[k])
    }
}
