import Glibc
import TandemVocabulary

/// The braille worker's mailbox (see `OutputWorker`): only the newest frame, numbered so the
/// thread knows whether it has written it.
struct BrailleMail: Sendable {
    var pending: BrailleFrame?
    var number = 0

    mutating func replace(with frame: BrailleFrame) {
        pending = frame
        number += 1
    }
}

/// The braille output's work, on its `OutputWorker`'s thread. It owns the BrlAPI connection:
/// connects (and reconnects with `Backoff`), writes frames, reads keys and watches the
/// display's size, all from one `poll` loop, so a key, a new frame or a lost BRLTTY is handled
/// within a millisecond and no other thread ever waits for BRLTTY.
///
/// The flow, step by step:
/// 1. `BrlAPIOutput.emit` (any thread) replaces the pending frame and wakes the loop.
/// 2. The loop writes the pending frame if it is newer than the one on the display (or the
///    display was just connected, since BRLTTY keeps nothing for a new client), unless the
///    last write was less than the pacing interval ago; then it sleeps until the interval
///    ends, and whatever frame is newest then is written.
/// 3. When the BrlAPI socket is readable, every waiting key is read and reported; a read
///    error means BRLTTY is gone (or closed the connection after an exception).
/// 4. A lost or refused connection is reported once and retried by `Backoff` (50 ms doubling
///    up to 1 s); a new connection is reported with the display's size.
/// 5. Nothing waits for BRLTTY without a deadline. The calls that wait for an answer (opening
///    a connection, entering TTY mode again for another display, the goodbye) are made on a
///    thread of their own (`BrlAPIDeadlineCall`) and given up after `Settings.answerTimeout`;
///    a frame waits for room on the socket at most that long. Then the connection is lost.
final class BrlAPIWorker: @unchecked Sendable {  // its mutable state is the braille worker thread's own; other threads only post to `worker`
    private let endpoint: BrlAPIEndpoint
    private let accepted: [(code: UInt64, match: BrailleKeyCodes.Match)]
    private let settings: BrlAPIOutput.Settings
    let worker: OutputWorker<BrailleMail>
    /// The worker's clock: backoff, pacing, answer deadlines and write timestamps.
    var clock: WorkerClock { worker.clock }

    // The thread's own state.
    private var writtenNumber = -1
    private var pacer: BrailleWritePacer
    private var backoff: Backoff
    private let answerTimeout: Int

    init(endpoint: BrlAPIEndpoint, accepted: [(code: UInt64, match: BrailleKeyCodes.Match)],
         settings: BrlAPIOutput.Settings, worker: OutputWorker<BrailleMail>) {
        self.endpoint = endpoint
        self.accepted = accepted
        self.settings = settings
        self.worker = worker
        self.pacer = BrailleWritePacer(intervalMs: WorkerClock.milliseconds(settings.minimumWriteInterval))
        self.backoff = Backoff(first: WorkerClock.milliseconds(settings.firstRetry), longest: WorkerClock.milliseconds(settings.longestRetry))
        self.answerTimeout = WorkerClock.milliseconds(settings.answerTimeout)
    }

    /// Runs until the worker stops.
    func run() {
        while !worker.isStopping {
            switch connect() {
            case nil:
                return
            case .failure(let failure):
                worker.setAvailable(false, "Braille display not available: \(failure.message)")
            case .success(let connection):
                backoff.reset()
                switch serve(connection) {
                case .stopped:
                    sayGoodbye(connection)
                case .lost(let failure):
                    connection.close()
                    worker.setAvailable(false, "Braille display lost: \(failure.message)")
                case .abandoned(let failure):
                    worker.setAvailable(false, "Braille display lost: \(failure.message)")
                }
            }
            pause(backoff.next())
        }
    }

    /// Makes `body` (a BrlAPI call that waits for BRLTTY) on a thread of its own and waits for
    /// it `timeout` ms (the answer timeout), or until the output stops (`untilStop`). Nil:
    /// given up; `whenAbandoned` gets the call's value on its thread once it returns.
    private func withDeadline<Value: Sendable>(_ name: String, timeout: Int? = nil, untilStop: Bool = true,
                                     _ body: @escaping @Sendable () -> Value,
                                     whenAbandoned: @escaping @Sendable (Value) -> Void) -> Value? {
        let call = BrlAPIDeadlineCall(name, body, whenAbandoned: whenAbandoned)
        let deadline = clock.deadline(afterMilliseconds: timeout ?? answerTimeout)
        call.waitForQuickAnswer(within: timeout ?? answerTimeout)
        while true {
            if let value = call.take() { return value }
            if (untilStop && worker.isStopping) || clock.now() >= deadline { return call.abandon() }
            worker.wait(for: [call.finishedFD], until: deadline)
            // Drains the wake pipe only: a frame posted meanwhile stays pending.
            worker.take { _ in }
        }
    }

