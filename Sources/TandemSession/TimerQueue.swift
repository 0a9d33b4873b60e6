import TandemNavigator
import TandemPolicy
import TandemVocabulary

/// Deferred work of a session, ordered by due time; at the same instant, speech ends come
/// first, then the rest in the order they were scheduled, so runs are deterministic.
struct TimerQueue {
    enum Kind: Hashable {
        case speechEnd(Int)
        case navigator(TandemNavigator.Timer)
        case flashEnd(Int)
        case progressBraille
        /// Read-all with speech off: the next element, once the focused one would have been said.
        case readAllStep
        /// The periodic sound of a focused indeterminate loading indicator.
        case busyTick
        /// A braille frame held to the next millisecond: a live session writes at most one a
        /// millisecond (`Session.framePerMillisecond`); the settle after it writes the newest.
        case heldFrame
    }

    struct Entry {
        let due: Milliseconds
        let rank: Int
        let seq: Int
        let kind: Kind
        func before(_ o: Entry) -> Bool { (due, rank, seq) < (o.due, o.rank, o.seq) }
    }

    private(set) var entries: [Entry] = []
    private var seq = 0

    var isEmpty: Bool { entries.isEmpty }
    var nextDue: Milliseconds? { entries.first?.due }

    mutating func add(_ kind: Kind, at due: Milliseconds) {
        let rank: Int = if case .speechEnd = kind { 0 } else { 1 }
        let e = Entry(due: due, rank: rank, seq: seq, kind: kind)
        seq += 1
        // Binary search for the insertion point: the queue stays sorted.
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].before(e) { lo = mid + 1 } else { hi = mid }
        }
        entries.insert(e, at: lo)
    }

    mutating func remove(_ kind: Kind) {
        entries.removeAll { $0.kind == kind }
    }

    /// Removes and returns the first entry due at or before `now`.
    mutating func popDue(at now: Milliseconds) -> Kind? {
        guard let first = entries.first, first.due <= now else { return nil }
        entries.removeFirst()
        return first.kind
    }

    func contains(_ kind: Kind) -> Bool { entries.contains { $0.kind == kind } }

    /// Drops the navigator's timers (its app went to the background).
    mutating func removeNavigatorTimers() {
        entries.removeAll { if case .navigator = $0.kind { true } else { false } }
    }

    /// Only periodic work is left (it would go on for as long as time passes).
    var onlyPeriodic: Bool { entries.allSatisfy { $0.kind == .busyTick } }
}
