import TandemModel

/// Changes to the catalog while the user is in it — effects, app updates — and how the
/// reading order and focus follow them at the cost of the change.
extension Navigator {
    /// Where focus was before a batch of changes, with the elements after and before it
    /// (nearest first), so that focus can go to the next survivor if the batch takes it away.
    /// A window, not a copy of the order: a batch on a huge screen copies nothing.
    struct Neighbours {
        static let window = 32
        let position: Int
        let after: ArraySlice<Int>
        let before: [Int]

        /// The first element after (else before) the old focus that can still be reached,
        /// else whatever stands at the old focus's place now.
        func survivor(in o: ReadingOrder) -> Int? {
            if let a = after.first(where: o.contains) ?? before.first(where: o.contains) { return a }
            return o.elements.isEmpty ? nil : o.elements[min(position, o.elements.count - 1)]
        }
    }

    mutating func neighboursOfFocus() -> Neighbours? {
        let o = readingOrder()
        guard let f = focusIndex, let p = o.position(of: f) else { return nil }
        let after = o.elements[(p + 1)..<min(o.elements.count, p + 1 + Neighbours.window)]
        let before = Array(o.elements[max(0, p - Neighbours.window)..<p].reversed())
        return Neighbours(position: p, after: after, before: before)
    }

    /// The reading order of screen `s` follows a change (when it has been built at all).
    mutating func repairOrder(screen s: Int, changed: [Int], restructured: [Int], edited: [ChildrenDelta] = [], removed: [Int] = [],
                              movesUnits: Bool, toggle: ReadingOrder.ScopeToggle? = nil) {
        guard orders[s] != nil else { return }
        orders[s]!.repair(catalog.screens[s], changed: changed, restructured: restructured, edited: edited, removed: removed,
                          movesUnits: movesUnits, toggle: toggle)
    }

    /// One element's content changed from `before`: the order follows, and the focused
    /// element's change is reported (its label or traits: said again; its value: the value).
    mutating func contentChanged(screen s: Int, element e: Int, from before: Element, into events: inout [NavigatorEvent]) {
        let after = catalog.screens[s].elements[e]
        repairOrder(screen: s, changed: [e], restructured: [], movesUnits: ReadingOrder.changeMovesUnits(from: before, to: after),
                    toggle: ReadingOrder.ScopeToggle.between(e, from: before, to: after))
        report(screen: s, element: e, from: before, into: &events)
    }
}