    /// Opens a connection, giving up after the answer timeout; nil when the output stops
    /// meanwhile.
    private func connect() -> Result<BrlAPIConnection, BrlAPIConnection.Failure>? {
        let endpoint = endpoint, accepted = accepted
        let opened = withDeadline("tandem-braille-open", { BrlAPIConnection.open(endpoint, accepting: accepted) },
                                  whenAbandoned: { result in if case .success(let c) = result { c.close() } })
        if let opened { return opened }
        if worker.isStopping { return nil }
        return .failure(.init(message: "\(endpoint.description) did not answer within \(answerTimeout) ms"))
    }

    /// Gives the display back politely (the size watch removed while BRLTTY answers), within
    /// half the stop timeout, so that the thread ends within `stop`'s wait even when BRLTTY does
    /// not answer. Given up, the call still closes the connection when it returns.
    private func sayGoodbye(_ c: BrlAPIConnection) {
        _ = withDeadline("tandem-braille-close", timeout: WorkerClock.milliseconds(settings.stopTimeout) / 2, untilStop: false,
                         { c.close(alive: true) }, whenAbandoned: { _ in })
    }

    /// Waits `ms` milliseconds unless stopped.
    private func pause(_ ms: Int) {
        let end = clock.deadline(afterMilliseconds: ms)
        while !worker.isStopping, clock.now() < end {
            worker.wait(for: [], until: end)
            worker.take { _ in }
        }
    }

    /// How serving a connection ended.
    private enum End {
        /// The output stops; the connection is still open.
        case stopped
        /// BRLTTY went away or misbehaved; the connection is still open (to be closed).
        case lost(BrlAPIConnection.Failure)
        /// A call on it did not return in time; its thread closes it when it does.
        case abandoned(BrlAPIConnection.Failure)
    }

    /// Serves one connection until it is lost or the output stops.
    private func serve(_ c: BrlAPIConnection) -> End {
        var columns = 0
        var mustWrite = false
        /// When a frame due to be written first found the socket full.
        var fullSince: UInt64?
        func adopt(_ newColumns: Int) {
            columns = newColumns
            if newColumns > 0 {
                worker.setAvailable(true, "Braille display connected: \(newColumns) cells, \(endpoint.description)")
                worker.report(.displaySize(columns: newColumns))
                mustWrite = true
            } else {
                worker.setAvailable(false, "Braille display not available: \(endpoint.description) has no display connected")
            }
        }
        adopt(c.columns)
        while true {
            if let announced = c.takeAnnouncedColumns() {
                if announced > 0 {
                    guard let outcome = withDeadline("tandem-braille-size", { c.reenterTtyMode() }, whenAbandoned: { _ in c.close() }) else {
                        return .abandoned(.init(message: "\(endpoint.description) did not answer within \(answerTimeout) ms"))
                    }
                    if let failure = outcome { return .lost(failure) }
                }
                adopt(c.columns)
            }
            var deadline = UInt64.max
            var waitForRoom = false
            if columns > 0, let (frame, number) = worker.take({ m in m.pending.map { ($0, m.number) } }), number != writtenNumber || mustWrite {
                let now = clock.now()
                if let due = pacer.nextWrite(at: now) {
                    deadline = due
                } else if !c.hasRoom {
                    let since = fullSince ?? now
                    fullSince = since
                    let giveUp = since &+ WorkerClock.nanoseconds(answerTimeout)
                    if now >= giveUp { return .lost(.init(message: "\(endpoint.description) stopped reading: no room for a frame for \(answerTimeout) ms")) }
                    deadline = giveUp
                    waitForRoom = true
                } else {
                    fullSince = nil
                    let window = BrailleWindowWrite(frame: frame, columns: columns)
                    if let failure = c.write(window) { return .lost(failure) }
                    let ended = clock.now()
                    pacer.wrote(at: now)
                    writtenNumber = number
                    settings.onWrite?(BrailleWriteEvent(frame: frame, columns: columns, started: now,
                                                        callDuration: ended - now, afterConnect: mustWrite))
                    mustWrite = false
                    continue
                }
            } else {
                fullSince = nil
            }
            let events = Int16(POLLIN) | (waitForRoom ? Int16(POLLOUT) : 0)
            let revents = worker.wait(polling: [pollfd(fd: c.fileDescriptor, events: events, revents: 0)], until: deadline)
            if worker.isStopping { return .stopped }
            if revents[0] & ~Int16(POLLOUT) != 0 || c.fileDescriptor < 0 {
                let failure = c.readKeys { code in
                    if let command = BrailleKeyCodes.command(for: code) {
                        worker.report(.brailleCommand(name: command.name, argument: command.argument))
                    }
                }
                if let failure { return .lost(failure) }
            }
        }
    }
}
