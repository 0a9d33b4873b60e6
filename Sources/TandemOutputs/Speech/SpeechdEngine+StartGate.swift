import TandemPolicy
import TandemVocabulary

/// The start gate (Docs/speech.md#connection-handling): speech-dispatcher 0.11.4 loses a
/// `CANCEL`, or a newer message's priority, that arrives while its output module is starting a
/// message. Jobs wait until the last message sent has begun (at most `Timing.startGate`) and
/// `Timing.startSettle` more; jobs that waited are coalesced (a `speak` whose `cancel` waits
/// too is never sent).
extension SpeechdEngine {
    /// Carries out waiting jobs in order, unless the last message sent is still starting
    /// (for at most `Timing.startGate`); a `speak` whose `cancel` is also waiting is dropped
    /// together with it.
    func flushDeferred() {
        while true {
            handleEvents()
            guard !deferred.isEmpty else { return }
            if let due = gateDeadline() {
                if clock.now() < due { return }
                starting = nil
            }
            let job = deferred.removeFirst()
            if case .speak(let spoken, _) = job, let i = deferred.firstIndex(where: { Self.isCancel($0, of: spoken) }) {
                deferred.remove(at: i)
                continue
            }
            handle(job)
            // Work posted while that job waited for the daemon (the speech of the key whose
            // cancel just went out) goes next, without a turn through the wait.
            if deferred.isEmpty, !worker.isStopping { deferred += worker.take { $0.takeJobs() } }
        }
    }

    /// Until when jobs wait (nil: they need not).
    func gateDeadline() -> UInt64? {
        if let s = starting { return s.sentAt &+ UInt64(timing.startGate) * 1_000_000 }
        return settleUntil > clock.now() ? settleUntil : nil
    }

    static func isCancel(_ job: SpeechJob, of spoken: Spoken) -> Bool {
        if case .cancel(let c) = job { return c.id == spoken.id }
        return false
    }
}
