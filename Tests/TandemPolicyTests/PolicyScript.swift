import TandemVocabulary
import Testing
import TandemPolicy
import TandemPresentation

/// One line of a policy script: what happens to the policy, in order.
enum Step: Sendable {
    /// The clock moves to this instant (milliseconds); later steps happen then.
    case at(Milliseconds)
    /// Any key the user presses (not `stop`).
    case key
    /// The `stop` command.
    case stop
    /// Something to say; `user`: the user's current action caused it.
    case say(Utterance, user: Bool = false)
    /// The driver ends the instant: the policy starts what is due.
    case settle
    /// The end-of-speech notice for the utterance with this text (the id it was last spoken with).
    case end(String)
    /// speech-dispatcher's notice that the utterance with this text was spoken to its end,
    /// which may arrive after the policy cut it (`speechFinished`).
    case heard(String)
}

/// A row of a rule's table: a named script and every decision it must produce, in order.
struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var steps: [Step]
    var expected: [String]
    var settings = PolicySettings()

    init(_ name: String, settings: PolicySettings = PolicySettings(), _ steps: [Step], expect expected: [String]) {
        self.name = name; self.steps = steps; self.expected = expected; self.settings = settings
    }

    var testDescription: String { name }
}

/// Runs a script against a fresh `SpeechPolicy` and writes down every decision, as the synth and
/// the transcript would see them: `@TIME VERB PRIORITY TEXT #ID`, with the reason of a drop or
/// a postpone in parentheses.
struct PolicyScript {
    var policy: SpeechPolicy
    var now: Milliseconds = 0
    /// The id each text was last spoken with, for `end`.
    var spokenIDs: [String: Int] = [:]
    var log: [String] = []

    init(settings: PolicySettings = PolicySettings()) { policy = SpeechPolicy(settings: settings) }

    static func run(_ c: Case) -> [String] {
        var script = PolicyScript(settings: c.settings)
        for step in c.steps { script.perform(step) }
        return script.log
    }

    mutating func perform(_ step: Step) {
        switch step {
        case .at(let t): now = t
        case .key: record(policy.userPressedKey(at: now))
        case .stop: record(policy.stop(at: now))
        case .say(let u, let user): record(policy.submit(u, causedByUser: user, at: now))
        case .settle: record(policy.startDue(at: now))
        case .end(let text):
            guard let id = spokenIDs[text] else {
                log.append("@\(now) error: \(text) was never spoken")
                return
            }
            record(policy.speechEnded(id: id, at: now))
        case .heard(let text):
            guard let id = spokenIDs[text] else {
                log.append("@\(now) error: \(text) was never spoken")
                return
            }
            record(policy.speechFinished(id: id, at: now))
        }
    }

    mutating func record(_ decisions: [Decision]) {
        for d in decisions {
            if case .speak(let s) = d { spokenIDs[s.utterance.text] = s.id }
            log.append("@\(now) " + Self.describe(d))
        }
    }

    static func describe(_ d: Decision) -> String {
        func name(_ s: Spoken) -> String { "\(s.priority.rawValue) \(s.utterance.text) #\(s.id)" }
        switch d {
        case .speak(let s): return "speak \(name(s))"
        case .cancel(let s): return "cancel \(name(s))"
        case .drop(let s, let reason): return "drop \(name(s)) (\(reason))"
        case .postpone(let s, let reason): return "postpone \(name(s)) (\(reason))"
        }
    }
}

// MARK: utterances, by where they come from

func focus(_ text: String, hint: String? = nil) -> Utterance {
    Utterance(text: text, language: "en", source: .focus, hint: hint)
}

func value(_ text: String) -> Utterance { Utterance(text: text, language: "en", source: .value) }

func announcement(_ text: String) -> Utterance { Utterance(text: text, language: "en", source: .announcement) }

/// An announcement posted with `"priority": "high"`.
func highAnnouncement(_ text: String) -> Utterance {
    Utterance(text: text, language: "en", source: .announcement, important: true)
}

/// A notification submitted as such (hints normally come from the policy itself).
func notification(_ text: String) -> Utterance { Utterance(text: text, language: "en", source: .hint) }

func progress(_ text: String, step: Int, of steps: Int) -> Utterance {
    Utterance(text: text, language: "en", source: .progress, progress: ProgressStep(step: step, steps: steps))
}

func errorMessage(_ text: String) -> Utterance { Utterance(text: text, language: "en", source: .error) }
