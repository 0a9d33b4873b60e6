import TandemPolicy
import TandemVocabulary

/// The timer of the flash message on the braille display. Each message (or panning the one
/// shown) starts the message time again with a new token; an older timer that fires finds its
/// token stale and does nothing, so timers never need cancelling.
struct FlashTimer {
    private(set) var token = 0

    /// Starts the message time again: the token and deadline to schedule, or nil when
    /// messages stay until a key (`messageTime` 0).
    mutating func restart(at now: Milliseconds, messageTime: Milliseconds) -> (token: Int, due: Milliseconds)? {
        token += 1
        return messageTime > 0 ? (token, now + messageTime) : nil
    }

    /// Whether a timer carrying `token` is the current one.
    func isCurrent(_ token: Int) -> Bool { token == self.token }
}
