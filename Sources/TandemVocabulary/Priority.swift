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
}
