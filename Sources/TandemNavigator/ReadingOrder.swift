import TandemModel

/// The elements a user can reach on a screen, in VoiceOver's order (Docs/formats.md#reading-order),
/// kept so that a navigation step is a constant-time lookup and a change costs what it can move.
///
/// Filters, in AccessKit's manner: hidden subtrees are excluded; while a modal element is
/// shown only its subtree is in scope; an accessible element stands for its whole subtree.
///
/// The order is a concatenation of *scopes*: the root (or the shown modal), every container
/// that keeps its elements together (`group`, `order`, a tab bar, a `container` type), every
/// container an `order` names, and every modal container. A scope's elements are contiguous
/// in the order, and a sorted scope keeps its rows (`ScopeRows`), so a change is repaired by
/// re-forming the rows of its scope that it touches and splicing them in (`repair`,
/// ReadingOrder+Repair.swift), not by sorting the scope or the screen again. Changes that move
/// nothing (a value, a label, most traits) cost nothing here.
public struct ReadingOrder: Sendable {
    /// Reachable elements (indices into `Screen.elements`) in navigation order.
    public internal(set) var elements: [Int] = []
    /// Element index → position in `elements`, or -1 when unreachable.
    var position: [Int32] = []
    /// Positions of elements with the `header` trait, ascending.
    public internal(set) var headings: [Int] = []
    /// The shown modal element that scopes navigation, if any.
    public internal(set) var modalRoot: Int?
    /// Whether each element is accessible (the default rule of Docs/formats.md#accessible applied).
    public internal(set) var accessible: [Bool] = []
    /// Own frame, or the union of the children's frames.
    var frames: [Frame?] = []
    /// What each element's children add up to (ChildFrames.swift): the parent each element is
    /// counted in (-1: none), whether it counts there as accessible and shown, how many of an
    /// element's children do, and the union of their frames (for elements with children).
    var countedIn: [Int32] = []
    var countsAccessible: [Bool] = []
    var accessibleChildren: [Int32] = []
    var childFrames: [Int: ChildFrames] = [:]
    /// Container index → its scope: the first element and how many it has in `elements`.
    var scopes: [Int: Scope] = [:]
    /// Sorted scope → its rows (not kept for a scope with an `order`, or whose units do not
    /// all have frames: those are sorted again whole).
    var sortedRows: [Int: ScopeRows] = [:]
    let rightToLeft: Bool
    /// Frames whose tops are less than this many points apart are one row.
    let rowThreshold: Double
    /// Children looked at by `recount` so far: what repairs cost beyond the elements changed
    /// (tests check that a change that moves nothing looks at no sibling).
    var childrenLookedAt = 0
    /// Units a repair looked at or placed, and elements a whole sort built: what reordering
    /// cost (tests check that a row moved in a long list costs the rows it touches).
    var unitsLookedAt = 0
    /// Scopes repaired by re-forming rows, and scopes (or whole orders) sorted again whole:
    /// tests check that random changes mostly take the first way.
    var rowRepairs = 0
    var wholeSorts = 0
    /// Children-list slots read to order units at the same left edge by declaration
    /// (`DeclarationOrder`): tests check that a long list is read once, not at each comparison.
    var declarationLooked = 0
    /// Order slots a splice moved or gave a position (`splice`): tests check that a change
    /// touching many rows costs the order once, not once a row.
    var spliced = 0
    /// Elements whose accessibility and frame a repair recomputed: tests check that a deep
    /// chain costs one each, as a wide list does.
    var computes = 0
    /// Repairs that built the whole order again instead, the change being as large as the
    /// screen (`repair`): tests check that a large update takes that way and a small one not.
    var wholeRebuilds = 0
    /// The orders before elements' `modal` or `hidden` last changed alone (at most
    /// `keptOrders`, the most recent first), to take back when the screen comes back to one
    /// (ReadingOrder+Covered.swift), and how many times one was: tests check that a round of
    /// modals shown and closed builds the screen's order once.
    var covered: [Covered] = []
    var takenBack = 0

