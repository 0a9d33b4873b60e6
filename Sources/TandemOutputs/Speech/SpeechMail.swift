import TandemPolicy
import TandemPresentation
import TandemVocabulary

/// Work for the speech worker, in the order the session emitted it.
enum SpeechJob: Sendable {
    /// `external`: the session waits for speech-dispatcher to report its end (rather than
    /// estimating it; `Spoken.awaitsEnd`), so it must hear about it one way or another.
    case speak(Spoken, external: Bool)
    case cancel(Spoken)
    case sound(SoundIcon)
    case voice(SpeechVoice)
}

/// The speech worker's mailbox (see `OutputWorker`).
struct SpeechMail: Sendable {
    var jobs: [SpeechJob] = []

    /// Queues an utterance, with whether the session waits for its end.
    mutating func speak(_ spoken: Spoken) {
        jobs.append(.speak(spoken, external: spoken.awaitsEnd))
    }

    /// Jobs taken out before the worker saw them, superseded (Docs/speech.md#stale-speech):
    /// for tests and the bench.
    var collapsed = 0

    /// Queues a cancel — unless its `speak` still waits here: then neither is sent (the session
    /// has moved on; the daemon never hears of an utterance it would only be told to stop).
    mutating func cancel(_ spoken: Spoken) {
        if let i = jobs.lastIndex(where: { if case .speak(let s, _) = $0 { s.id == spoken.id } else { false } }) {
            jobs.remove(at: i)
            collapsed += 2
            return
        }
        jobs.append(.cancel(spoken))
    }

    /// Queues a sound icon; the same icon still waiting goes (one is heard for the burst, at
    /// its newest place), so a flood of boundary sounds waits as one.
    mutating func sound(_ icon: SoundIcon) {
        if let i = jobs.firstIndex(where: { if case .sound(let waiting) = $0 { waiting == icon } else { false } }) {
            jobs.remove(at: i)
            collapsed += 1
        }
        jobs.append(.sound(icon))
    }

    /// Everything queued so far, oldest first.
    mutating func takeJobs() -> [SpeechJob] {
        defer { jobs.removeAll(keepingCapacity: true) }
        return jobs
    }
}
