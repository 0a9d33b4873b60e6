import TandemPolicy
import TandemPresentation

/// Progress on the braille display at most once a second (Docs/policy.md#braille): a step
/// that comes sooner waits for the second to end, the newest step winning; the last step and
/// a newly focused indicator always show at once.
struct ProgressBraille {
    static let interval: Milliseconds = 1000

    private(set) var lastShown: Milliseconds?
    private(set) var pending: BrailleText?

    enum Decision: Equatable {
        case showNow
        /// Keep it; show it when the interval ends (schedule a timer then, unless one waits).
        case showAt(Milliseconds)
    }

    /// A new progress line.
    mutating func offer(_ text: BrailleText, last: Bool, at now: Milliseconds) -> Decision {
        if last || lastShown.map({ now - $0 >= Self.interval }) ?? true {
            pending = nil
            lastShown = now
            return .showNow
        }
        pending = text
        return .showAt(lastShown! + Self.interval)
    }

    /// The interval ended: the line to show, if one waits.
    mutating func due(at now: Milliseconds) -> BrailleText? {
        guard let p = pending else { return nil }
        pending = nil
        lastShown = now
        return p
    }

    /// A loading indicator was just shown: it counts as a progress update.
    mutating func shown(at now: Milliseconds) { lastShown = now }

    /// Focus moved: a waiting line is stale.
    mutating func focusMoved() { pending = nil }
}
