import Dispatch
import Foundation
import Synchronization
import TandemPolicy
import TandemVocabulary

/// Speech through speech-dispatcher, over SSIP.
///
/// Tandem's policy decides what to say and when (Docs/policy.md#rules); this output carries out its
/// decisions and reports back what the daemon did:
///
/// - `.speech(.speak(s))`: the text, made safe by `SafeSpeechText`, is said at `s.priority`
///   (`SET SELF PRIORITY important|message|text|notification|progress`), in the utterance's
///   language (`pt-BR` → `pt-br`), spelled when `spell` is set (`SET SELF SPELLING on`), on the
///   connection of its `SpeechComponent` (client `USER:tandem:focus`, `…:announcements`,
///   `…:hints`, `…:progress`, `…:sounds`).
/// - `.speech(.cancel(s))`: `CANCEL SELF` on the connection `s` went out on.
/// - `.sound(icon)`: `SOUND_ICON icon` at `notification` priority.
/// - `.speech(.drop/.postpone)`, `.braille`, other `.event`s: nothing.
///
/// Reports: `.speechBegan/.speechEnded/.speechCancelled(Spoken.id)` from speech-dispatcher's
/// notifications, and `.status` for speech when the daemon is reached, lost (said
/// once) or back. See `SpeechdEngine` for what happens while it is gone.
///
/// `emit` only queues and returns (microseconds): a worker thread does all I/O. Nothing
/// autospawns a daemon: Tandem speaks its own SSIP over the socket, so libspeechd's
/// autospawn is never involved.
///
/// Contract with the session: this output also reads the session's `.outputStatus` records for
/// speech (which `Session.reportOutput` emits when it handles this output's `.status`), to
/// know whether the session waits for speech-dispatcher's end notices or estimates durations
/// itself; it then reports an end it had to make up (the text could not be sent, or went stale
/// in an outage) only to a session that waits for it. `.speechSettings` records change the
/// voice of every connection before the next utterance.
public final class SpeechDispatcherOutput: LiveOutput, @unchecked Sendable {  // trace, clock and sendBuffer are set before `start`; voice changes on the session's thread only; the worker is behind `lock`
    /// Timeouts and backoff, in milliseconds.
    public struct Timing: Sendable, Hashable {
        /// A command's reply; longer counts as a hung daemon.
        public var replyTimeout = 1000
        /// Speech must begin this long after it was sent while nothing else of Tandem's speaks,
        /// or the output module counts as hung.
        public var beginTimeout = 2000
        /// While speech is out and speech-dispatcher has said nothing for this long, it is
        /// asked something cheap (`GET RATE`), so a daemon that hangs mid-speech is noticed.
        public var keepAlive = 1000
        /// During an outage, how long the session waits for a kept (`important`/`message`)
        /// utterance it was waiting for before it is released.
        public var holdLimit = 3000
        /// After a message is sent, later jobs wait up to this long for speech-dispatcher to
        /// report that it started (a cancel that arrives while the module starts is lost).
        public var startGate = 150
        /// …and this long after it reported the start (its module may still be launching the
        /// synthesizer; speech-dispatcher 0.11.4 needs about 5 ms).
        public var startSettle = 25
        /// A `CANCEL` whose cancel notice has not come this long after is sent again.
        public var cancelConfirm = 100
        /// A cancelled message whose cancel notice never came is forgotten this long after it
        /// was sent.
        public var forgetCancelled = 8000
        /// An utterance that began is taken as hung when it is still speaking this long after,
        /// plus `longestSpeechPerCharacter` for each character (far longer than any voice takes).
        public var longestSpeech = 15_000
        public var longestSpeechPerCharacter = 400
        /// The worker's loop wakes at least this often, with nothing to do.
        public var loopTick = 1000
        /// On the way out (`CANCEL SELF`, `QUIT` to a daemon that may be gone), how long a write
        /// may wait for the socket.
        public var goodbyeWrite = 20
        /// Reconnect backoff (`Backoff`): the first wait, doubled after each failure up to the second.
        public var firstBackoff = 50
        public var maxBackoff = 2000
        /// `start` waits this long for the first connection attempt, so the session learns at
        /// once whether speech-dispatcher is there.
        public var startWait = 300
        public init() {}
    }

    public let kind = OutputKind.speech
    /// As given (`unix_socket:/path`); nil: `SPEECHD_ADDRESS`, else speech-dispatcher's default.
    public let address: String?
    /// The settings `start` connects with (see `update(voice:)`).
    public private(set) var voice: SpeechVoice
    public let timing: Timing
    /// Called on the worker thread for every command written and reply read (benchmarks).
    /// Set before `start`.
    public var trace: (@Sendable (SSIPTrace) -> Void)?
    /// The clock the worker runs on (nil: CLOCK_MONOTONIC); tests give one that moves only when
    /// told. Set before `start`.
    public var clock: (any WorkerTimeSource)?
    /// The sockets' send buffer (SO_SNDBUF) in bytes; nil: the system's. Tests make it small,
    /// so that a daemon that stops reading fills it with one text. Set before `start`.
    var sendBuffer: Int?

    private let lock = Mutex<OutputWorker<SpeechMail>?>(nil)

    /// `address` as in `SPEECHD_ADDRESS` (`unix_socket:/path`); nil: the environment, else the default.
    public init(address: String?, voice: SpeechVoice, timing: Timing = Timing()) {
        self.address = address
        self.voice = voice
        self.timing = timing
    }

    /// The address this output connects to, as resolved from `address`, the environment and
    /// the default (nil when the text does not parse).
    public var resolvedAddress: SpeechdAddress? { SpeechdAddress.resolve(address) }

    public func start(report: @escaping @Sendable (LiveOutputEvent) -> Void) {
        let worker = OutputWorker(kind: .speech, mail: SpeechMail(), clock: WorkerClock(clock))
        guard lock.withLock({ w in
            guard w == nil else { return false }
            w = worker
            return true
        }) else { return }
        let engine = SpeechdEngine(address: resolvedAddress, addressText: address ?? ProcessInfo.processInfo.environment["SPEECHD_ADDRESS"] ?? "",
                                   voice: voice, timing: timing, sendBuffer: sendBuffer, worker: worker, trace: trace)
        let firstAttempt = DispatchSemaphore(value: 0)
        worker.start(threadName: "tandem-speech", report: report) {
            engine.run(firstAttempt: { firstAttempt.signal() })
        }
        _ = firstAttempt.wait(timeout: .now() + .milliseconds(timing.startWait))
    }

    /// Silences Tandem's speech and disconnects; the worker finishes what it is doing (at most
    /// a reply timeout). Nothing is reported after it returns.
    public func stop() {
        let worker = lock.withLock { w in defer { w = nil }; return w }
        worker?.stop(timeout: .milliseconds(timing.replyTimeout + 500))
    }

    public func emit(_ record: Record, at time: Int) {
        guard let worker = lock.withLock({ $0 }) else { return }
        switch record {
        case .speech(.speak(let s)):
            worker.post { $0.speak(s) }
        case .speech(.cancel(let s)):
            worker.post { $0.cancel(s) }
        case .sound(let icon):
            worker.post { $0.sound(icon) }
        case .speechSettings(let s):
            update(voice: s.voice)
        case .speech(.drop), .speech(.postpone), .braille, .event, .outputStatus:
            break
        }
    }

    /// New voice settings for every connection (a profile change).
    public func update(voice: SpeechVoice) {
        self.voice = voice
        lock.withLock { $0 }?.post { $0.jobs.append(.voice(voice)) }
    }
}
