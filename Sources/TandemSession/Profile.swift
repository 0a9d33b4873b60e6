import TandemModel
import TandemPresentation
import TandemPolicy
import TandemVocabulary

/// How a user wants Tandem to speak and show things (a JSON file in `Profiles/`, or the user's
/// own in `$XDG_CONFIG_HOME/tandem/profiles/NAME.json`). Every field is optional in the file;
/// what a file leaves out keeps the default below.
public struct Profile: Sendable, Hashable {
    public static let format = "tandem.profile/1"

    /// What a loading indicator's steps produce.
    public enum ProgressFeedback: String, Sendable, Hashable, CaseIterable {
        case speak, sound, both, off
        var speaks: Bool { self == .speak || self == .both }
        var sounds: Bool { self == .sound || self == .both }
    }

    public var name = "default"
    /// Overrides the catalog's language for phrases, speech and braille (`nil`: the catalog's).
    public var language: String?

    // speech
    public var speech = true
    /// speech-dispatcher's scale, -100…100; also scales headless durations.
    public var rate = 0
    public var pitch = 0
    public var volume = 0
    /// speech-dispatcher voice type (`male1`, `female1`, …), `nil` for its default.
    public var voice: String?
    /// `none`, `some`, `most` or `all`.
    public var punctuation = "some"
    /// speech-dispatcher address (`unix_socket:/path`), `nil`: `SPEECHD_ADDRESS` or the default.
    public var speechAddress: String?
    public var hintDelay = 1000
    public var verbosity = Verbosity()

    // braille
    public var braille = true
    public var contracted = false
    public var computerBrailleAtCursor = true
    /// Cells of the display when none reports its size (headless runs).
    public var brailleWidth = 40
    /// How long a flash message stays, in ms; 0 keeps it until a key.
    public var messageTime = 4000
    /// BrlAPI host (`127.0.0.1:37`), `nil`: `BRLAPI_HOST` or the default.
    public var brailleHost: String?

    /// Terminal keys and BRLTTY commands bound to Tandem's commands (`keys` in the file adds
    /// to or replaces the defaults; a binding set to null removes it).
    public var keyMap = KeyMap.default
    /// How the user drives the session (`input`: `touch`, `keyboard` or `braille`): hints name
    /// VoiceOver's gestures or the bound keys (Docs/keymaps.md#hints). nil: the driver's
    /// (`touch` headless, `keyboard` in `tandem run`).
    public var input: InputMethod?

    // progress
    public var progressInterval = 1000
    public var progressFeedback = ProgressFeedback.both

    public init() {}

    /// Milliseconds per character for headless durations (Docs/formats.md#timing: 60 ms at the default
    /// rate, shorter when faster).
    public var msPerCharacter: Int {
        let r = Swift.max(-50, Swift.min(100, rate))
        return 60 * 100 / (100 + r)
    }

    /// The voice speech-dispatcher speaks with.
    public var voiceSettings: SpeechVoice {
        .init(rate: rate, pitch: pitch, volume: volume, voiceType: voice, punctuation: punctuation)
    }

    /// What the session tells speech about (a `voice` event in the transcript).
    public var speechSettings: SpeechSettings { SpeechSettings(voice: voiceSettings, hints: verbosity.hints) }

    public var policySettings: PolicySettings {
        PolicySettings(hintDelay: hintDelay, progressInterval: progressInterval)
    }
}
