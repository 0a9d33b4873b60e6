import TandemPresentation

/// speech-dispatcher's five message priorities (SSIP), highest first, as its documentation
/// defines them:
///
/// - `important`: said at once, never interrupted; cancels any lower speech.
/// - `message`: queued behind its own kind; cancels `text`, `notification`, `progress`.
/// - `text`: waits for `message`; only the latest `text` is spoken.
/// - `notification`: dropped when anything else is queued or speaking.
/// - `progress`: as `notification`, but a newcomer is dropped while another progress message
///   speaks, and the last of a series is spoken at `message` priority.
public enum Priority: String, Sendable, Hashable, CaseIterable {
    case important, message, text, notification, progress

    /// The priority Tandem gives an utterance (Docs/policy.md#rules).
    public init(for utterance: Utterance) {
        switch utterance.source {
        case .focus, .value: self = .text
        case .announcement: self = utterance.important ? .important : .message
        case .hint: self = .notification
        case .progress: self = (utterance.progress?.isLast ?? false) ? .message : .progress
        case .error: self = .message
        }
    }

    /// `text`, `notification` and `progress`: what a key press or a `message` cancels.
    public var isInterruptible: Bool { self == .text || self == .notification || self == .progress }
}
