/// An utterance in the policy's care, with the priority it was given.
public struct Spoken: Sendable, Hashable {
    /// Unique per policy; end-of-speech notices name it.
    public let id: Int
    public var utterance: Utterance
    public var priority: Priority
    /// The user action (key press count) that caused it, if the user caused it.
    public var userAction: Int?
    /// The session waits for the speech output to report this utterance's end (a live
    /// session while speech is connected) instead of timing it itself: the output must tell
    /// it one way or another, even when its daemon goes away (`Session.speechEndsReported`).
    public var awaitsEnd = false

    public init(id: Int, utterance: Utterance, priority: Priority, userAction: Int? = nil) {
        self.id = id; self.utterance = utterance; self.priority = priority; self.userAction = userAction
    }
}

/// What the policy decided. Whatever plays speech carries out `speak` and `cancel`; the
/// transcript records all four, so that a change of policy shows up as a diff.
public enum Decision: Sendable, Hashable {
    /// Start speaking now.
    case speak(Spoken)
    /// Cut what is playing.
    case cancel(Spoken)
    /// Never to be spoken, and why.
    case drop(Spoken, reason: String)
    /// Kept, but waits, and why.
    case postpone(Spoken, reason: String)
}
