import TandemModel

/// The elements a user can reach on a screen, in VoiceOver's order, built once per change of
/// structure so that a navigation step is a constant-time lookup.
///
/// Filters, in AccessKit's manner: hidden subtrees are excluded; while a modal element is
/// shown only its subtree is in scope; an accessible element stands for its whole subtree.
/// The same pass records each element's container context (`ElementContext`: tab 2 of 4,
/// list start, a table cell's row), so presenting a step needs no walk of the tree.
public struct ReadingOrder: Sendable {
    /// Reachable elements (indices into `Screen.elements`) in navigation order.
    public private(set) var elements: [Int] = []
    /// Element index → position in `elements`, or -1 when unreachable.
    private var position: [Int32] = []
    /// Positions of elements with the `header` trait, ascending.
    public private(set) var headings: [Int] = []
    /// The shown modal element that scopes navigation, if any.
    public private(set) var modalRoot: Int?
    /// Whether each element is accessible (SPEC §1's default rule applied).
    public private(set) var accessible: [Bool] = []
    /// Container context of the reachable elements that have one.
    private var contexts: [Int: ElementContext] = [:]

    /// `rowThreshold`: frames whose tops are less than this many points apart are one row
    /// (8 on a phone, 13 on a tablet; `Catalog.device`).
    public init(screen: Screen, language: String, rowThreshold: Double = Frame.phoneRowThreshold) {
        var builder = ReadingOrderBuilder(screen: screen, rightToLeft: Self.isRightToLeft(language), rowThreshold: rowThreshold)
        builder.computeAccessibility()
        modalRoot = builder.topModal()
        let root = modalRoot ?? 0
        elements = builder.unit(root)?.elements ?? []
        accessible = builder.accessible
        contexts = builder.contexts
        position = Array(repeating: -1, count: screen.elements.count)
        for (p, e) in elements.enumerated() {
            position[e] = Int32(p)
            if screen.elements[e].traits.contains(.header) { headings.append(p) }
        }
    }

    /// Position of an element in the order, or nil when it cannot be reached.
    public func position(of element: Int) -> Int? {
        guard element >= 0, element < position.count, position[element] >= 0 else { return nil }
        return Int(position[element])
    }

    public func contains(_ element: Int) -> Bool { position(of: element) != nil }

    /// What VoiceOver says about the element's place in its container, if anything.
    public func context(of element: Int) -> ElementContext? { contexts[element] }

    /// Languages written right to left: frames in a row are read from the right.
    public static func isRightToLeft(_ language: String) -> Bool {
        let base = language.lowercased().split(separator: "-").first.map(String.init) ?? ""
        return ["ar", "he", "fa", "ur", "yi", "ps", "sd", "ug"].contains(base)
    }

    /// The non-hidden descendants of `element` in reading order (frames sorted as for
    /// navigation), used to label an accessible element that has no label of its own.
    public static func descendants(of element: Int, in screen: Screen, language: String,
                                   rowThreshold: Double = Frame.phoneRowThreshold) -> [Int] {
        let builder = ReadingOrderBuilder(screen: screen, rightToLeft: isRightToLeft(language), rowThreshold: rowThreshold)
        var out: [Int] = []
        builder.allDescendants(element, into: &out)
        return out
    }
}
