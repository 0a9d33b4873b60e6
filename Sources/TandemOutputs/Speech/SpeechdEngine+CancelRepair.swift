import TandemPolicy
import TandemVocabulary

/// Cancel repair: a `CANCEL` speech-dispatcher lost (no notice within `Timing.cancelConfirm`,
/// or its message began after it) is sent again, up to `maxCancelAttempts` in all, and what
/// went out after it on the same connection is sent again; a cancelled message whose notice
/// never comes is forgotten after `Timing.forgetCancelled`.
extension SpeechdEngine {
    func cancel(_ spoken: Spoken) {
        guard let t = latest[spoken.id] else { return }
        kept.removeAll { $0 === t }
        // The session is done with it already: speech-dispatcher's cancel notice is passed on
        // for the transcript; one not yet sent is simply forgotten.
        if t.messageID != nil, let c = connections[t.component] {
            if !t.cancelRequested {
                t.cancelRequested = true
                t.cancelSentAt = clock.now()
                t.cancelAttempts = 1
                do throws(SSIPError) { try c.request("CANCEL SELF") } catch { lose(error); return }
            }
        } else {
            latest[spoken.id] = nil
        }
        sendKept()
    }

    /// Repairs the cancels that are due and forgets those that will never be confirmed.
    func checkCancels(at now: UInt64) {
        let confirm = UInt64(timing.cancelConfirm) * 1_000_000
        for t in byMessage.values.sorted(by: { $0.sentAt < $1.sentAt })
        where t.cancelRequested && t.cancelAttempts < Self.maxCancelAttempts && now >= t.cancelSentAt &+ confirm
            && t.messageID.map({ byMessage[$0] === t }) == true {
            repairCancel(t)
        }
        let stale = UInt64(timing.forgetCancelled) * 1_000_000
        for (id, t) in byMessage where t.cancelRequested && now > t.sentAt &+ stale { byMessage[id] = nil }
    }

    /// A cancel speech-dispatcher lost: the message began after it, or no cancel notice came
    /// within `Timing.cancelConfirm`. (0.11.4 drops a `CANCEL` that arrives while its output
    /// module is still launching the synthesizer.) Cancel again; what went out on the same
    /// connection after it, and would fall to `CANCEL SELF` too, is sent again after the cancel.
    func repairCancel(_ t: TrackedUtterance) {
        guard let c = connections[t.component], t.cancelAttempts < Self.maxCancelAttempts else { return }
        let newer = byMessage.values.filter { $0 !== t && $0.component == t.component && $0.sentAt >= t.sentAt && !$0.cancelRequested }
            .sorted { $0.sentAt < $1.sentAt }
        if newer.contains(where: { $0.begunAt != nil }) {
            // Something newer speaks, so this one is over; its notice just went missing.
            if let id = t.messageID { byMessage[id] = nil }
            return
        }
        t.cancelAttempts += 1
        t.cancelSentAt = clock.now()
        do throws(SSIPError) { try c.request("CANCEL SELF") } catch { lose(error); return }
        for n in newer {
            // The old run's notices are passed over from now on (`handle`).
            if let old = n.messageID { byMessage[old] = nil }
            n.messageID = nil
            send(n)
        }
    }

    /// When `checkCancels` next has something to do: the oldest unconfirmed cancel is due for
    /// `repairCancel`, or a cancelled message is to be forgotten.
    func cancelCheckDeadline() -> UInt64? {
        let confirm = UInt64(timing.cancelConfirm) * 1_000_000
        let stale = UInt64(timing.forgetCancelled) * 1_000_000
        return byMessage.values.filter(\.cancelRequested).map { t in
            let forget = t.sentAt &+ stale &+ 1
            return t.cancelAttempts < Self.maxCancelAttempts ? min(t.cancelSentAt &+ confirm, forget) : forget
        }.min()
    }
}
