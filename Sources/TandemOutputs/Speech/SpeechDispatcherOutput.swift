import CSpeechd
import Foundation

/// Speech through speech-dispatcher (libspeechd / SSIP). STUB: to be written (issue 4).
public final class SpeechDispatcherOutput: LiveOutput, @unchecked Sendable {
    /// Voice settings from the profile.
    public struct Voice: Sendable, Hashable {
        public var rate: Int, pitch: Int, volume: Int
        public var voiceType: String?
        public var punctuation: String
        public init(rate: Int = 0, pitch: Int = 0, volume: Int = 0, voiceType: String? = nil, punctuation: String = "some") {
            self.rate = rate; self.pitch = pitch; self.volume = volume; self.voiceType = voiceType; self.punctuation = punctuation
        }
    }

    public let name = "speech"
    public let address: String?
    public let voice: Voice
    private var report: (@Sendable (LiveOutputEvent) -> Void)?

    /// `address` as in `SPEECHD_ADDRESS` (`unix_socket:/path`); nil: the environment, else the default.
    public init(address: String?, voice: Voice) {
        self.address = address
        self.voice = voice
    }

    public func start(report: @escaping @Sendable (LiveOutputEvent) -> Void) {
        self.report = report
        report(.status(output: name, available: false, message: "speech-dispatcher output is not built yet"))
    }

    public func stop() { report = nil }

    public func emit(_ record: Record, at time: Int) {}
}
