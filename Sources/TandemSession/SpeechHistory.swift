import TandemPresentation
import TandemVocabulary

/// What was spoken (with speech off, what would have been: the display showed it), oldest
/// first, and where the user is in reviewing it (`history-previous`, `history-next`).
/// Reviewing does not add to it; anything new spoken ends the review.
struct SpeechHistory {
    /// How many utterances are kept.
    static let limit = 500

    private(set) var entries: [Utterance] = []
    /// The entry under review; nil when not reviewing (the next step back is the newest).
    private(set) var index: Int?

    /// Something new was spoken.
    mutating func record(_ u: Utterance) {
        entries.append(u)
        if entries.count > Self.limit { entries.removeFirst(entries.count - Self.limit) }
        index = nil
    }

    /// One step back (or forward) in the history: the entry as it is read back (a value, no
    /// hint, marked as a review) with its position, or nil at either end.
    mutating func step(back: Bool) -> (utterance: Utterance, position: Int)? {
        let current = index ?? entries.count
        let target = current + (back ? -1 : 1)
        guard entries.indices.contains(target) else { return nil }
        index = target
        var u = entries[target]
        u.hint = nil
        u.source = .value
        u.isReview = true
        return (u, target)
    }

    /// The last `n` texts, oldest first.
    func recent(_ n: Int) -> [String] { entries.suffix(n).map(\.text) }
}
