import TandemModel
import TandemNavigator

/// One screen as a user meets it in one state (as it opens, or after one effect list): what
/// VoiceOver can reach and in what order — from `ReadingOrder`, the same code that speaks, so
/// lint and speech never disagree — with frames, visibility and the labels VoiceOver says.
struct ScreenState {
    let catalog: Catalog
    let screenIndex: Int
    let screen: Screen
    /// The catalog's language: labels resolve in it, and its words are the ones checked.
    let language: String
    let order: ReadingOrder
    /// Own frame, else the union of the children's (Docs/formats.md#element).
    let frames: [Frame?]
    /// Not hidden, nor inside anything hidden.
    let shown: [Bool]
    /// The last index of each element's subtree (the table is in pre-order).
    let subtreeEnd: [Int]
    /// `nil` as the screen opens; else the effects that led here (`after activating "x"`).
    let context: String?
    /// Whether each element was shown as the screen opened (what an overlay shown by an
    /// effect was not).
    let shownAtOpening: [Bool]
    /// Elements whose fields an effect changed without changing what is reachable: the
    /// element rules look at these alone, with their changed fields in `overrides`.
    let changed: [Int]?
    let overrides: [Int: Element]
    /// After an effect that changed what is reachable: the elements whose element findings
    /// can differ from the opening's (newly reachable, changed, or above a changed one).
    let revisit: Set<Int>?
    /// Words of texts, shared by every state of one lint run; labels of this state.
    let words: WordMemo
    private let labels = LabelMemo()
    /// The opening's labels, for the elements `revisit` leaves out (theirs did not change).
    private let openingLabel: ((Int) -> String)?

    /// `opening`: the same screen as it opens, when this state is after an effect that changed
    /// `changedElements`.
    init(catalog: Catalog, screenIndex: Int, words: WordMemo, context: String? = nil, opening: ScreenState? = nil,
         changedElements: [Int] = []) {
        self.words = words
        self.catalog = catalog
        self.screenIndex = screenIndex
        let screen = catalog.screens[screenIndex]
        self.screen = screen
        language = catalog.language
        order = ReadingOrder(screen: screen, language: catalog.language)
        let els = screen.elements
        var frames = [Frame?](repeating: nil, count: els.count)
        var end = Array(els.indices)
        for i in stride(from: els.count - 1, through: 0, by: -1) {
            var union: Frame?
            for c in els[i].children {
                if let f = frames[c] { union = union.map { $0.union(f) } ?? f }
            }
            frames[i] = els[i].frame ?? union
            if let last = els[i].children.last { end[i] = end[last] }
        }
        var shown = [Bool](repeating: true, count: els.count)
        for i in els.indices {
            shown[i] = !els[i].hidden && (els[i].parent.map { shown[$0] } ?? true)
        }
        self.frames = frames
        self.shown = shown
        shownAtOpening = opening?.shown ?? shown
        subtreeEnd = end
        self.context = context
        changed = nil
        overrides = [:]
        if let opening {
            var revisit = Set(order.elements.filter { !opening.order.contains($0) })
            for c in changedElements {
                var p: Int? = c
                while let x = p, revisit.insert(x).inserted { p = els[x].parent }
            }
            self.revisit = revisit
            openingLabel = { opening.label($0) }
        } else {
            revisit = nil
            openingLabel = nil
        }
    }

    /// `base` with some elements' fields changed (labels, traits, hints: nothing that alters
    /// what is reachable); only those elements are checked again.
    init(base: ScreenState, overrides: [Int: Element], context: String) {
        words = base.words
        revisit = nil
        openingLabel = nil
        catalog = base.catalog
        screenIndex = base.screenIndex
        screen = base.screen
        language = base.language
        order = base.order
        frames = base.frames
        shown = base.shown
        shownAtOpening = base.shownAtOpening
        subtreeEnd = base.subtreeEnd
        self.context = context
        self.overrides = overrides
        changed = overrides.keys.sorted()
    }

    var isOpening: Bool { context == nil }

    func element(_ i: Int) -> Element {
        overrides.isEmpty ? screen.elements[i] : overrides[i] ?? screen.elements[i]
    }

    /// The elements the element rules check: every reachable one, or the changed ones.
    var checkedElements: [Int] {
        if let changed { return changed.filter(isReachable) }
        if let revisit { return order.elements.filter(revisit.contains) }
        return order.elements
    }

    func isReachable(_ i: Int) -> Bool { order.contains(i) }

    func isDescendant(_ d: Int, of a: Int) -> Bool { d > a && d <= subtreeEnd[a] }

    /// The label VoiceOver says (`Linter.spokenLabel`), with this state's changes.
    func label(_ i: Int) -> String {
        if let known = labels.table[i] { return known }
        if let revisit, let openingLabel, !revisit.contains(i) { return openingLabel(i) }
        let label = Linter.spokenLabel(element(i), at: i, on: screen, in: catalog, language: language)
        labels.table[i] = label
        return label
    }

    func tokens(_ text: String) -> [String] { words.tokens(text) }

    func normalised(_ text: String) -> String { words.tokens(text).joined(separator: " ") }

    /// Whether the user can act on it: a control's trait, or something it does.
    func isInteractive(_ i: Int) -> Bool { Self.isInteractive(element(i)) }

    /// A switch or a text field is used as much as a button: an unlabelled one is an error (#23).
    static let controlTraits: Traits = [.button, .link, .searchField, .keyboardKey, .adjustable, .tabBar,
                                        .switchButton, .textField, .secureTextField]

    static func isInteractive(_ e: Element) -> Bool {
        !e.traits.isDisjoint(with: controlTraits) || e.activate != nil || !e.actions.isEmpty || e.adjust != nil
    }

    /// The element's id in messages.
    func name(_ i: Int) -> String { "\"\(screen.elements[i].id)\"" }

    /// The screen's extent: the root's frame, else the union of every frame on it.
    var bounds: Frame? { frames.first ?? nil }
}

/// Words of texts already split, for one lint run: labels and hints repeat (a catalog of a
/// thousand products has a dozen names), and every state looks at them again.
final class WordMemo {
    private var table: [String: [String]] = [:]

    func tokens(_ text: String) -> [String] {
        if let known = table[text] { return known }
        let t = Words.tokens(text)
        table[text] = t
        return t
    }
}

/// The labels of one state, as they are asked for.
final class LabelMemo {
    var table: [Int: String] = [:]
}

extension Frame {
    var area: Double { width * height }

    var centre: (x: Double, y: Double) { (x + width / 2, y + height / 2) }

    /// Whether the point lies inside (edges included on the top and leading sides only, so a
    /// point on the border between two frames belongs to one of them).
    func contains(_ p: (x: Double, y: Double)) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// The area the two frames share.
    func overlapArea(_ other: Frame) -> Double {
        let w = min(maxX, other.maxX) - max(minX, other.minX)
        let h = min(maxY, other.maxY) - max(minY, other.minY)
        return w > 0 && h > 0 ? w * h : 0
    }

    /// `12×32`, whole numbers without decimals.
    var sizeText: String { "\(Self.number(width))×\(Self.number(height))" }

    static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e9 ? String(Int(d)) : String(d)
    }
}
