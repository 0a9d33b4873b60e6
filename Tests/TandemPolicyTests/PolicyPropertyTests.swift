import TandemVocabulary
import Testing
import TandemPolicy
import TandemPresentation
import TandemTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thousands of random, seeded sequences of submits (every source), key presses, stops, clock
/// advances, settles and end-of-speech notices (current and stale), each followed to the end.
/// After every step the policy must agree with `ReferenceModel`, and over the whole run it must
/// keep the promises of Docs/policy.md#rules (the invariants below), which are checked from its decisions alone.
///
/// `TANDEM_PROPERTY_CASES=N` runs N sequences instead of the default (the nightly option).
@Suite("SpeechPolicy against a reference model")
struct PolicyPropertyTests {
    static let defaultCases = 3000
    static let baseSeed: UInt64 = 0x7A4D_E3_5EED

    static var cases: Int {
        if let text = Environment.value("TANDEM_PROPERTY_CASES"), let n = Int(text), n > 0 { return n }
        return defaultCases
    }

    @Test("random sequences keep the invariants of Docs/policy.md#rules and agree with the reference model")
    func randomSequences() {
        var failures = 0
        for index in 0..<Self.cases {
            let seed = Self.baseSeed &+ UInt64(index)
            var run = PropertyRun(seed: seed)
            if let failure = run.play() {
                failures += 1
                Issue.record("""
                    seed \(seed) (case \(index)), step \(run.trace.count): \(failure)
                    last steps:
                    \(run.trace.suffix(25).joined(separator: "\n"))
                    """)
                if failures >= 3 { break }
            }
        }
    }

    @Test("the same seed gives the same sequence and the same decisions")
    func deterministic() {
        var a = PropertyRun(seed: Self.baseSeed)
        var b = PropertyRun(seed: Self.baseSeed)
        #expect(a.play() == nil)
        #expect(b.play() == nil)
        #expect(a.trace == b.trace)
        #expect(!a.trace.isEmpty)
    }
}

/// The environment, without Foundation.
enum Environment {
    static func value(_ name: String) -> String? {
        guard let p = getenv(name) else { return nil }
        return String(cString: p)
    }
}

/// One random sequence: the generator, the policy, the model and the invariant checks.
struct PropertyRun {
    enum Op {
        case say(Utterance, user: Bool)
        case key, stop, settle
        case advance(Milliseconds)
        /// The end-of-speech notice for this id (the playing one, or a stale one).
        case end(Int)
    }

    /// A loading indicator's series of progress steps.
    struct Series {
        var name: String
        var steps: Int
        var next = 1
    }

    /// What the invariants remember about each utterance, by its (unique) text.
    struct Fate {
        var priority: Priority
        var isLastProgress: Bool
        var speaks = 0
        var putBacks = 0
        var endedAfterLastSpeak = false
        var removedByStop = false
    }

