import TandemPresentation
import TandemVocabulary

/// Settings the policy takes from the profile.
public struct PolicySettings: Sendable, Hashable {
    /// Pause between an element's speech and its hint.
    public var hintDelay: Milliseconds
    /// Intermediate progress is never spoken more often than this.
    public var progressInterval: Milliseconds
    public init(hintDelay: Milliseconds = 1000, progressInterval: Milliseconds = 1000) {
        self.hintDelay = hintDelay; self.progressInterval = progressInterval
    }
}

/// The interruption and queueing policy (Docs/policy.md#rules): decides what to speak, cancel, postpone or
/// drop. Pure and clock-driven, so that headless replays and live sessions run the same code.
///
/// The flow, step by step:
///
/// 1. A key press (`userPressedKey`) starts a new user action: it cancels `text`,
///    `notification` and `progress` that play, drops those that wait, and drops a pending hint.
///    `message` and `important` are untouched.
/// 2. `submit` gives an utterance its priority (`Priority(for:)`) and applies SSIP's rule for it,
///    with Tandem's rules on top:
///    - `important` cuts whatever lower speech plays (an interrupted `message` is put back at
///      the head of the queue, so it is not lost) and queues behind earlier `important` ones;
///    - `message` cuts `text`/`notification`/`progress` — except speech the user's own last
///      action caused (focus or value), which it waits for — and queues behind `important`
///      and earlier `message`s;
///    - `text`: the latest wins; earlier `text` waiting is dropped, playing `text` is cut;
///      it waits for `message` and `important`;
///    - `notification` (hints) is dropped when anything plays or waits;
///    - `progress`: the first of a series waits for its turn (only a key or `stop` drops it), and
///      a newer step replaces it while it waits (the newest wins, as on the display); the
///      last is a `message` that never overtakes a first still waiting, and one in between is
///      dropped while anything plays or waits, or within the progress interval.
///    Anything new drops a hint that was waiting for its pause to end.
/// 3. `startDue` starts the head of the queue when nothing plays; with an empty queue it starts
///    a hint whose pause is over. The driver calls it once its burst of input is processed
///    (after each event when live; at the end of each virtual instant when headless).
/// 4. `speechEnded` (the end-of-speech notice) frees the speaker; an utterance with a hint
///    schedules the hint `hintDelay` later (`nextDeadline`). `speechFinished` is the notice that
///    it was spoken to its end, which also takes back a put-back message that was heard whole.
/// 5. `stop` silences everything except `important`.
public struct SpeechPolicy: Sendable {
    public var settings: PolicySettings
    /// The most announcements (and errors) of one priority that wait; a newer one is merged
    /// into the last waiting (Docs/policy.md#backlog).
    public static let maxWaitingAnnouncements = 32
    /// The longest a merged announcement grows, in characters; past it a newer one is dropped,
    /// saying so in the transcript.
    public static let maxMergedLength = 4_000
    public private(set) var playing: Spoken?
    public private(set) var queue: [Spoken] = []
    /// A hint waiting for its pause to end.
    public private(set) var pendingHint: (spoken: Spoken, due: Milliseconds)?
    var currentUserAction = 0
    var nextID = 0
    var lastProgressSpokenAt: Milliseconds?

    public init(settings: PolicySettings = PolicySettings()) { self.settings = settings }

    /// When the policy next needs `startDue` without any other input (a hint's pause ending).
    public var nextDeadline: Milliseconds? { pendingHint?.due }

    /// Whether nothing plays, waits or is pending.
    public var isIdle: Bool { playing == nil && queue.isEmpty && pendingHint == nil }

    // MARK: input

    /// Step 1: a key press.
    public mutating func userPressedKey(at now: Milliseconds) -> [Decision] {
        currentUserAction += 1
        var out = dropPendingHint(reason: "key")
        // Tandem's own status messages go with the key too: the user has moved on.
        if let p = playing, p.priority.isInterruptible || p.utterance.isStatus {
            out.append(.cancel(p))
            playing = nil
        }
        out += dropQueued(where: { $0.priority.isInterruptible || $0.utterance.isStatus }, reason: "key")
        return out
    }

    /// Step 5: the `stop` command.
    public mutating func stop(at now: Milliseconds) -> [Decision] {
        currentUserAction += 1
        var out = dropPendingHint(reason: "stop")
        if let p = playing, p.priority != .important {
            out.append(.cancel(p))
            playing = nil
        }
        out += dropQueued(where: { $0.priority != .important }, reason: "stop")
        return out
    }

