import TandemPolicy
import TandemPresentation
import TandemVocabulary

/// Progress on the braille display at most once a second (Docs/policy.md#braille), one status
/// per loading indicator (Docs/braille.md#rules): a step that comes sooner than a second after
/// that indicator's last shown one waits for the second to end, its newest step winning; the
/// last step and a newly focused indicator always show at once. Only the focused indicator's
/// steps reach the focus line, so another indicator's never delays or replaces them.
struct ProgressBraille {
    static let interval: Milliseconds = 1000

    /// When each indicator's progress was last shown, by element id.
    private(set) var lastShown: [String: Milliseconds] = [:]
    /// The step waiting for its indicator's second to end: the indicator and its line.
    private(set) var pending: (element: String, text: BrailleText)?

    enum Decision: Equatable {
        case showNow
        /// Keep it; show it when the interval ends (schedule a timer then, unless one waits).
        case showAt(Milliseconds)
    }

    /// A new progress line of indicator `element`.
    mutating func offer(_ text: BrailleText, element: String, last: Bool, at now: Milliseconds) -> Decision {
        if last || lastShown[element].map({ now - $0 >= Self.interval }) ?? true {
            if pending?.element == element { pending = nil }
            lastShown[element] = last ? nil : now
            return .showNow
        }
        pending = (element, text)
        return .showAt(lastShown[element]! + Self.interval)
    }

    /// The interval ended: the line to show, if one waits.
    mutating func due(at now: Milliseconds) -> BrailleText? {
        guard let p = pending else { return nil }
        pending = nil
        lastShown[p.element] = now
        return p.text
    }

    /// Indicator `element` was just shown as the focus line: it counts as a progress update.
    mutating func shown(_ element: String, at now: Milliseconds) { lastShown[element] = now }

    /// Focus moved: a waiting line is stale.
    mutating func focusMoved() { pending = nil }
}
