import Glibc
import TandemPolicy
import TandemPresentation
import TandemVocabulary

/// The speech worker: owns the connections and everything in flight, and runs on its
/// `OutputWorker`'s thread (`run`), so nothing it does — connecting, waiting for replies,
/// backing off — ever blocks the session. It talks to the rest of Tandem only through the
/// worker's mailbox (in) and reports (out).
///
/// The flow:
///
/// 1. Connect one `SSIPConnection` per `SpeechComponent`; report `.status(available: true)`.
///    When that fails, report `.status(available: false)` once and retry with `Backoff`
///    (`Timing.firstBackoff`, doubling up to `Timing.maxBackoff`).
/// 2. Jobs wait while the last message sent has not started yet (no event for it within
///    `Timing.startGate`) and for `Timing.startSettle` after it began: speech-dispatcher
///    0.11.4 loses a `CANCEL`, or a newer message's priority, that arrives while its output
///    module is starting a message, and then says the old message in full. Waiting jobs are
///    coalesced: an utterance spoken and cancelled before it went out is never sent (a burst
///    of five increments sends only the last value). A cancel whose notice does not come
///    within `Timing.cancelConfirm` is sent again (`repairCancel`).
/// 3. `speak`: the text is cleaned; `text`, `notification` and `progress` go out at once;
///    `important` and `message` join `kept` and go out one at a time, in order (the session's
///    policy sends one at a time anyway; after an outage the backlog drains the same way).
/// 4. Events map speech-dispatcher's message ids back to `Spoken.id`s and are reported as
///    `.speechBegan/.speechEnded/.speechCancelled`; an ended kept utterance leaves `kept`.
/// 5. The connection is lost when a socket breaks, a reply does not come within
///    `Timing.replyTimeout` (while speech is out, a `GET RATE` after each `Timing.keepAlive`
///    of silence makes sure there is something to answer), or speech does not begin within
///    `Timing.beginTimeout` while nothing of Tandem's speaks (a hung module). Then:
///    best-effort `CANCEL SELF` (so a daemon that was only stuck does not say things twice),
///    `.status(available: false)`, and in-flight `text`/`notification`/`progress` the
///    session waited for are reported cancelled (stale: never said again). Kept utterances
///    stay and are said again once reconnected, their ends reported with their original ids.
///    Should the outage outlast `Timing.holdLimit`, the session is released: kept utterances
///    it waits for are reported cancelled (and still said after reconnecting). A kept
///    utterance out at `maxHangs` watchdog losses is given up (`countHang`).
final class SpeechdEngine: @unchecked Sendable {  // made and used on the speech worker's thread only (handed to it once, at start)
    /// Timeouts and backoff, in milliseconds.
    typealias Timing = SpeechDispatcherOutput.Timing

    let address: SpeechdAddress?
    let addressText: String
    let timing: Timing
    let user: String
    let worker: OutputWorker<SpeechMail>
    /// The worker's clock: every deadline and timestamp of the engine.
    var clock: WorkerClock { worker.clock }
    let trace: (@Sendable (SSIPTrace) -> Void)?
    var voice: SpeechVoice
    /// The sockets' send buffer in bytes (nil: the system's; see `SpeechDispatcherOutput.sendBuffer`).
    let sendBuffer: Int?