    /// Step 2: something to say. `causedByUser`: the user's current action caused it.
    public mutating func submit(_ utterance: Utterance, causedByUser: Bool, at now: Milliseconds) -> [Decision] {
        let item = Spoken(id: nextID, utterance: utterance, priority: Priority(for: utterance),
                          userAction: causedByUser ? currentUserAction : nil)
        nextID += 1
        var out = dropPendingHint(reason: "interrupted")
        if let merged = mergeIntoBacklog(item) { return out + merged }
        switch item.priority {
        case .important:
            if let p = playing, p.priority != .important {
                out.append(.cancel(p))
                playing = nil
                if p.priority == .message {
                    queue.insert(p, at: insertionIndex(after: [.important]))
                    out.append(.postpone(p, reason: "interrupted by important"))
                }
            }
            // The first progress of a series is spared, as `message` and `text` spare it: "the first
            // and the last are always spoken" (Docs/policy.md#rules). It waits behind the important instead.
            out += dropQueued(where: { ($0.priority == .notification || $0.priority == .progress) && !Self.isFirstProgress($0) }, reason: "important")
            queue.insert(item, at: insertionIndex(after: [.important]))
            if playing != nil { out.append(.postpone(item, reason: "after important")) }
        case .message:
            var waitsForUser = false
            if let p = playing, p.priority.isInterruptible {
                if isUserSpeech(p) {
                    waitsForUser = true
                } else {
                    out.append(.cancel(p))
                    playing = nil
                }
            }
            out += dropQueued(where: { ($0.priority == .notification || $0.priority == .progress) && !Self.isFirstProgress($0) }, reason: "message")
            // At most one status waits: a newer one takes its place (5,000 apps closing queue
            // one "closed", not 5,000).
            if item.utterance.isStatus { out += dropQueued(where: { $0.utterance.isStatus }, reason: "newer status") }
            // After important and earlier messages, and after the user's own speech still waiting.
            var index = insertionIndex(after: [.important, .message])
            if let lastUser = queue.lastIndex(where: isUserSpeech) {
                index = max(index, lastUser + 1)
                waitsForUser = true
            }
            if item.utterance.source == .progress {
                // The last of a series must not overtake a first one still waiting at the back of
                // the queue (it would say "100%" before "50%"): that first moves up to speak just
                // before it.
                let waitingFirsts = queue[index...].filter(Self.isFirstProgress)
                queue.removeAll { s in waitingFirsts.contains { $0.id == s.id } }
                queue.insert(contentsOf: waitingFirsts, at: index)
                index += waitingFirsts.count
            }
            queue.insert(item, at: index)
            if waitsForUser {
                out.append(.postpone(item, reason: "after the user's own speech"))
            } else if playing != nil {
                out.append(.postpone(item, reason: "after \(playing!.priority.rawValue)"))
            }
        case .text:
            out += dropQueued(where: { $0.priority == .text }, reason: "superseded")
            if let p = playing, p.priority.isInterruptible {
                out.append(.cancel(p))
                playing = nil
            }
            out += dropQueued(where: { ($0.priority == .notification || $0.priority == .progress) && !Self.isFirstProgress($0) }, reason: "text")
            let index = insertionIndex(after: [.important, .message])
            queue.insert(item, at: index)
            if let p = playing {
                out.append(.postpone(item, reason: "after \(p.priority.rawValue)"))
            } else if index > 0 {
                // Waits behind an announcement queued in the same instant: visible in the transcript.
                out.append(.postpone(item, reason: "after \(queue[index - 1].priority.rawValue)"))
            }
        case .notification:
            if playing != nil || !queue.isEmpty {
                out.append(.drop(item, reason: "busy"))
            } else {
                queue.append(item)
            }
        case .progress:
            if Self.isFirstProgress(item) {
                queue.append(item)
                if playing != nil || queue.count > 1 { out.append(.postpone(item, reason: "first progress waits")) }
            } else if let w = queue.firstIndex(where: {
                Self.isFirstProgress($0) && $0.priority == .progress && $0.utterance.progress?.element == item.utterance.progress?.element
            }) {
                // A newer step of the same indicator takes the place of its first one still
                // waiting (and its spared status): when it is heard it says what the display
                // shows, not a stale step.
                var newer = item
                newer.utterance.progress = queue[w].utterance.progress
                out.append(.drop(queue[w], reason: "newer progress"))
                queue[w] = newer
                out.append(.postpone(newer, reason: "first progress waits"))
            } else if playing != nil || !queue.isEmpty {
                out.append(.drop(item, reason: "busy"))
            } else if let last = lastProgressSpokenAt, now - last < settings.progressInterval {
                out.append(.drop(item, reason: "interval"))
            } else {
                queue.append(item)
            }
        }
        return out
    }

