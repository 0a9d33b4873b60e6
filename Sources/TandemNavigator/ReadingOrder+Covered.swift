import TandemModel

/// The order before a modal was shown or closed, or an element hidden or shown, kept to be
/// taken back (issue 27, Docs/reliability.md#modal-round).
///
/// A modal shown or closed changes the order's top (`modalRoot`), which was built again whole
/// each time, and a container hidden or shown re-forms every row its elements are in: on a
/// screen of 50,000 elements a small `set` cost a whole sort, and one client's round can hold
/// 256 such lines. When an element's `modal` or `hidden` alone changes (`ScopeToggle`), the
/// order it replaces is kept with the element's fields before. When they are back, and nothing
/// that can move an element changed meanwhile (a change that moves nothing — a value, a label,
/// a header trait — may), the screen is as it was then, so the kept order is exactly the one a
/// build would give, and it is taken back instead (its headings listed again if any element
/// changed meanwhile). One order is kept, no more: a round of such toggles builds the screen's
/// order at most once, and each line after costs the order's arrays changing hands.
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

    /// An order a toggle replaced, and the toggle with the element's fields before it.
    struct Covered: Sendable {
        var elements: [Int]
        var position: [Int32]
        var headings: [Int]
        var scopes: [Int: Scope]
        var sortedRows: [Int: ScopeRows]
        var modalRoot: Int?
        var toggle: ScopeToggle
        /// An element changed since without moving anything: its header trait may have.
        var headingsStale = false

        init(of order: ReadingOrder, toggle: ScopeToggle) {
            elements = order.elements
            position = order.position
            headings = order.headings
            scopes = order.scopes
            sortedRows = order.sortedRows
            modalRoot = order.modalRoot
            self.toggle = toggle
        }
    }

    /// Takes back `kept` when `toggle`'s element is back as it was when it was kept (the
    /// screen is then as it was); false when it is not.
    mutating func takeBack(_ kept: Covered?, _ toggle: ScopeToggle, top: Int?, _ screen: Screen) -> Bool {
        let e = screen.elements[toggle.element]
        guard let k = kept, k.toggle.element == toggle.element, k.toggle.modal == e.modal, k.toggle.hidden == e.hidden,
              k.modalRoot == top, k.position.count == screen.elements.count else { return false }
        elements = k.elements
        position = k.position
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
        return true
    }
}