    var connections: [SpeechComponent: SSIPConnection] = [:]
    var backoff: Backoff
    var nextAttempt: UInt64 = 0
    var outageSince: UInt64?
    /// The last sign of speech (an event, or a message sent): the begin watchdog's clock.
    var lastActivity: UInt64 = 0
    /// The last word from speech-dispatcher, keep-alive answers included.
    var lastHeard: UInt64 = 0
    /// Sent utterances by speech-dispatcher message id (current connections only).
    var byMessage: [Int: TrackedUtterance] = [:]
    /// `important`/`message` utterances not yet heard, in the order they came.
    var kept: [TrackedUtterance] = []
    /// The newest tracked utterance for each `Spoken.id` (an interrupted message comes back
    /// with the same id; notices about its older run are not passed on).
    var latest: [Int: TrackedUtterance] = [:]
    /// Jobs not yet carried out, oldest first (see `flushDeferred`).
    var deferred: [SpeechJob] = []
    /// The last utterance sent that speech-dispatcher has not said anything about yet.
    var starting: TrackedUtterance?
    /// Jobs also wait until this time: a little after the last message began, while the
    /// output module may still be starting its synthesizer.
    var settleUntil: UInt64 = 0
    /// Kept utterances given up during this outage (`giveUp`), said when the daemon is back.
    var givenUp = 0
    /// Kept utterances given up as hanging the daemon (`countHang`), said when it is back.
    var givenUpHanging: [String] = []
    /// The last language tag turned into speech-dispatcher's (`language(_:)`).
    var lastLanguage: (tag: String, name: String?)?
    /// At most this many kept utterances wait for a daemon.
    static let maxKept = 64
    /// How often a lost cancel is sent (the first `CANCEL` and its repairs).
    static let maxCancelAttempts = 3
    /// A kept utterance out at this many watchdog losses is given up (`countHang`).
    static let maxHangs = 3

    init(address: SpeechdAddress?, addressText: String, voice: SpeechVoice, timing: Timing,
         sendBuffer: Int? = nil, worker: OutputWorker<SpeechMail>, trace: (@Sendable (SSIPTrace) -> Void)?) {
        self.address = address; self.addressText = addressText; self.voice = voice; self.timing = timing
        self.sendBuffer = sendBuffer; self.worker = worker; self.trace = trace
        self.backoff = Backoff(first: timing.firstBackoff, longest: timing.maxBackoff)
        self.user = Self.userName()
    }

    var isConnected: Bool { !connections.isEmpty }

    // MARK: the loop

    /// Runs until the worker stops; `firstAttempt` is called once the first connection attempt is over.
    func run(firstAttempt: () -> Void) {
        connect()
        firstAttempt()
        while true {
            deferred += worker.take { $0.takeJobs() }
            if worker.isStopping {
                shutdown()
                return
            }
            flushDeferred()
            checkTimers()
            readConnections(waitForInput())
            flushDeferred()
        }
    }

    /// Sleeps until a job, a socket's data or the next deadline; returns the connections
    /// that have something to read (or broke).
    func waitForInput() -> [SpeechComponent] {
        let waiting = SpeechComponent.allCases.filter { connections[$0] != nil }
        let revents = worker.wait(for: waiting.map { connections[$0]!.socket.fd }, until: nextDeadline())
        return zip(waiting, revents).compactMap { $1 != 0 ? $0 : nil }
    }

    func report(_ event: LiveOutputEvent) { worker.report(event) }

    /// Reads what `ready` have for us (only those: a read of a connection with nothing waiting
    /// is a system call for nothing, on the way from a key to its speech).
    func readConnections(_ ready: [SpeechComponent]) {
        for c in ready.compactMap({ connections[$0] }) {
            do throws(SSIPError) {
                try c.pump()
            } catch {
                lose(error)
                return
            }
        }
    }

    /// When the loop next has something to do without input.
    func nextDeadline() -> UInt64 {
        let now = clock.now()
        var due = now &+ UInt64(timing.loopTick) * 1_000_000
        if !deferred.isEmpty, let gate = gateDeadline() { due = min(due, gate) }
        if !isConnected { return max(now, min(due, nextAttempt, holdDeadline() ?? .max)) }
        if let w = beginDeadline() { due = min(due, w) }
        if let w = longSpeechDeadline() { due = min(due, w) }
        if let c = cancelCheckDeadline() { due = min(due, c) }
        if let k = keepAliveDeadline() { due = min(due, k) }
        return due
    }

    func checkTimers() {
        let now = clock.now()
        if !isConnected {
            if let due = holdDeadline(), now >= due { releaseKept() }
            if now >= nextAttempt { connect() }
            return
        }
        if checkWatchdogs(at: now) { return }
        if let due = keepAliveDeadline(), now >= due, let c = connections[.focus] {
            // A daemon that hangs mid-speech sends nothing, which long speech does too: ask.
            do throws(SSIPError) { try c.request("GET RATE") } catch { lose(error); return }
            lastHeard = clock.now()
        }
        checkCancels(at: now)
    }
}
