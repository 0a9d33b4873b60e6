import TandemVocabulary

/// How Tandem uses speech-dispatcher's priorities (Docs/policy.md#rules).
extension Priority {
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
