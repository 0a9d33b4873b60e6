import TandemPolicy
import TandemPresentation

/// Work for the speech worker, in the order the session emitted it.
enum SpeechJob: Sendable {
    /// `external`: when it was emitted, the session waited for speech-dispatcher to report
    /// its end (rather than estimating it), so it must hear about it one way or another.
    case speak(Spoken, external: Bool)
    case cancel(Spoken)
    case sound(SoundIcon)
    case voice(SpeechDispatcherOutput.Voice)
}

/// The speech worker's mailbox (see `OutputWorker`).
struct SpeechMail: Sendable {
    var jobs: [SpeechJob] = []
    /// What the session does with speech ends right now (see `SpeechDispatcherOutput.emit`).
    var sessionWaitsForSpeech = false

    /// Queues an utterance stamped with whether the session waits for its end.
    mutating func speak(_ spoken: Spoken) {
        jobs.append(.speak(spoken, external: sessionWaitsForSpeech))
    }

    /// Everything queued so far, oldest first.
    mutating func takeJobs() -> [SpeechJob] {
        defer { jobs.removeAll(keepingCapacity: true) }
        return jobs
    }
}
