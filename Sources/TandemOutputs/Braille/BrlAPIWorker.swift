import Glibc

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
final class BrlAPIWorker: @unchecked Sendable {
    private let endpoint: BrlAPIEndpoint
    private let accepted: [(code: UInt64, match: BrailleKeyCodes.Match)]
    private let settings: BrlAPIOutput.Settings
    let worker: OutputWorker<BrailleMail>

    // The thread's own state.
    private var writtenNumber = -1
    private var pacer: BrailleWritePacer
    private var backoff: Backoff

    init(endpoint: BrlAPIEndpoint, accepted: [(code: UInt64, match: BrailleKeyCodes.Match)],
         settings: BrlAPIOutput.Settings, worker: OutputWorker<BrailleMail>) {
        self.endpoint = endpoint
        self.accepted = accepted
        self.settings = settings
        self.worker = worker
        self.pacer = BrailleWritePacer(intervalMs: WorkerClock.milliseconds(settings.minimumWriteInterval))
        self.backoff = Backoff(first: WorkerClock.milliseconds(settings.firstRetry), longest: WorkerClock.milliseconds(settings.longestRetry))
    }

    /// Runs until the worker stops.
    func run() {
        while !worker.isStopping {
            switch BrlAPIConnection.open(endpoint, accepting: accepted) {
            case .failure(let failure):
                worker.setAvailable(false, "Braille display not available: \(failure.message)")
            case .success(let connection):
                backoff.reset()
                let outcome = serve(connection)
                connection.close(alive: outcome == nil)
                if let failure = outcome {
                    worker.setAvailable(false, "Braille display lost: \(failure.message)")
                }
            }
            pause(backoff.next())
        }
    }

    /// Waits `ms` milliseconds unless stopped.
    private func pause(_ ms: Int) {
        let end = WorkerClock.deadline(afterMilliseconds: ms)
        while !worker.isStopping, WorkerClock.now() < end {
            worker.wait(for: [], until: end)
            worker.take { _ in }
        }
    }

    /// Serves one connection until it is lost (the failure) or the output stops (nil).
    private func serve(_ c: BrlAPIConnection) -> BrlAPIConnection.Failure? {
        var columns = 0
        var mustWrite = false
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
                if announced > 0, let failure = c.reenterTtyMode() { return failure }
                adopt(c.columns)
            }
            var deadline = UInt64.max
            if columns > 0, let (frame, number) = worker.take({ m in m.pending.map { ($0, m.number) } }), number != writtenNumber || mustWrite {
                let now = WorkerClock.now()
                if let due = pacer.nextWrite(at: now) {
                    deadline = due
                } else {
                    let window = BrailleWindowWrite(frame: frame, columns: columns)
                    if let failure = c.write(window) { return failure }
                    let ended = WorkerClock.now()
                    pacer.wrote(at: now)
                    writtenNumber = number
                    settings.onWrite?(BrailleWriteEvent(frame: frame, columns: columns, started: now,
                                                        callDuration: ended - now, afterConnect: mustWrite))
                    mustWrite = false
                    continue
                }
            }
            let revents = worker.wait(for: [c.fileDescriptor], until: deadline)
            if worker.isStopping { return nil }
            if revents[0] != 0 || c.fileDescriptor < 0 {
                let failure = c.readKeys { code in
                    if let command = BrailleKeyCodes.command(for: code) {
                        worker.report(.brailleCommand(name: command.name, argument: command.argument))
                    }
                }
                if let failure { return failure }
            }
        }
    }
}
