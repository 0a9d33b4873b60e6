/// Read-all in progress: which utterance is the element being read, so that its end moves
/// on to the next element. Any key, a cut or a dropped element ends it.
struct ReadAll {
    /// The policy's id of the element's speech once it started.
    private(set) var speakingID: Int?

    /// Focus speech started: the first one after read-all moved on is the element's.
    mutating func began(focusSpeech id: Int) {
        if speakingID == nil { speakingID = id }
    }

    /// Whether `id` was the element being read (then read-all moves on and waits for the next).
    mutating func ended(_ id: Int) -> Bool {
        guard speakingID == id else { return false }
        speakingID = nil
        return true
    }

    func isReading(_ id: Int) -> Bool { speakingID == id }
}
