import TandemPolicy
import TandemVocabulary

/// The kept-message queue: `important` and `message` utterances wait in `kept` until they are
/// heard, go out one at a time in order, stay through an outage and are said again after it.
/// At most `maxKept` wait: beyond that the oldest not yet sent is given up — reported cancelled
/// to a session that waits for it, and always said in a `.status` (at once while connected,
/// else in the one that says speech-dispatcher is back), never dropped silently.
extension SpeechdEngine {
    /// Takes a kept utterance in and sends it if none is out.
    func keep(_ t: TrackedUtterance) {
        kept.append(t)
        if kept.count > Self.maxKept, let i = kept.firstIndex(where: { $0.messageID == nil }) {
            giveUp(kept.remove(at: i))
        }
        sendKept()
    }

    /// Sends the oldest kept utterance when none is out.
    func sendKept() {
        guard isConnected, let head = kept.first, head.messageID == nil else { return }
        send(head)
    }

    /// A kept utterance over the limit: over, as if cancelled, and said so.
    func giveUp(_ t: TrackedUtterance) {
        finish(t, .cancel, synthetic: true)
        if isConnected {
            // Same availability: the session writes it to the transcript and changes nothing else.
            report(.status(OutputStatus(.speech, available: true, message:
                "more than \(Self.maxKept) messages wait for speech-dispatcher; gave up the oldest not yet sent: \"\(t.text.prefix(80))\"")))
        } else {
            // During an outage the session hears of it when speech is back, not once per
            // announcement (each `.status` that says unavailable flashes on the display).
            givenUp += 1
        }
    }

    /// What the status that says speech-dispatcher is back adds about given-up utterances.
    func givenUpNote() -> String {
        defer { givenUp = 0; givenUpHanging = [] }
        var note = ""
        if givenUp > 0 { note += "; gave up \(givenUp) older message\(givenUp == 1 ? "" : "s") (more than \(Self.maxKept) waited)" }
        for text in givenUpHanging {
            note += "; gave up \"\(text)\": speech-dispatcher hung \(Self.maxHangs) times while it was out"
        }
        return note
    }
}
