/// Hang detection: a message that never begins, one that speaks far longer than it could,
/// and a daemon that goes silent during speech (asked `GET RATE` after `Timing.keepAlive`).
extension SpeechdEngine {
    /// A message that never begins: something of Tandem's was sent and has not begun, nothing
    /// of Tandem's is speaking, and speech-dispatcher has been silent for `beginTimeout`.
    func beginDeadline() -> UInt64? {
        var oldestWaiting: UInt64?
        for t in byMessage.values {
            if t.begunAt != nil { return nil }
            if !t.cancelRequested { oldestWaiting = min(oldestWaiting ?? t.sentAt, t.sentAt) }
        }
        return oldestWaiting.map { max($0, lastActivity) &+ UInt64(timing.beginTimeout) * 1_000_000 }
    }

    /// Speech far too long: an utterance still speaking `longestSpeech` plus
    /// `longestSpeechPerCharacter` for each of its characters after it began (its output
    /// module hangs while speech-dispatcher itself still answers, so the keep-alive passes).
    func longSpeechDeadline() -> UInt64? {
        byMessage.values.compactMap { t in
            t.begunAt.map { $0 &+ UInt64(timing.longestSpeech + timing.longestSpeechPerCharacter * t.text.count) * 1_000_000 }
        }.min()
    }

    /// While Tandem's speech is out, speech-dispatcher is asked something cheap when it has
    /// been silent for `Timing.keepAlive` (a reply timeout then means it hangs).
    func keepAliveDeadline() -> UInt64? {
        guard !byMessage.isEmpty else { return nil }
        return max(lastActivity, lastHeard) &+ UInt64(timing.keepAlive) * 1_000_000
    }

    /// Loses the connection when a watchdog is due; true when it did.
    func checkWatchdogs(at now: UInt64) -> Bool {
        if let due = beginDeadline(), now >= due {
            lose(.timeout("speech-dispatcher has not begun speaking for \(timing.beginTimeout) ms (its output module may hang)"))
            return true
        }
        if let due = longSpeechDeadline(), now >= due {
            lose(.timeout("speech-dispatcher has been saying one message far longer than it could take (its output module may hang)"))
            return true
        }
        return false
    }
}
