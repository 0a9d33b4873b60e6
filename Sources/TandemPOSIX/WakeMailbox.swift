import Synchronization

/// How any thread hands work to one thread that sleeps in `poll`, without waiting for it: the
/// mail under a `Mutex`, and a `WakePipe` the thread polls with its sockets. The server's
/// loop (`TandemServer.Mailbox`) and both output workers (`OutputWorker`) use it.
///
/// - `post` changes the mail and wakes the thread; one byte per wait, however many posts.
/// - `take` runs on the thread: it drains the pipe and reads (and may empty) the mail, so the
///   next `post` wakes the thread again.
/// - `requestStop` makes every later `post` do nothing and wakes the thread a last time.
/// - The pipe is closed once, by `closePipe` (the thread is done) or `deinit`.
///
/// One lock kind: Tandem's threads share mutable state through `Synchronization.Mutex` only
/// (never `NSLock` or a pthread mutex of its own), and a class that is `@unchecked Sendable`
/// says why on that line (`ConcurrencyRuleTests`). `Mutex` is invisible to ThreadSanitizer on
/// Linux; the files that rely on it are listed in Tests/Sanitizers/tsan.supp
/// (Docs/reliability.md).
public final class WakeMailbox<Mail: Sendable>: Sendable {
    private struct State: Sendable {
        var mail: Mail
        var stopping = false
        var wakePending = false
        /// False once the pipe is closed: nothing writes to it again.
        var pipeOpen: Bool
    }

    private let state: Mutex<State>
    private let pipe: WakePipe

    public init(_ mail: Mail) {
        pipe = WakePipe()
        state = Mutex(State(mail: mail, pipeOpen: pipe.isOpen))
    }

    deinit { closePipe() }

    /// The descriptor the thread polls for POLLIN (-1: no pipe could be made).
    public var wakeFD: Int32 { pipe.readFD }

    /// Whether the pipe could be made.
    public var isUsable: Bool { pipe.isOpen }

    /// Both ends of the pipe while open (tests look for leaks).
    public var pipeDescriptors: [Int32] {
        state.withLock { $0.pipeOpen ? [pipe.readFD, pipe.writeFD] : [] }
    }

    /// Closes the pipe (once the thread is done polling it); later calls do nothing.
    public func closePipe() {
        state.withLock { s in
            guard s.pipeOpen else { return }
            s.pipeOpen = false
            pipe.close()
        }
    }

    // MARK: any thread

    /// Changes the mail and wakes the thread; nothing once a stop was requested. Never waits
    /// for the thread.
    public func post(_ change: (inout Mail) -> Void) {
        state.withLock { s in
            guard !s.stopping else { return }
            change(&s.mail)
            wake(&s)
        }
    }

    /// Ends the thread's wait with no new mail (nothing once a stop was requested).
    public func wake() {
        state.withLock { s in
            guard !s.stopping else { return }
            wake(&s)
        }
    }

    /// From now on `post` does nothing; the thread is woken. True the first time.
    @discardableResult
    public func requestStop() -> Bool {
        state.withLock { s in
            guard !s.stopping else { return false }
            s.stopping = true
            wake(&s)
            return true
        }
    }

    public var isStopping: Bool { state.withLock { $0.stopping } }

    private func wake(_ s: inout State) {
        guard !s.wakePending, s.pipeOpen else { return }
        s.wakePending = true
        pipe.signal()
    }

    // MARK: the thread

    /// Drains the pipe and reads (and may empty) the mail; `stopping`: whether a stop was
    /// requested.
    public func take<R>(_ body: (inout Mail, _ stopping: Bool) -> R) -> R {
        state.withLock { s in
            if s.wakePending && s.pipeOpen {
                pipe.drain()
                s.wakePending = false
            }
            return body(&s.mail, s.stopping)
        }
    }
}
