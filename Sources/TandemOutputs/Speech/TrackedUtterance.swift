import TandemPolicy
import TandemVocabulary

/// An utterance the speech worker took charge of, from the session's `speak` until
/// speech-dispatcher reports its end (or it is given up).
final class TrackedUtterance {
    let spoken: Spoken
    /// The text as sent (`SafeSpeechText`).
    let text: String
    let component: SpeechComponent
    /// The session waits for its end (see `SpeechJob.speak`).
    let external: Bool
    /// speech-dispatcher's id on the current connection; nil while not (or no longer) sent.
    var messageID: Int?
    var sentAt: UInt64 = 0
    var begunAt: UInt64?
    /// Tandem asked speech-dispatcher to cancel it (when, and how often).
    var cancelRequested = false
    var cancelSentAt: UInt64 = 0
    var cancelAttempts = 0
    /// Its end (or cancel) was reported to the session.
    var endReported = false
    /// How often a watchdog found speech-dispatcher hung while this was out (`maxHangs`).
    var hangs = 0

    init(spoken: Spoken, text: String, external: Bool) {
        self.spoken = spoken; self.text = text; self.external = external
        self.component = SpeechComponent(for: spoken.utterance.source)
    }

    /// `important` and `message` are kept until they are heard, and said again after an outage.
    var isKept: Bool { spoken.priority == .important || spoken.priority == .message }
}
