import Foundation

/// The braille output's own thread. It owns the BrlAPI connection: connects (and reconnects
/// with backoff), writes frames, reads keys and watches the display's size, all from one
/// `poll` loop, so a key, a new frame or a lost BRLTTY is handled within a millisecond and no
/// other thread ever waits for BRLTTY.
///
/// The flow, step by step:
/// 1. `submit` (any thread) replaces the pending frame and wakes the loop through a pipe.
/// 2. The loop writes the pending frame if it is newer than the one on the display (or the
///    display was just connected, since BRLTTY keeps nothing for a new client), unless the
///    last write was less than the pacing interval ago; then it sleeps until the interval
///    ends, and whatever frame is newest then is written.
/// 3. When the BrlAPI socket is readable, every waiting key is read and reported; a read
///    error means BRLTTY is gone (or closed the connection after an exception).
/// 4. A lost or refused connection is reported once, retried after 50 ms, then 1.5 times
///    longer each time up to 2 s; a new connection is reported with the display's size.
final class BrlAPIWorker: @unchecked Sendable {
    private let endpoint: BrlAPIEndpoint
    private let accepted: [(code: UInt64, match: BrailleKeyCodes.Match)]
    private let settings: BrlAPIOutput.Settings

    // Shared with `submit` and `stop`, under `lock`.
    private let lock = NSLock()
    private var pending: BrailleFrame?
    private var pendingNumber = 0
    private var stopping = false
    // The report closure, under its own lock so that nothing is reported after `stop`.
    private let reportLock = NSLock()
    private var reporter: (@Sendable (LiveOutputEvent) -> Void)?
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let finished = DispatchSemaphore(value: 0)

    // The thread's own state.
    private var writtenNumber = -1
    private var pacer: BrailleWritePacer
    private var available: Bool?

    init(endpoint: BrlAPIEndpoint, accepted: [(code: UInt64, match: BrailleKeyCodes.Match)],
         settings: BrlAPIOutput.Settings, report: @escaping @Sendable (LiveOutputEvent) -> Void) {
        self.endpoint = endpoint
        self.accepted = accepted
        self.settings = settings
        self.reporter = report
        self.pacer = BrailleWritePacer(interval: settings.minimumWriteInterval)
        (wakeRead, wakeWrite) = WakePipe.open()
    }

    func start() {
        let thread = Thread { [self] in self.main() }
        thread.name = "tandem-braille"
        thread.start()
    }

    /// Leaves `frame` for the thread; only the newest pending frame is ever written.
    func submit(_ frame: BrailleFrame) {
        lock.lock(); defer { lock.unlock() }
        guard !stopping else { return }
        pending = frame
        pendingNumber += 1
        wake()
    }

    func stop() {
        reportLock.lock()
        reporter = nil
        reportLock.unlock()
        lock.lock()
        if !stopping {
            stopping = true
            wake()
        }
        lock.unlock()
        _ = finished.wait(timeout: .now() + .milliseconds(Int(Self.milliseconds(settings.stopTimeout))))
    }

    /// Called with `lock` held and `stopping` false, so the pipe is still open.
    private func wake() {
        var one: UInt8 = 1
        _ = Glibc.write(wakeWrite, &one, 1)
    }

    private var isStopping: Bool {
        lock.lock(); defer { lock.unlock() }
        return stopping
    }

    private func report(_ event: LiveOutputEvent) {
        reportLock.lock(); defer { reportLock.unlock() }
        reporter?(event)
    }

    private func setAvailable(_ yes: Bool, _ message: String) {
        guard available != yes else { return }
        available = yes
        report(.status(OutputStatus(.braille, available: yes, message: message)))
    }

    // MARK: the thread

    private func main() {
        // A write to a BRLTTY that just died raises SIGPIPE; on this thread it stays pending
        // (blocked) and the write fails with EPIPE instead of ending the process.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &set, nil)

        var retry = settings.firstRetry
        while !isStopping {
            switch BrlAPIConnection.open(endpoint, accepting: accepted) {
            case .failure(let failure):
                setAvailable(false, "Braille display not available: \(failure.message)")
            case .success(let connection):
                retry = settings.firstRetry
                let outcome = serve(connection)
                connection.close(alive: outcome == nil)
                if let failure = outcome {
                    setAvailable(false, "Braille display lost: \(failure.message)")
                }
            }
            if !pause(retry) { break }
            retry = min(retry * 1.5, settings.longestRetry)
        }
        lock.lock()
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
        lock.unlock()
        finished.signal()
    }

    /// Waits `duration` unless stopped; false when stopped.
    private func pause(_ duration: Duration) -> Bool {
        let end = ContinuousClock.now + duration
        while !isStopping {
            let left = end - ContinuousClock.now
            if left <= .zero { return true }
            var fd = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, Self.milliseconds(left))
            drainWake()
        }
        return false
    }

    /// Serves one connection until it is lost (the failure) or the output stops (nil).
    private func serve(_ c: BrlAPIConnection) -> BrlAPIConnection.Failure? {
        var columns = 0
        var mustWrite = false
        func adopt(_ newColumns: Int) {
            columns = newColumns
            if newColumns > 0 {
                setAvailable(true, "Braille display connected: \(newColumns) cells, \(endpoint.description)")
                report(.displaySize(columns: newColumns))
                mustWrite = true
            } else {
                setAvailable(false, "Braille display not available: \(endpoint.description) has no display connected")
            }
        }
        adopt(c.columns)
        while true {
            if let announced = c.takeAnnouncedColumns() {
                if announced > 0, let failure = c.reenterTtyMode() { return failure }
                adopt(c.columns)
            }
            var timeout: Int32 = -1
            if columns > 0, let (frame, number) = pendingFrame(), number != writtenNumber || mustWrite {
                let now = ContinuousClock.now
                let delay = pacer.delay(at: now)
                if delay == .zero {
                    let window = BrailleWindowWrite(frame: frame, columns: columns)
                    let started = ContinuousClock.now
                    if let failure = c.write(window) { return failure }
                    let duration = ContinuousClock.now - started
                    pacer.wrote(at: started)
                    writtenNumber = number
                    settings.onWrite?(BrailleWriteEvent(frame: frame, columns: columns, started: started,
                                                        callDuration: duration, afterConnect: mustWrite))
                    mustWrite = false
                    continue
                }
                timeout = max(1, Self.milliseconds(delay))
            }
            var fds = [pollfd(fd: c.fileDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let n = poll(&fds, 2, timeout)
            if n < 0 && errno != EINTR { return BrlAPIConnection.Failure(message: String(cString: strerror(errno))) }
            if fds[1].revents != 0 { drainWake() }
            if isStopping { return nil }
            if fds[0].revents != 0 || c.fileDescriptor < 0 {
                let failure = c.readKeys { code in
                    if let command = BrailleKeyCodes.command(for: code) {
                        report(.brailleCommand(name: command.name, argument: command.argument))
                    }
                }
                if let failure { return failure }
            }
        }
    }

    private func pendingFrame() -> (BrailleFrame, Int)? {
        lock.lock(); defer { lock.unlock() }
        return pending.map { ($0, pendingNumber) }
    }

    private func drainWake() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while Glibc.read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    /// Whole milliseconds, rounded up, for `poll`.
    static func milliseconds(_ d: Duration) -> Int32 {
        let (seconds, attoseconds) = d.components
        let ms = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(0, ms))
    }
}
