import TandemModel

/// Orders from before a modal was shown or closed, or an element hidden or shown, kept to be
/// taken back (issue 27, Docs/reliability.md#modal-round).
///
/// A modal shown or closed changes the order's top (`modalRoot`), which was built again whole
/// each time, and a container hidden or shown re-forms every row its elements are in: on a
/// screen of 50,000 elements a small `set` cost a whole sort, and one client's round can hold
/// 256 such lines. When an element's `modal` or `hidden` alone changes (`ScopeToggle`), the
/// order it replaces is kept, with the element's fields before. Each order kept notes, for
/// every element toggled since, the `modal` and `hidden` it had then. When they are all back,
/// and nothing that can move an element changed meanwhile (a change that moves nothing — a
/// value, a label, a header trait — may), the screen is as it was then, so the kept order is
/// exactly the one a build would give, and it is taken back instead (its headings listed again
/// if any element changed meanwhile).
///
/// A toggle that changes the modal in front and matches no order kept exactly takes back one
/// kept with that modal in front (or none) and repairs it for the elements toggled since that
/// differ now, and those whose accessibility or frame changed since (`Covered.movedSince`): a
/// row hidden under a modal costs its own row at the closing, not the screen's order built whole.
///
/// At most `keptOrders` orders are kept, the most recent first, each noting at most
/// `keptToggles` elements: a memory of four orders' arrays. So a round that walks through up
/// to five screens one toggle apart — a modal shown, a row hidden under it, the modal closed,
/// the row shown; two containers hidden and shown in turn — builds or repairs each of them
/// once, and each line after costs the order's arrays changing hands.
extension ReadingOrder {
    /// One element's `modal` or `hidden` changed and nothing else about it: what they were.
    public struct ScopeToggle: Sendable, Equatable {
        public let element: Int
        public let modal: Bool
        public let hidden: Bool

        public init(element: Int, modal: Bool, hidden: Bool) {
            self.element = element; self.modal = modal; self.hidden = hidden
        }

        /// The toggle from `before` to `after` (one element), or nil when more than its
        /// `modal` and `hidden` changed, or neither did.
        public static func between(_ element: Int, from before: Element, to after: Element) -> ScopeToggle? {
            guard before.modal != after.modal || before.hidden != after.hidden else { return nil }
            var same = before
            same.modal = after.modal
            same.hidden = after.hidden
            return same == after ? ScopeToggle(element: element, modal: before.modal, hidden: before.hidden) : nil
        }
    }

    /// The most orders kept at a time (the oldest is let go).
    static let keptOrders = 4
    /// The most elements an order kept notes as toggled since: one toggled further away than
    /// that is let go (the screen is unlikely to come back to it).
    static let keptToggles = 16
    /// The most elements and children an order kept notes as changed since (accessibility or
    /// frame, in place, new, or children that left or came into a list) for it still to be
    /// repaired from (`Covered.movedSince`); the same as the fewest a repair builds whole for:
    /// a repair of fewer is cheaper than a build (a round alternating a modal and updates of
    /// a hundred rows each repaired them at every closing, not the screen built whole).
    static let keptMoved = 1_024

    /// An order a toggle replaced, with the `modal` and `hidden` its screen had for each
    /// element toggled since.
    struct Covered: Sendable {
        var elements: [Int]
        var position: [Int32]
        var headings: [Int]
        var scopes: [Int: Scope]
        var sortedRows: [Int: ScopeRows]
        var modalRoot: Int?
        /// Element → its fields on the kept order's screen, for each element toggled since.
        var toggled: [Int: ScopeToggle]
        /// An element changed since without moving anything: its header trait may have.
        var headingsStale = false
        /// Elements whose accessibility or frame changed since (some may have changed back),
        /// so that the order can be repaired from this one (`repair`); nil when more than
        /// `keptMoved` did.
        var movedSince: [Int]?
        /// Elements changed in place since, in a way that can move them (a frame, a group, an
        /// order: not a toggle), while the modal in front stayed: the screen cannot be the kept
        /// one again, but the order can be repaired from it for them (`repair`).
        var changedSince: [Int] = []
        /// Elements given a whole new children list since, under the modal in front: the
        /// repair compares it with the list the kept rows hold (a children list is read whole).
        var restructuredSince: Set<Int> = []
        /// Children lists changed since by known children (`ChildrenDelta`), each the union of
        /// the deltas noted for it: a child in neither list kept its order through them all.
        var editedSince: [Int: ChildrenDelta] = [:]

        init(of order: ReadingOrder, toggle: ScopeToggle, moved: [Int]) {
            elements = order.elements
            position = order.position
            headings = order.headings
            scopes = order.scopes
            sortedRows = order.sortedRows
            modalRoot = order.modalRoot
            toggled = [toggle.element: toggle]
            movedSince = moved.count <= ReadingOrder.keptMoved ? moved : nil
        }

