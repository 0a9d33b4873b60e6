import Foundation
import Synchronization
import TandemVocabulary

/// Braille through BRLTTY (BrlAPI): the session's braille frames on a real display, and the
/// display's keys back as BRLTTY command names.
///
/// The contract it keeps (see `LiveOutput`):
/// - `emit` never blocks: it leaves the frame for the output's own thread, which writes only
///   the newest frame (the last state wins, never a stale one) and at most one write per
///   `Settings.minimumWriteInterval`.
/// - Frames are written as dots, exactly the display's width, with the cursor where the frame
///   puts it; never as locale-dependent text.
/// - Keys: TTY mode in command mode; only the commands in `acceptedCommands` are taken, every
///   other key stays BRLTTY's. Each key is reported as `.brailleCommand(name:argument:)`.
/// - The display's size is reported as `.displaySize(columns:)` on connecting and on every
///   change, so the session cuts its windows to it.
/// - No BRLTTY: one `.status(available: false)`, then quiet retries in the background. BRLTTY
///   dying or the display going away: `.status(available: false)`, retries from 50 ms doubling
///   up to 1 s, then `.status(available: true)` and the current frame written again at once.
/// - A BRLTTY that accepts and never answers, or stops reading, holds nothing: every BrlAPI call
///   that waits for it is given up after `Settings.answerTimeout` (libbrlapi itself waits for
///   ever), reported, and retried by backoff (Docs/braille.md#deadlines).
/// - BrlAPI errors never end the process (its default exception handler aborts; ours does not).
public final class BrlAPIOutput: LiveOutput, @unchecked Sendable {  // `clock` is set before `start`; the worker and the frame before start are behind `lock`
    public let kind = OutputKind.braille
    /// Where BRLTTY is, and how to authenticate.
    public let endpoint: BrlAPIEndpoint
    /// BRLTTY command names whose keys Tandem takes (the KeyMap's); the rest stay BRLTTY's.
    public let acceptedCommands: Set<String>
    public let settings: Settings
    /// The clock the worker runs on (nil: CLOCK_MONOTONIC): its backoff, pacing and waits.
    /// Set before `start`.
    public var clock: (any WorkerTimeSource)?

    private let lock = Mutex<(worker: OutputWorker<BrailleMail>?, frameBeforeStart: BrailleFrame?)>((nil, nil))

    /// `host` as in `BRLAPI_HOST` (`127.0.0.1:37`), `auth` as in `BRLAPI_AUTH` (`none`,
    /// `keyfile:PATH` or a key file's path); nil: the environment, else BrlAPI's default.
    /// The environment's values are read here, not left to BrlAPI, so that what the output
    /// says about its display (its status, its failures) names the host really used.
    public convenience init(host: String?, auth: String?, acceptedCommands: Set<String>, settings: Settings = Settings(),
                            environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(endpoint: BrlAPIEndpoint(host: host ?? environment["BRLAPI_HOST"], auth: auth ?? environment["BRLAPI_AUTH"]),
                  acceptedCommands: acceptedCommands, settings: settings)
    }

    public init(endpoint: BrlAPIEndpoint, acceptedCommands: Set<String>, settings: Settings = Settings()) {
        self.endpoint = endpoint
        self.acceptedCommands = acceptedCommands
        self.settings = settings
    }

    /// The BrlAPI host given (nil: `BRLAPI_HOST`, else BrlAPI's default).
    public var host: String? { endpoint.host }
    /// The authentication setting given (nil: `BRLAPI_AUTH`, else BrlAPI's default).
    public var auth: String? { endpoint.auth }

    /// An output dropped without `stop()` still gives the display back and ends its thread.
    deinit { stop() }

    /// The accepted names BrlAPI knows no key code for (a typing error in a key map).
    public var unknownCommands: [String] {
        acceptedCommands.filter { BrailleKeyCodes.code(forCommand: $0) == nil }.sorted()
    }

    /// Starts connecting in the background; returns at once.
    public func start(report: @escaping @Sendable (LiveOutputEvent) -> Void) {
        let created = lock.withLock { state -> OutputWorker<BrailleMail>? in
            guard state.worker == nil else { return nil }
            var mail = BrailleMail()
            if let f = state.frameBeforeStart { mail.replace(with: f) }
            state = (OutputWorker(kind: .braille, mail: mail, clock: WorkerClock(clock)), nil)
            return state.worker
        }
        guard let worker = created else { return }
        let codes = acceptedCommands.sorted().compactMap(BrailleKeyCodes.code(forCommand:))
        let body = BrlAPIWorker(endpoint: endpoint, accepted: codes, settings: settings, worker: worker)
        worker.start(threadName: "tandem-braille", report: report) { body.run() }
    }

    /// Gives the display back to BRLTTY (waiting at most `Settings.stopTimeout`); nothing is
    /// reported after it returns.
    public func stop() {
        let worker = lock.withLock { state in defer { state.worker = nil }; return state.worker }
        worker?.stop(timeout: settings.stopTimeout)
    }

    /// Hands braille frames to the output's thread (other records are not for a display);
    /// returns at once.
    public func emit(_ record: Record, at time: Int) {
        guard case .braille(let frame) = record else { return }
        let worker = lock.withLock { state -> OutputWorker<BrailleMail>? in
            if state.worker == nil { state.frameBeforeStart = frame }
            return state.worker
        }
        worker?.post { $0.replace(with: frame) }
    }
}
