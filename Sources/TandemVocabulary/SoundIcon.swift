/// A sound icon (speech-dispatcher's `SOUND_ICON`, a short earcon).
public enum SoundIcon: String, Sendable, Hashable {
    /// Navigation ran into the start or end, or there was nothing to act on.
    case boundary
    /// A new screen appeared.
    case screen
    /// A loading indicator advanced.
    case progress
}