        /// The kept order after `toggle` (the element's fields before it: the kept screen's,
        /// unless it was toggled before); nil when it would note too many elements.
        func noting(_ toggle: ScopeToggle, moved: [Int]) -> Covered? {
            var k = self
            if toggled[toggle.element] == nil {
                guard toggled.count < ReadingOrder.keptToggles else { return nil }
                k.toggled[toggle.element] = toggle
            }
            if let m = movedSince, !moved.isEmpty {
                k.movedSince = m.count + moved.count <= ReadingOrder.keptMoved ? m + moved : nil
            }
            return k
        }

        /// The kept order after a change under the modal in front that is not a toggle:
        /// elements changed in place or new (`changed`), and `moved` by it, children lists given
        /// whole (`restructured`) or by their children (`edited`; a removed element leaves one);
        /// nil when it would then note more than `keptMoved` elements and children in all.
        func noting(changed: [Int], restructured: [Int] = [], edited: [ChildrenDelta] = [], moved: [Int]) -> Covered? {
            guard let m = movedSince else { return nil }
            var budget = ReadingOrder.keptMoved - m.count - changedSince.count - restructuredSince.count - moved.count
            for d in editedSince.values { budget -= d.removed.count + d.inserted.count }
            guard changed.count + restructured.count <= budget else { return nil }
            var k = self
            k.movedSince = m + moved
            // Each element once (sets: up to `keptMoved` are noted).
            var seen = Set(k.changedSince)
            for c in changed where seen.insert(c).inserted { k.changedSince.append(c) }
            for r in restructured {
                k.restructuredSince.insert(r)
                // The whole list is compared: what was noted child by child is in it.
                k.editedSince[r] = nil
            }
            for d in edited where !k.restructuredSince.contains(d.parent) {
                var u = k.editedSince[d.parent] ?? ChildrenDelta(parent: d.parent, removed: [], inserted: [])
                var left = Set(u.removed), came = Set(u.inserted)
                for c in d.removed where left.insert(c).inserted { u.removed.append(c) }
                for c in d.inserted where came.insert(c).inserted { u.inserted.append(c) }
                k.editedSince[d.parent] = u
            }
            return k.noted <= ReadingOrder.keptMoved ? k : nil
        }

        /// Elements and children noted since the order was kept (bounded by `keptMoved`).
        var noted: Int {
            (movedSince?.count ?? 0) + changedSince.count + restructuredSince.count
                + editedSince.values.reduce(0) { $0 + $1.removed.count + $1.inserted.count }
        }

        /// Whether this order can be taken back and repaired for what changed since, now that
        /// `top` is the modal in front (`restore`).
        func restorable(top: Int?, _ screen: Screen) -> Bool {
            modalRoot == top && movedSince != nil && position.count <= screen.elements.count
        }

        /// The elements toggled since whose `modal` or `hidden` differ now.
        func differing(_ screen: Screen) -> [Int] {
            toggled.values.filter { t in screen.elements[t.element].modal != t.modal || screen.elements[t.element].hidden != t.hidden }
                .map(\.element).sorted()
        }

        /// Whether the screen is, for the order, the one this order was kept from: every element
        /// toggled since is back as it was (and the modal in front is the one it had).
        func matches(_ screen: Screen, top: Int?) -> Bool {
            guard modalRoot == top, position.count == screen.elements.count, changedSince.isEmpty, restructuredSince.isEmpty,
                  editedSince.isEmpty else { return false }
            return toggled.allSatisfy { e, t in screen.elements[e].modal == t.modal && screen.elements[e].hidden == t.hidden }
        }
    }

    /// Makes `k`, an order kept from a screen the screen is again (`Covered.matches`), the order.
    mutating func takeBack(_ k: consuming Covered, _ screen: Screen) {
        elements = k.elements
        position = k.position
        // Elements added since (new slots at the end) are not in the kept order.
        if position.count < screen.elements.count { position += repeatElement(-1, count: screen.elements.count - position.count) }
        scopes = k.scopes
        sortedRows = k.sortedRows
        modalRoot = k.modalRoot
        if k.headingsStale {
            let order = k.elements
            headings = order.indices.filter { screen.elements[order[$0]].traits.contains(.header) }
        } else {
            headings = k.headings
        }
        takenBack &+= 1
    }

    /// Makes `k`, an order kept with the modal now in front, the order, repaired for what
    /// changed since it was kept: the elements toggled since whose `modal` or `hidden` differ
    /// now, those changed in place, new or moved, and the children lists changed (a row hidden,
    /// moved, added or removed under the modal costs its own rows at the closing).
    mutating func restore(_ k: consuming Covered, _ screen: Screen) {
        let live = { (x: Int) in x < screen.elements.count && !screen.elements[x].isRemoved }
        let differ = Set(k.differing(screen) + k.changedSince).filter(live).sorted()
        let edited = k.editedSince.values.filter { live($0.parent) }.sorted { $0.parent < $1.parent }
        let restructured = k.restructuredSince.filter(live).sorted() + edited.map(\.parent)
        let moved = (k.movedSince ?? []).filter(live)
        // Given away whole: a copy still held here would make the repair copy the order's
        // arrays and rows (50,000 of each) before changing them.
        takeBack(consume k, screen)
        reorder(screen, changed: differ, restructured: restructured, edited: edited, moved: moved)
        for c in differ { updateHeading(c, screen) }
    }
}