    /// Step 4: whatever plays speech reports that `id` finished (or was found to be gone).
    public mutating func speechEnded(id: Int, at now: Milliseconds) -> [Decision] {
        guard let p = playing, p.id == id else { return [] }
        playing = nil
        if let hint = p.utterance.hint, !hint.isEmpty {
            let u = Utterance(text: hint, language: p.utterance.language, source: .hint)
            let h = Spoken(id: nextID, utterance: u, priority: .notification, userAction: p.userAction)
            nextID += 1
            pendingHint = (h, now + settings.hintDelay)
        }
        return []
    }

    /// Step 4, when speech-dispatcher says `id` was spoken to its end (its `END`, not a
    /// cancel): as `speechEnded`, and when the policy cut it meanwhile (an `important` came
    /// while its end notice was on the way) and put it back in the queue, it is taken out: it
    /// was heard whole, and saying it again would say it twice.
    public mutating func speechFinished(id: Int, at now: Milliseconds) -> [Decision] {
        if playing?.id == id { return speechEnded(id: id, at: now) }
        guard let index = queue.firstIndex(where: { $0.id == id }) else { return [] }
        return [.drop(queue.remove(at: index), reason: "heard to its end before the cut")]
    }

    /// Step 3: start what is due.
    public mutating func startDue(at now: Milliseconds) -> [Decision] {
        guard playing == nil else { return [] }
        if !queue.isEmpty {
            var out = dropPendingHint(reason: "interrupted")
            let next = queue.removeFirst()
            playing = next
            if next.utterance.source == .progress { lastProgressSpokenAt = now }
            out.append(.speak(next))
            return out
        }
        if let h = pendingHint, h.due <= now {
            pendingHint = nil
            playing = h.spoken
            return [.speak(h.spoken)]
        }
        return []
    }

    // MARK: helpers

    /// The backlog's bound (Docs/policy.md#backlog): with `maxWaitingAnnouncements` of its
    /// priority waiting, an announcement or error is said as part of the last of them (its
    /// text joined on), up to `maxMergedLength` characters; past that it is dropped. Either way
    /// the transcript says so. Nil when the backlog has room.
    mutating func mergeIntoBacklog(_ item: Spoken) -> [Decision]? {
        let source = item.utterance.source
        guard source == .announcement || source == .error, item.priority == .message || item.priority == .important else { return nil }
        let waiting = queue.indices.filter {
            queue[$0].priority == item.priority && (queue[$0].utterance.source == .announcement || queue[$0].utterance.source == .error)
        }
        guard waiting.count >= Self.maxWaitingAnnouncements, let last = waiting.last else { return nil }
        let joined = queue[last].utterance.text + ". " + item.utterance.text
        guard joined.count <= Self.maxMergedLength else { return [.drop(item, reason: "backlog full")] }
        queue[last].utterance.text = joined
        queue[last].utterance.hint = nil
        return [.drop(item, reason: "merged into waiting \(queue[last].id)")]
    }

    /// Speech the user's own latest action caused: it is not cut by an announcement.
    func isUserSpeech(_ s: Spoken) -> Bool {
        s.userAction == currentUserAction && (s.utterance.source == .focus || s.utterance.source == .value)
    }

    static func isFirstProgress(_ s: Spoken) -> Bool {
        s.utterance.source == .progress && (s.utterance.progress?.isFirst ?? false)
    }

    func insertionIndex(after priorities: Set<Priority>) -> Int {
        (queue.lastIndex { priorities.contains($0.priority) } ?? -1) + 1
    }

    mutating func dropQueued(where shouldDrop: (Spoken) -> Bool, reason: String) -> [Decision] {
        var out: [Decision] = []
        queue.removeAll { s in
            guard shouldDrop(s) else { return false }
            out.append(.drop(s, reason: reason))
            return true
        }
        return out
    }

    mutating func dropPendingHint(reason: String) -> [Decision] {
        guard let h = pendingHint else { return [] }
        pendingHint = nil
        return [.drop(h.spoken, reason: reason)]
    }
}
