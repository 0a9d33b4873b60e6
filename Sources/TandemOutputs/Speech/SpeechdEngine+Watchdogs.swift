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
    func longSpeechDeadline() -> UInt64? { byMessage.values.compactMap(longSpeechDue).min() }

    /// When `t` has been speaking far too long (nil: it has not begun).
    func longSpeechDue(_ t: TrackedUtterance) -> UInt64? {
        t.begunAt.map { $0 &+ UInt64(timing.longestSpeech + timing.longestSpeechPerCharacter * t.text.count) * 1_000_000 }
    }

    /// While Tandem's speech is out, speech-dispatcher is asked something cheap when it has
    /// been silent for `Timing.keepAlive` (a reply timeout then means it hangs).
    func keepAliveDeadline() -> UInt64? {
        guard !byMessage.isEmpty else { return nil }
        return max(lastActivity, lastHeard) &+ UInt64(timing.keepAlive) * 1_000_000
    }

    /// Loses the connection when a watchdog is due; true when it did. The kept utterance the
    /// watchdog found out (not begun, or speaking far too long) counts a hang against it.
    func checkWatchdogs(at now: UInt64) -> Bool {
        if let due = beginDeadline(), now >= due {
            let suspect = kept.first { $0.messageID != nil && $0.begunAt == nil && !$0.cancelRequested }
            lose(.timeout("speech-dispatcher has not begun speaking for \(timing.beginTimeout) ms (its output module may hang)"))
            if let suspect { countHang(suspect) }
            return true
        }
        if let due = longSpeechDeadline(), now >= due {
            let suspect = kept.first { t in t.messageID != nil && longSpeechDue(t).map { $0 <= now } == true }
            lose(.timeout("speech-dispatcher has been saying one message far longer than it could take (its output module may hang)"))
            if let suspect { countHang(suspect) }
            return true
        }
        return false
    }

    /// One more hang while `t` was out; at `maxHangs`, it is given up so that one message that
    /// hangs the output module cannot hang it again after every reconnect, for ever.
    func countHang(_ t: TrackedUtterance) {
        t.hangs += 1
        guard t.hangs >= Self.maxHangs, kept.contains(where: { $0 === t }) else { return }
        kept.removeAll { $0 === t }
        finish(t, .cancel, synthetic: true)
        givenUpHanging.append(String(t.text.prefix(80)))
    }
}
