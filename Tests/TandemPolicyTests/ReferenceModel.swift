import TandemPolicy
import TandemPresentation
import TandemVocabulary

/// A reference model of Docs/policy.md#rules, written apart from `SpeechPolicy` and on purpose in another
/// shape: no queue that items are inserted into at computed positions, but a bag of waiting
/// items and a rank that says who speaks first; and each rule is a short list of "what this
/// newcomer does to what plays and to what waits". Utterances are known by their text (the
/// property test makes every text unique), never by the policy's ids.
///
/// The rank, lowest first:
/// 1. `important`, in arrival order;
/// 2. the message, text and progress band:
///    - a message put back after an important cut it, before everything else in the band;
///    - messages and the user's own text (focus or value caused by the current action), in
///      arrival order: so text waits for the messages before it, and messages for the user's text;
///    - a first progress that a last progress pulled up, just before that last one;
///    - text the user did not cause (or no longer "current"), after every message;
/// 3. notifications and progress, in arrival order.
struct ReferenceModel {
    struct Item {
        var text: String
        var kind: Priority
        var source: Source
        /// The user action that caused it.
        var action: Int?
        var hint: String?
        /// The first step of a progress series that is not also its last.
        var isFirstProgress: Bool
        var arrival: Int
        /// The arrival of the last progress that pulled this waiting first progress up.
        var pulledUpBy: Int?
        /// Set when an important cut it: the n-th put-back.
        var putBack: Int?
    }

    /// What the listener would notice: a verb, a priority and the text.
    typealias Event = String

    let settings: PolicySettings
    var now: Milliseconds = 0
    var action = 0
    var playing: Item?
    var waiting: [Item] = []
    var hint: (item: Item, due: Milliseconds)?
    var lastProgressStart: Milliseconds?
    var arrivals = 0
    var putBacks = 0

    init(settings: PolicySettings) { self.settings = settings }

    // MARK: what an utterance is

    static func kind(of u: Utterance) -> Priority {
        switch u.source {
        case .announcement: return u.important ? .important : .message
        case .error: return .message
        case .focus, .value: return .text
        case .hint: return .notification
        case .progress:
            guard let p = u.progress else { return .progress }
            return p.step >= p.steps ? .message : .progress
        }
    }

    /// What a key press, a `message` or `text` cuts.
    static func isChatter(_ kind: Priority) -> Bool { kind == .text || kind == .notification || kind == .progress }

    /// What `important`, `message` and `text` drop from the waiting bag: notifications, and
    /// progress that is not the first of its series.
    static func isDroppableChatter(_ i: Item) -> Bool {
        (i.kind == .notification || i.kind == .progress) && !i.isFirstProgress
    }

    func isUsersOwn(_ i: Item) -> Bool {
        i.kind == .text && i.action == action
    }

    func rank(_ i: Item) -> (band: Int, place: Double, arrival: Int) {
        switch i.kind {
        case .important:
            return (0, 0, i.arrival)
        case .message:
            if let n = i.putBack { return (1, -Double(n), i.arrival) }
            return (1, Double(2 * i.arrival), i.arrival)
        case .text:
            return (1, isUsersOwn(i) ? Double(2 * i.arrival) : .infinity, i.arrival)
        case .notification, .progress:
            if let last = i.pulledUpBy { return (1, Double(2 * last - 1), i.arrival) }
            return (2, 0, i.arrival)
        }
    }

    /// The waiting items in the order they will speak.
    var line: [Item] { waiting.sorted { rank($0) < rank($1) } }

    // MARK: input

    mutating func key() -> [Event] {
        action += 1
        var out = dropHint()
        if let p = playing, Self.isChatter(p.kind) { out.append(cancel()) }
        out += drop { Self.isChatter($0.kind) }
        return out
    }

    mutating func stop() -> [Event] {
        action += 1
        var out = dropHint()
        if let p = playing, p.kind != .important { out.append(cancel()) }
        out += drop { $0.kind != .important }
        return out
    }

    mutating func submit(_ u: Utterance, causedByUser: Bool) -> [Event] {
        let kind = Self.kind(of: u)
        let item = Item(text: u.text, kind: kind, source: u.source, action: causedByUser ? action : nil, hint: u.hint,
                        isFirstProgress: kind == .progress && (u.progress?.step ?? 2) <= 1, arrival: arrivals)
        arrivals += 1
        var out = dropHint()
        switch kind {
        case .important:
            if let p = playing, p.kind != .important {
                out.append(cancel())
                if p.kind == .message {
                    putBacks += 1
                    var again = p
                    again.putBack = putBacks
                    waiting.append(again)
                }
            }
            out += drop(where: Self.isDroppableChatter)
        case .message:
            if let p = playing, Self.isChatter(p.kind), !isUsersOwn(p) { out.append(cancel()) }
            out += drop(where: Self.isDroppableChatter)
            if u.source == .progress {
                for i in waiting.indices where waiting[i].isFirstProgress && waiting[i].pulledUpBy == nil {
                    waiting[i].pulledUpBy = item.arrival
                }
            }
        case .text:
            out += drop { $0.kind == .text }
            if let p = playing, Self.isChatter(p.kind) { out.append(cancel()) }
            out += drop(where: Self.isDroppableChatter)
        case .notification:
            if playing != nil || !waiting.isEmpty { return out + ["drop \(kind.rawValue) \(item.text)"] }
        case .progress:
            if !item.isFirstProgress {
                // A newer step takes over a first one still waiting: its place, its rank, its sparing.
                if let w = waiting.firstIndex(where: { $0.isFirstProgress }) {
                    out.append("drop \(kind.rawValue) \(waiting[w].text)")
                    waiting[w].text = item.text
                    return out
                }
                if playing != nil || !waiting.isEmpty { return out + ["drop \(kind.rawValue) \(item.text)"] }
                if let start = lastProgressStart, now - start < settings.progressInterval {
                    return out + ["drop \(kind.rawValue) \(item.text)"]
                }
            }
        }
        waiting.append(item)
        return out
    }

    mutating func ended(_ text: String) -> [Event] {
        guard let p = playing, p.text == text else { return [] }
        playing = nil
        if let h = p.hint, !h.isEmpty {
            let item = Item(text: h, kind: .notification, source: .hint, action: p.action, hint: nil,
                            isFirstProgress: false, arrival: arrivals)
            arrivals += 1
            hint = (item, now + settings.hintDelay)
        }
        return []
    }

    mutating func settle() -> [Event] {
        guard playing == nil else { return [] }
        if let next = line.first {
            var out = dropHint()
            waiting.removeAll { $0.arrival == next.arrival }
            playing = next
            if next.source == .progress { lastProgressStart = now }
            out.append("speak \(next.kind.rawValue) \(next.text)")
            return out
        }
        if let h = hint, h.due <= now {
            hint = nil
            playing = h.item
            return ["speak \(h.item.kind.rawValue) \(h.item.text)"]
        }
        return []
    }

    // MARK: helpers

    mutating func cancel() -> Event {
        let p = playing!
        playing = nil
        return "cancel \(p.kind.rawValue) \(p.text)"
    }

    mutating func drop(where shouldDrop: (Item) -> Bool) -> [Event] {
        let gone = waiting.filter(shouldDrop)
        waiting.removeAll(where: shouldDrop)
        return gone.map { "drop \($0.kind.rawValue) \($0.text)" }
    }

    mutating func dropHint() -> [Event] {
        guard let h = hint else { return [] }
        hint = nil
        return ["drop \(h.item.kind.rawValue) \(h.item.text)"]
    }
}
