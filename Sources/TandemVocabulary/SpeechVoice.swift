/// The voice speech is said in, as the profile sets it (speech-dispatcher applies it).
public struct SpeechVoice: Sendable, Hashable {
    /// speech-dispatcher's scale, -100…100.
    public var rate: Int, pitch: Int, volume: Int
    /// `male1`…`male3`, `female1`…`female3`, `child_male`, `child_female`; nil: the default.
    public var voiceType: String?
    /// `none`, `some`, `most` or `all`.
    public var punctuation: String
    public init(rate: Int = 0, pitch: Int = 0, volume: Int = 0, voiceType: String? = nil, punctuation: String = "some") {
        self.rate = rate; self.pitch = pitch; self.volume = volume; self.voiceType = voiceType; self.punctuation = punctuation
    }
}
