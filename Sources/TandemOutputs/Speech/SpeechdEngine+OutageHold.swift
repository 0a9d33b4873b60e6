/// The outage hold: while speech-dispatcher is gone the session keeps waiting for the kept
/// utterances it waits for, but not longer than `Timing.holdLimit`; then they are reported
/// cancelled (and still said once a daemon is back).
extension SpeechdEngine {
    func holdDeadline() -> UInt64? {
        guard let since = outageSince, kept.contains(where: { $0.external && !$0.endReported }) else { return nil }
        return since &+ UInt64(timing.holdLimit) * 1_000_000
    }

    /// The outage has lasted `holdLimit`: the session stops waiting for kept utterances (they
    /// are reported cancelled) but they are still said once a daemon is back.
    func releaseKept() {
        for t in kept where t.external && !t.endReported && latest[t.spoken.id] === t {
            report(.speechCancelled(t.spoken.id))
            t.endReported = true
        }
    }
}
