
/// The braille window being shown: the part of a line that fits the display.
public struct BrailleFrame: Sendable, Hashable {
    /// The whole line's text (before translation).
    public var text: String
    /// The cells of the window shown.
    public var cells: [Cell]
    /// Cursor cell within the window, when it falls inside it.
    public var cursor: Int?
    /// 0-based window index and window count.
    public var window: Int
    public var windowCount: Int
    /// A flash message rather than the focus line.
    public var flash: Bool

    public init(text: String, cells: [Cell], cursor: Int?, window: Int, windowCount: Int, flash: Bool) {
        self.text = text; self.cells = cells; self.cursor = cursor
        self.window = window; self.windowCount = windowCount; self.flash = flash
    }
}

/// Something that happened which is neither speech, braille nor sound: focus moved, a screen
/// changed, an action ran, a command had nothing to act on, an `expect` failed.
public struct SessionEvent: Sendable, Hashable {
    public var type: String
    /// Extra fields in the order they are written.
    public var fields: [Field]

    public struct Field: Sendable, Hashable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) { self.key = key; self.value = value }
    }

    public init(_ type: String, _ fields: [Field] = []) { self.type = type; self.fields = fields }
}

/// One output of a session, in the order it happened: what every sink receives.
public enum Record: Sendable, Hashable {
    case speech(Decision)
    case braille(BrailleFrame)
    case sound(SoundIcon)
    case event(SessionEvent)
    /// The session learnt that an output went away or came back (an `output` event in the
    /// transcript). Outputs read it too: speech learns whether the session waits for its
    /// end-of-speech notices.
    case outputStatus(OutputStatus)
    /// The speech settings changed (a `voice` event in the transcript); speech-dispatcher
    /// applies them before the next utterance.
    case speechSettings(SpeechSettings)
}

/// What the user set about speech: the voice speech-dispatcher uses, and whether hints are said.
public struct SpeechSettings: Sendable, Hashable {
    public var voice: SpeechVoice
    public var hints: Bool
    public init(voice: SpeechVoice, hints: Bool) { self.voice = voice; self.hints = hints }
}
