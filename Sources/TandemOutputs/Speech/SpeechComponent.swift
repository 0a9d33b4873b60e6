import TandemPresentation
import TandemVocabulary

/// One speech-dispatcher connection per purpose. Each connection names itself
/// `USER:tandem:COMPONENT`, so a user can give each its own voice, rate or output module in
/// speech-dispatcher's `speechd.conf` (`BeginClient "*:tandem:hints"` … `EndClient`).
public enum SpeechComponent: String, Sendable, Hashable, CaseIterable {
    /// Where focus is and what the user changed (focus and value speech, spelling, repeat).
    case focus
    /// The app's announcements, and Tandem's own messages.
    case announcements
    /// Hints, after their pause.
    case hints
    /// Loading-indicator progress.
    case progress
    /// Sound icons (`SOUND_ICON`).
    case sounds

    /// The connection an utterance goes out on.
    public init(for source: Source) {
        switch source {
        case .focus, .value: self = .focus
        case .announcement, .error: self = .announcements
        case .hint: self = .hints
        case .progress: self = .progress
        }
    }
}