    struct Scope: Sendable {
        var first: Int?
        var count: Int
        /// Where the scope sorts among its cousins (its first element's frame); nil for the top.
        var key: Frame?
        /// Scopes directly inside this one (forgotten with it when it is sorted again).
        var inner: Set<Int>
    }

    /// `rowThreshold`: frames whose tops are less than this many points apart are one row
    /// (8 on a phone, 13 on a tablet; `Catalog.device`).
    public init(screen: Screen, language: String, rowThreshold: Double = Frame.phoneRowThreshold) {
        rightToLeft = Self.isRightToLeft(language)
        self.rowThreshold = rowThreshold
        computeAll(screen)
        rebuild(screen)
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
    public static func descendants(of element: Int, in screen: Screen, language: String,
                                   rowThreshold: Double = Frame.phoneRowThreshold) -> [Int] {
        var out: [Int] = []
        Units(screen: screen, rightToLeft: isRightToLeft(language), rowThreshold: rowThreshold).allDescendants(element, into: &out)
        return out
    }

    // MARK: building

    /// Accessibility and union frames of every element, children before parents.
    mutating func computeAll(_ screen: Screen) {
        let n = screen.elements.count
        accessible = Array(repeating: false, count: n)
        frames = Array(repeating: nil, count: n)
        countedIn = Array(repeating: -1, count: n)
        countsAccessible = Array(repeating: false, count: n)
        accessibleChildren = Array(repeating: 0, count: n)
        childFrames = [:]
        guard n > 0 else { return }
        for i in Self.postOrder(screen, from: 0) {
            recount(i, screen)
            _ = compute(i, screen)
        }
    }

    /// The subtree of `root`, children before their parent (iterative: trees can be deep).
    static func postOrder(_ screen: Screen, from root: Int) -> [Int] {
        var out: [Int] = []
        var stack: [(Int, Int)] = [(root, 0)]
        while let (node, next) = stack.last {
            let kids = screen.elements[node].children
            if next < kids.count {
                stack[stack.count - 1].1 = next + 1
                stack.append((kids[next], 0))
            } else {
                out.append(node)
                stack.removeLast()
            }
        }
        return out
    }

    /// Builds the whole order again (the first time, or when the modal in front changed).
    mutating func rebuild(_ screen: Screen) {
        scopes = [:]
        sortedRows = [:]
        headings = []
        position = Array(repeating: -1, count: screen.elements.count)
        modalRoot = Self.topModal(screen)
        guard !screen.elements.isEmpty else { elements = []; return }
        let units = Units(screen: screen, rightToLeft: rightToLeft, rowThreshold: rowThreshold, accessible: accessible, frames: frames)
        var built = Built()
        units.top(modalRoot ?? 0, into: &built)
        elements = built.elements
        scopes = built.scopes
        sortedRows = built.rows
        unitsLookedAt &+= elements.count
        wholeSorts &+= 1
        for (p, e) in elements.enumerated() {
            position[e] = Int32(p)
            if screen.elements[e].traits.contains(.header) { headings.append(p) }
        }
    }

    // MARK: modal

    /// The shown modal element on top: the last in document order.
    static func topModal(_ screen: Screen) -> Int? {
        var best: Int?
        for m in screen.modals where isShown(m, screen) {
            if best.map({ screen.comesBefore($0, m) }) ?? true { best = m }
        }
        return best
    }

    /// Whether nothing from `i` up to the root (or up to `stop`, which must then be an
    /// ancestor of `i`) is hidden.
    static func isShown(_ i: Int, _ screen: Screen, below stop: Int? = nil) -> Bool {
        var p: Int? = i
        while let x = p, x != stop {
            if screen.elements[x].hidden { return false }
            p = screen.elements[x].parent
        }
        // An `order` may name only descendants (an app's update is not checked beforehand).
        return stop == nil || p == stop
    }
}
