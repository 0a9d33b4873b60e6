import CLinux
import Dispatch
import Glibc
import Synchronization

/// What the service's threads share with the server's thread: the mail they post (lines to
/// send, closes, acknowledgements), the wake pipe that interrupts its `poll`, and the event
/// handler, which `stop` removes so that nothing is reported once it has returned.
final class Mailbox: Sendable {
    enum Mail: Sendable {
        case send(ControlSocket.ClientID, [UInt8])
        case close(ControlSocket.ClientID, last: [UInt8]?)
    }

    struct Taken {
        var mail: [Mail]
        var processed: [ControlSocket.ClientID: Int]
        var stopping: Bool
    }

    private struct Box {
        var mail: [Mail] = []
        var processed: [ControlSocket.ClientID: Int] = [:]
        var stopping = false
        var wakePending = false
        /// The wake pipe's write end; -1 once the loop has finished and closed the pipe.
        var wakeWriteFD: Int32 = -1
    }

    /// The handler inside a struct: a `Mutex` of a bare closure hands it to `withLock` through
    /// a reabstraction thunk and stores it back wrapped in another, so every report would call
    /// through two more thunks than the last (and keep them): time and memory growing with the
    /// events reported.
    private struct Handler {
        var call: (@Sendable (ControlSocket.Event) -> Void)?
    }

    private let box = Mutex(Box())
    private let handler: Mutex<Handler>
    private let stopped = Atomic<Bool>(false)
    /// The server thread, once it runs (`stop` on it must not wait for itself).
    private let thread = Mutex<pthread_t?>(nil)
    let finished = DispatchSemaphore(value: 0)
    /// The wake pipe's read end, which the loop polls (both ends are nonblocking and
    /// close-on-exec).
    let wakeFD: Int32

    init(handler: @escaping @Sendable (ControlSocket.Event) -> Void) {
        self.handler = Mutex(Handler(call: handler))
        var fds: [Int32] = [-1, -1]
        if pipe2(&fds, O_NONBLOCK | O_CLOEXEC) != 0 { fds = [-1, -1] }
        wakeFD = fds[0]
        box.withLock { $0.wakeWriteFD = fds[1] }
    }

    deinit {
        closePipe()
    }

    var isUsable: Bool { wakeFD >= 0 }

    /// Both ends of the wake pipe, while open (tests look for leaks).
    var pipeDescriptors: [Int32] {
        box.withLock { b in b.wakeWriteFD >= 0 ? [wakeFD, b.wakeWriteFD] : [] }
    }

    /// Closes the pipe once the loop is done (a stopped mailbox never writes to it again), so
    /// `stop` leaves no descriptor behind even while the thread object lingers.
    func closePipe() {
        box.withLock { b in
            guard b.wakeWriteFD >= 0 else { return }
            close(b.wakeWriteFD)
            close(wakeFD)
            b.wakeWriteFD = -1
        }
    }

    // MARK: any thread

    func post(_ mail: Mail) {
        box.withLock { b in
            guard !b.stopping else { return }
            b.mail.append(mail)
            wake(&b)
        }
    }

    func postProcessed(_ client: ControlSocket.ClientID) {
        box.withLock { b in
            guard !b.stopping else { return }
            b.processed[client, default: 0] += 1
            wake(&b)
        }
    }

    /// Ends the loop's wait with nothing posted (a hosted server's host has input of its own).
    func wake() {
        box.withLock { b in
            guard !b.stopping else { return }
            wake(&b)
        }
    }

    /// Asks the thread to finish; from then on nothing is reported. True the first time.
    @discardableResult
    func requestStop() -> Bool {
        stopped.store(true, ordering: .sequentiallyConsistent)
        return box.withLock { b in
            guard !b.stopping else { return false }
            b.stopping = true
            wake(&b)
            return true
        }
    }

    /// Removes the handler, waiting for an event being reported to return. Not on the
    /// server's thread (an event handler that stops the server would wait for itself).
    func removeHandler() {
        handler.withLock { $0.call = nil }
    }

    var isServerThread: Bool {
        thread.withLock { t in t.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    private func wake(_ b: inout Box) {
        guard !b.wakePending else { return }
        b.wakePending = true
        var one: UInt8 = 1
        if b.wakeWriteFD >= 0 { _ = write(b.wakeWriteFD, &one, 1) }
    }

    // MARK: the server's thread

    func enterServerThread() {
        thread.withLock { $0 = pthread_self() }
    }

    /// Takes all the mail and drains the wake pipe, so the next post wakes the loop again.
    func take() -> Taken {
        box.withLock { b in
            if b.wakePending && b.wakeWriteFD >= 0 {
                var sink = [UInt8](repeating: 0, count: 64)
                while read(wakeFD, &sink, sink.count) > 0 {}
                b.wakePending = false
            }
            defer {
                b.mail = []
                b.processed = [:]
            }
            return Taken(mail: b.mail, processed: b.processed, stopping: b.stopping)
        }
    }

    func report(_ event: ControlSocket.Event) {
        handler.withLock { h in
            guard !stopped.load(ordering: .sequentiallyConsistent) else { return }
            h.call?(event)
        }
    }
}