    var rng: SplitMix64
    var policy: SpeechPolicy
    var model: ReferenceModel
    var now: Milliseconds = 0
    var made = 0
    var series: [Series] = []
    var seriesMade = 0
    var textOfID: [Int: String] = [:]
    var fates: [String: Fate] = [:]
    var trace: [String] = []

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        let settings = PolicySettings(hintDelay: rng.int(in: 0...3) * 500, progressInterval: rng.int(in: 0...4) * 500)
        policy = SpeechPolicy(settings: settings)
        model = ReferenceModel(settings: settings)
    }

    /// Plays the sequence and lets it finish; the first broken promise, or nil.
    mutating func play() -> String? {
        let steps = rng.int(in: 20...160)
        for _ in 0..<steps {
            if let failure = perform(nextOp()) { return failure }
        }
        // Every series ends: its remaining steps arrive, one instant apart.
        while let s = series.first {
            if let failure = perform(.advance(now + rng.int(in: 0...300))) { return failure }
            if let failure = perform(.say(nextStep(of: s.name), user: false)) { return failure }
            if let failure = perform(.settle) { return failure }
        }
        // Then time passes and speech plays to its end.
        for _ in 0..<10_000 {
            if let p = policy.playing {
                if let failure = perform(.end(p.id)) { return failure }
            } else if !policy.queue.isEmpty {
                // settle starts it
            } else if let due = policy.nextDeadline {
                _ = perform(.advance(max(now, due)))
            } else {
                return finalCheck()
            }
            if let failure = perform(.settle) { return failure }
        }
        return "the policy never fell quiet"
    }

    // MARK: the generator

    mutating func nextOp() -> Op {
        enum Pick { case focus, value, announcement, important, error, notification, progress, key, stop, advance, settle, end, staleEnd }
        let pick: Pick = rng.weighted([
            (14, .focus), (6, .value), (8, .announcement), (2, .important), (2, .error), (3, .notification),
            (10, .progress), (8, .key), (1, .stop), (10, .advance), (16, .settle), (15, .end), (2, .staleEnd),
        ])
        switch pick {
        case .focus:
            let hint = rng.chance(35) ? "hint of u\(made)" : nil
            return .say(utterance(.focus, hint: hint), user: rng.chance(70))
        case .value: return .say(utterance(.value), user: rng.chance(85))
        case .announcement: return .say(utterance(.announcement), user: rng.chance(25))
        case .important: return .say(utterance(.announcement, important: true), user: rng.chance(25))
        case .error: return .say(utterance(.error), user: true)
        case .notification: return .say(utterance(.hint), user: false)
        case .progress:
            if series.isEmpty || (series.count < 2 && rng.chance(10)) {
                seriesMade += 1
                series.append(Series(name: "s\(seriesMade)", steps: rng.int(in: 1...8)))
            }
            return .say(nextStep(of: series[rng.int(in: 0...(series.count - 1))].name), user: false)
        case .key: return .key
        case .stop: return .stop
        case .advance: return .advance(now + rng.weighted([(6, rng.int(in: 0...100)), (3, rng.int(in: 100...1200)), (1, rng.int(in: 1200...3000))]))
        case .settle: return .settle
        case .end: return policy.playing.map { .end($0.id) } ?? .settle
        case .staleEnd: return textOfID.isEmpty ? .settle : .end(textOfID.keys.sorted()[rng.int(in: 0...(textOfID.count - 1))])
        }
    }

    mutating func utterance(_ source: Source, important: Bool = false, hint: String? = nil) -> Utterance {
        made += 1
        return Utterance(text: "u\(made)", language: "en", source: source, important: important, hint: hint)
    }

    mutating func nextStep(of name: String) -> Utterance {
        let i = series.firstIndex { $0.name == name }!
        let s = series[i]
        if s.next >= s.steps { series.remove(at: i) } else { series[i].next += 1 }
        made += 1
        return Utterance(text: "u\(made) \(s.name) \(s.next)/\(s.steps)", language: "en", source: .progress,
                         progress: ProgressStep(step: s.next, steps: s.steps))
    }

    // MARK: one step, both sides, every check

    mutating func perform(_ op: Op) -> String? {
        let decisions: [Decision]
        let expected: [ReferenceModel.Event]
        switch op {
        case .say(let u, let user):
            let p = Priority(for: u)
            fates[u.text] = Fate(priority: p, isLastProgress: u.source == .progress && p == .message)
            trace.append("@\(now) say \(u.source.rawValue)\(u.important ? " (high)" : "") \(u.text)\(u.hint == nil ? "" : " +hint")\(user ? " by user" : "")")
            decisions = policy.submit(u, causedByUser: user, at: now)
            expected = model.submit(u, causedByUser: user)
        case .key:
            trace.append("@\(now) key")
            decisions = policy.userPressedKey(at: now)
            expected = model.key()
        case .stop:
            trace.append("@\(now) stop")
            decisions = policy.stop(at: now)
            expected = model.stop()
        case .settle:
            trace.append("@\(now) settle")
            decisions = policy.startDue(at: now)
            expected = model.settle()
        case .advance(let t):
            now = max(now, t)
            model.now = now
            trace.append("@\(now) (clock)")
            return nil
        case .end(let id):
            trace.append("@\(now) end #\(id)\(policy.playing?.id == id ? "" : " (stale)")")
            if let p = policy.playing, p.id == id { fates[p.utterance.text]?.endedAfterLastSpeak = true }
            decisions = policy.speechEnded(id: id, at: now)
            expected = textOfID[id].map { model.ended($0) } ?? []
        }
        for d in decisions { trace.append("    " + PolicyScript.describe(d)) }
        if let failure = audit(op, decisions) { return failure }
        return compare(decisions, expected)
    }

    /// the promises of Docs/policy.md#rules, from the policy's decisions and state alone.
    mutating func audit(_ op: Op, _ decisions: [Decision]) -> String? {
        var isStop = false, isImportant = false
        if case .stop = op { isStop = true }
        if case .say(let u, _) = op, Priority(for: u) == .important { isImportant = true }
        for (i, d) in decisions.enumerated() {
            switch d {
            case .speak(let s):
                textOfID[s.id] = s.utterance.text
                let text = s.utterance.text
                if fates[text] == nil { fates[text] = Fate(priority: s.priority, isLastProgress: false) }  // a hint
                fates[text]!.speaks += 1
                fates[text]!.endedAfterLastSpeak = false
                if fates[text]!.speaks > fates[text]!.putBacks + 1 {
                    return "\(text) is spoken a second time without having been put back"
                }
                if fates[text]!.isLastProgress && s.priority != .message {
                    return "the last progress \(text) is spoken at \(s.priority.rawValue), not message"
                }
            case .cancel(let s):
                if s.priority == .important { return "important \(s.utterance.text) is cancelled" }
                if s.priority == .message {
                    if isStop {
                        fates[s.utterance.text]?.removedByStop = true
                    } else if isImportant, i + 1 < decisions.count,
                              case .postpone(let again, let reason) = decisions[i + 1], again.id == s.id,
                              reason == "interrupted by important" {
                        fates[s.utterance.text]?.putBacks += 1
                    } else {
                        return "message \(s.utterance.text) is cancelled and not put back"
                    }
                }
            case .drop(let s, _):
                if s.priority == .important { return "important \(s.utterance.text) is dropped" }
                if s.priority == .message {
                    guard isStop else { return "message \(s.utterance.text) is dropped, not by stop" }
                    fates[s.utterance.text]?.removedByStop = true
                }
            case .postpone:
                break
            }
        }
        let waitingText = policy.queue.filter { $0.priority == .text }
        if waitingText.count > 1 {
            return "\(waitingText.count) text utterances wait: \(waitingText.map(\.utterance.text))"
        }
        return nil
    }

    /// The policy agrees with the model: what it decided (as a set), what plays, what waits in
    /// which order, and the pending hint.
    func compare(_ decisions: [Decision], _ expected: [ReferenceModel.Event]) -> String? {
        let got = decisions.compactMap(Self.event).sorted()
        if got != expected.sorted() { return "decisions \(got) but the model expects \(expected.sorted())" }
        let playing = policy.playing.map { "\($0.priority.rawValue) \($0.utterance.text)" }
        let modelPlaying = model.playing.map { "\($0.kind.rawValue) \($0.text)" }
        if playing != modelPlaying { return "playing \(playing ?? "nothing") but the model plays \(modelPlaying ?? "nothing")" }
        let line = policy.queue.map { "\($0.priority.rawValue) \($0.utterance.text)" }
        let modelLine = model.line.map { "\($0.kind.rawValue) \($0.text)" }
        if line != modelLine { return "queue \(line) but the model's line is \(modelLine)" }
        let hint = policy.pendingHint.map { "\($0.spoken.utterance.text) at \($0.due)" }
        let modelHint = model.hint.map { "\($0.item.text) at \($0.due)" }
        if hint != modelHint { return "pending hint \(hint ?? "none") but the model has \(modelHint ?? "none")" }
        return nil
    }

    static func event(_ d: Decision) -> ReferenceModel.Event? {
        switch d {
        case .speak(let s): return "speak \(s.priority.rawValue) \(s.utterance.text)"
        case .cancel(let s): return "cancel \(s.priority.rawValue) \(s.utterance.text)"
        case .drop(let s, _): return "drop \(s.priority.rawValue) \(s.utterance.text)"
        case .postpone: return nil
        }
    }

    /// Once all is quiet: every message and important was spoken to its end unless `stop`
    /// removed it, and so was the last progress of every series.
    func finalCheck() -> String? {
        for (text, fate) in fates.sorted(by: { $0.key < $1.key }) {
            guard fate.priority == .message || fate.priority == .important, !fate.removedByStop else { continue }
            if fate.speaks == 0 {
                return "\(fate.isLastProgress ? "the last progress" : fate.priority.rawValue) \(text) was never spoken"
            }
            if !fate.endedAfterLastSpeak { return "\(fate.priority.rawValue) \(text) was not spoken to its end" }
        }
        return nil
    }
}
