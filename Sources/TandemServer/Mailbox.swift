import Dispatch
import Glibc
import Synchronization
import TandemPOSIX

/// What the service's threads share with the server's thread: the mail they post (lines to
/// send, closes, acknowledgements) in a `WakeMailbox`, whose pipe interrupts its `poll`, and the event
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

    /// What is posted and not yet taken.
    private struct Posted: Sendable {
        var mail: [Mail] = []
        var processed: [ControlSocket.ClientID: Int] = [:]
    }

    /// The handler inside a struct: a `Mutex` of a bare closure hands it to `withLock` through
    /// a reabstraction thunk and stores it back wrapped in another, so every report would call
    /// through two more thunks than the last (and keep them): time and memory growing with the
    /// events reported.
    private struct Handler {
        var call: (@Sendable (ControlSocket.Event) -> Void)?
    }

    /// The mail and the wake pipe the loop polls (`WakeMailbox`: pipe2, one write per wait).
    private let posted = WakeMailbox(Posted())
    private let handler: Mutex<Handler>
    private let stopped = Atomic<Bool>(false)
    /// The server thread, once it runs (`stop` on it must not wait for itself).
    private let thread = Mutex<pthread_t?>(nil)
    let finished = DispatchSemaphore(value: 0)

    init(handler: @escaping @Sendable (ControlSocket.Event) -> Void) {
        self.handler = Mutex(Handler(call: handler))
    }

    /// The wake pipe's read end, which the loop polls (both ends are nonblocking and
    /// close-on-exec).
    var wakeFD: Int32 { posted.wakeFD }

    var isUsable: Bool { posted.isUsable }

    /// Both ends of the wake pipe, while open (tests look for leaks).
    var pipeDescriptors: [Int32] { posted.pipeDescriptors }

    /// Closes the pipe once the loop is done (a stopped mailbox never writes to it again), so
    /// `stop` leaves no descriptor behind even while the thread object lingers.
    func closePipe() { posted.closePipe() }

    // MARK: any thread

    func post(_ mail: Mail) {
        posted.post { $0.mail.append(mail) }
    }

    func postProcessed(_ client: ControlSocket.ClientID) {
        posted.post { $0.processed[client, default: 0] += 1 }
    }

    /// Ends the loop's wait with nothing posted (a hosted server's host has input of its own).
    func wake() { posted.wake() }

    /// Asks the thread to finish; from then on nothing is reported. True the first time.
    @discardableResult
    func requestStop() -> Bool {
        stopped.store(true, ordering: .sequentiallyConsistent)
        return posted.requestStop()
    }

    /// Removes the handler, waiting for an event being reported to return. Not on the
    /// server's thread (an event handler that stops the server would wait for itself).
    func removeHandler() {
        handler.withLock { $0.call = nil }
    }

    var isServerThread: Bool {
        thread.withLock { t in t.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    // MARK: the server's thread

    func enterServerThread() {
        thread.withLock { $0 = pthread_self() }
    }

    /// Takes all the mail and drains the wake pipe, so the next post wakes the loop again.
    func take() -> Taken {
        posted.take { p, stopping in
            defer { p = Posted() }
            return Taken(mail: p.mail, processed: p.processed, stopping: stopping)
        }
    }

    func report(_ event: ControlSocket.Event) {
        handler.withLock { h in
            guard !stopped.load(ordering: .sequentiallyConsistent) else { return }
            h.call?(event)
        }
    }
}
