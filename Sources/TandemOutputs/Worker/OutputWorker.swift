import Dispatch
import Foundation
import Glibc
import Synchronization
import TandemVocabulary
import TandemPOSIX

/// The shape both live outputs share (speech-dispatcher, BRLTTY), so their rules are read once:
///
/// - **One thread** owns the connection and everything in flight; no other thread ever waits
///   for a daemon. SIGPIPE is blocked on it, so a write to a daemon that died fails with EPIPE.
/// - **A mailbox** (`Mail` in a `WakeMailbox`) is how any thread hands it work: `post` changes
///   the mail and wakes the thread through a pipe it polls together with its sockets; posting
///   never waits for the worker. `take` reads and empties it on the thread.
/// - **Reports** (`LiveOutputEvent`) go to the session through the reporter given to `start`;
///   `stop` removes it under its lock, so nothing is reported once `stop` has returned.
/// - **Availability** is reported once per change (`setAvailable`): one `.status` when the
///   daemon is missing, not one per retry.
/// - **Reconnecting** waits by `Backoff`: 50 ms, doubling, up to 2 s (the outputs' settings).
/// - **Stopping**: `stop` flags the mailbox and wakes the thread, which says goodbye to its
///   daemon without waiting for answers; `stop` waits for it at most `timeout`. It also makes
///   the stop pipe (`stopFD`) readable for good, so a wait in the middle of an exchange with
///   the daemon (a reply, a write) that watches it ends at once instead of at its deadline.
final class OutputWorker<Mail: Sendable>: Sendable {
    let kind: OutputKind
    /// The clock of everything the worker does: its waits, deadlines and timestamps.
    let clock: WorkerClock

    private let mailbox: WakeMailbox<Mail>
    /// The reporter inside a struct: a `Mutex` of a bare closure hands it to `withLock` through
    /// a reabstraction thunk and stores it back wrapped in another, so every report would call
    /// through two more thunks than the last (and keep them).
    private struct Reporter {
        var call: (@Sendable (LiveOutputEvent) -> Void)?
    }

    private let reporter = Mutex(Reporter())
    /// What the session was last told about availability (thread only; a lock keeps it Sendable).
    private let reported = Mutex<Bool?>(nil)
    /// The wake pipe's read end (the thread polls it).
    var wakeFD: Int32 { mailbox.wakeFD }
    /// The stop pipe: readable from the moment `stop` is called and never drained.
    /// Not the wake pipe: that one is readable whenever new work waits, which a wait for a
    /// daemon's reply must not end on (the exchange has to finish first), and `take` drains it.
    private let stopPipe = WakePipe()
    /// The stop pipe's read end.
    var stopFD: Int32 { stopPipe.readFD }
    private let finished = DispatchSemaphore(value: 0)

    init(kind: OutputKind, mail: Mail, clock: WorkerClock = .monotonic) {
        self.kind = kind
        self.clock = clock
        self.mailbox = WakeMailbox(mail)
    }

    deinit { stopPipe.close() }

    // MARK: any thread

    /// Starts the thread running `body`, which returns once `isStopping` is true.
    func start(threadName: String, report: @escaping @Sendable (LiveOutputEvent) -> Void,
               _ body: @escaping @Sendable () -> Void) {
        reporter.withLock { $0.call = report }
        let finished = self.finished
        let thread = Thread {
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &set, nil)
            body()
            finished.signal()
        }
        thread.name = threadName
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Changes the mail and wakes the thread. Never waits for the worker.
    func post(_ change: (inout Mail) -> Void) {
        mailbox.post(change)
    }

    /// Stops reporting at once, tells the thread to finish and waits for it at most `timeout`.
    /// False when it did not finish in time (it still finishes on its own, reporting nothing).
    @discardableResult
    func stop(timeout: Duration) -> Bool {
        reporter.withLock { $0.call = nil }
        guard mailbox.requestStop() else { return true }
        stopPipe.signal()
        return finished.wait(timeout: .now() + .milliseconds(Monotonic.milliseconds(timeout))) == .success
    }

    // MARK: the worker's thread

    var isStopping: Bool { mailbox.isStopping }

    /// Reads (and may empty) the mail; the wake pipe is drained, so the next `post` wakes
    /// the thread again.
    func take<R>(_ body: (inout Mail) -> R) -> R {
        mailbox.take { mail, _ in body(&mail) }
    }

    /// Sleeps until the mailbox is woken, one of `fds` is readable, or `deadline` (a
    /// `clock` time) passes. Returns each fd's `revents`, in order.
    @discardableResult
    func wait(for fds: [Int32], until deadline: UInt64) -> [Int16] {
        wait(polling: fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }, until: deadline)
    }

    /// As `wait(for:until:)`, for the events each fd asks for (POLLOUT: room to write).
    @discardableResult
    func wait(polling fds: [pollfd], until deadline: UInt64) -> [Int16] {
        var polled = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)] + fds
        _ = clock.poll(&polled, until: deadline)
        return polled.dropFirst().map(\.revents)
    }

    /// Passes an event to the session (nothing once `stop` was called).
    func report(_ event: LiveOutputEvent) {
        // Under the lock, so that no report is made once `stop` has returned.
        reporter.withLock { $0.call?(event) }
    }

    /// Reports the output's availability when it changed; the first report is always made.
    func setAvailable(_ available: Bool, _ message: String) {
        let changed = reported.withLock { r -> Bool in
            guard r != available else { return false }
            r = available
            return true
        }
        if changed { report(.status(OutputStatus(kind, available: available, message: message))) }
    }

    /// What the session was last told: nil before the first report.
    var lastReportedAvailability: Bool? { reported.withLock { $0 } }
}
