/// Hang detection: a message that never begins, one that speaks far longer than it could,
/// and a daemon that goes silent during speech (asked `GET RATE` after `Timing.keepAlive`).
extension SpeechdEngine {
    /// Hang detection: something of Tandem's was sent and has not begun, nothing of Tandem's
    /// is speaking, and speech-dispatcher has been silent for `beginTimeout`; or an utterance
    /// has been speaking far longer than it could.
    func watchdogDeadline() -> UInt64? {
        var speaking = false
        var oldestWaiting: UInt64?
        var longest: UInt64?
        for t in byMessage.values {
            if let began = t.begunAt {
                speaking = true
                let limit = began &+ UInt64(timing.longestSpeech + timing.longestSpeechPerCharacter * t.text.count) * 1_000_000
                longest = min(longest ?? limit, limit)
            } else if !t.cancelRequested {
                oldestWaiting = min(oldestWaiting ?? t.sentAt, t.sentAt)
            }
        }
        var due = longest
        if !speaking, let waiting = oldestWaiting {
            let d = max(waiting, lastActivity) &+ UInt64(timing.beginTimeout) * 1_000_000
            due = min(due ?? d, d)
        }
        return due
    }

    /// While Tandem's speech is out, speech-dispatcher is asked something cheap when it has
    /// been silent for `Timing.keepAlive` (a reply timeout then means it hangs).
    func keepAliveDeadline() -> UInt64? {
        guard !byMessage.isEmpty else { return nil }
        return max(lastActivity, lastHeard) &+ UInt64(timing.keepAlive) * 1_000_000
    }
}
