/// The kept-message queue: `important` and `message` utterances wait in `kept` until they are
/// heard, go out one at a time in order, stay through an outage and are said again after it
/// (at most `maxKept`; beyond that the oldest not yet sent is given up, reported cancelled).
extension SpeechdEngine {
    /// Takes a kept utterance in and sends it if none is out.
    func keep(_ t: TrackedUtterance) {
        kept.append(t)
        if kept.count > Self.maxKept, let i = kept.firstIndex(where: { $0.messageID == nil }) {
            // A long outage: the oldest waiting one goes, as if cancelled.
            finish(kept.remove(at: i), .cancel, synthetic: true)
        }
        sendKept()
    }

    /// Sends the oldest kept utterance when none is out.
    func sendKept() {
        guard isConnected, let head = kept.first, head.messageID == nil else { return }
        send(head)
    }
}
