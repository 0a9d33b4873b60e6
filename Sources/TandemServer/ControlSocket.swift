import Dispatch
import Foundation
import Glibc
import TandemPOSIX
import Synchronization

/// The control socket: a Unix stream socket that carries one line per message, served by one
/// thread that `poll`s every connection. It knows lines, not messages: the service decodes
/// them.
///
/// - **Events** (`Event`) are reported on the server's thread, in order, through `onEvent`,
///   which must be quick: it hands them to the service's own thread and returns.
/// - **Any thread** may call `send`, `close`, `processed` and `stop`; none of them waits for a
///   client. A client whose output queue would go over `maxQueuedBytes` is disconnected,
///   never waited for.
/// - **Backpressure**: the service calls `processed(client)` once per line it has handled;
///   while `maxPendingLines` of a client's lines are unhandled the server stops reading that
///   client, so a client that floods slows only itself.
/// - **Transport errors** (a peer of another user, a line over `maxLine`, a line left half
///   sent for `stallTimeout`) are answered here with an error line, then the client is
///   closed; the service sees `rejected` or `disconnected`.
///
/// The rules, options and defaults are in Docs/server.md.
public final class ControlSocket: Sendable {
    public let options: Options
    private let mailbox: Mailbox
    private let listener = Mutex<ListeningSocket?>(nil)
    private let started = Atomic<Bool>(false)

    /// `onEvent` is called on the server's thread, never after `stop` has returned.
    public init(options: Options, onEvent: @escaping @Sendable (Event) -> Void) {
        self.options = options
        self.mailbox = Mailbox(handler: onEvent)
    }

    deinit {
        // Without waiting: the thread holds only the mailbox and finishes on its own.
        mailbox.requestStop()
        listener.withLock { $0?.removeFile() }
    }

    public var path: String { options.path }

    /// Tests: the descriptors the server itself holds (listening socket, wake pipe), while open.
    var ownDescriptors: [Int32] {
        (listener.withLock { $0?.fd }.map { [$0] } ?? []) + mailbox.pipeDescriptors
    }

    /// Makes the socket (see `Options.ownsDirectory` for the directory rules; a stale socket
    /// file is replaced, a live one is an error) and starts the server's thread.
    public func start() throws {
        let socket = try listen()
        let loop = ServerLoopStarter(options: options, listener: socket, mailbox: mailbox)
        let thread = Thread { loop.run() }
        thread.name = "tandem control socket"
        thread.start()
    }

    /// Makes the socket as `start` does, with no thread of its own: the calling thread serves
    /// it through the `HostedServer` returned, between its other work. `stop` is then
    /// `HostedServer.finish`, on that thread.
    public func startHosted() throws -> HostedServer {
        let socket = try listen()
        mailbox.enterServerThread()
        let policy = PeerPolicy(uid: options.serviceUID ?? geteuid(), allowedGroup: options.allowedGroup)
        return HostedServer(loop: ServerLoop(options: options, listener: socket, mailbox: mailbox, policy: policy), mailbox: mailbox)
    }

    private func listen() throws -> ListeningSocket {
        guard !started.exchange(true, ordering: .sequentiallyConsistent) else { throw ControlSocketError.alreadyStarted }
        guard mailbox.isUsable else { throw ControlSocketError.system(call: "pipe", path: path, errno: errno) }
        let socket: ListeningSocket
        do {
            socket = try ListeningSocket.open(options)
        } catch {
            started.store(false, ordering: .sequentiallyConsistent)
            throw error
        }
        listener.withLock { $0 = socket }
        return socket
    }

    /// Queues `line` (the server adds its `\n`) for `client`. Never waits. Ignored when the
    /// client is gone or closing; a client whose queue would go over `maxQueuedBytes` is
    /// disconnected ("does not read its messages").
    public func send(_ client: ClientID, _ line: [UInt8]) {
        mailbox.post(.send(client, line))
    }

    /// Closes `client` after writing what is queued and then `last` (a goodbye or an error);
    /// its further input is dropped. A client that does not take its last lines within
    /// `closeTimeout` is closed anyway. Lines reported before the server sees this may still
    /// arrive; `disconnected` comes last.
    public func close(_ client: ClientID, after last: [UInt8]? = nil) {
        mailbox.post(.close(client, last: last))
    }

    /// The service has handled one of `client`'s lines (see backpressure above).
    public func processed(_ client: ClientID) {
        mailbox.postProcessed(client)
    }

    /// Stops the server: removes the socket file (if it is still this server's), makes one
    /// last attempt to write each client's queue without waiting, closes every connection and
    /// waits for the thread at most `timeout`. Nothing is reported once it has returned, and no
    /// `disconnected` is reported for the connections it closes. Any thread may call it, the
    /// server's own (from `onEvent`) too, where it does not wait. False when the thread did
    /// not finish in time (it still finishes on its own). Calling it again is harmless.
    @discardableResult
    public func stop(timeout: Duration = .seconds(2)) -> Bool {
        mailbox.requestStop()
        listener.withLock { $0?.removeFile() }
        guard !mailbox.isServerThread else { return true }
        mailbox.removeHandler()
        guard listener.withLock({ $0 != nil }) else { return true }
        let ms = Int(Monotonic.nanoseconds(timeout) / 1_000_000)
        guard mailbox.finished.wait(timeout: .now() + .milliseconds(ms)) == .success else { return false }
        mailbox.finished.signal()   // for a later call
        return true
    }
}

/// Carries the loop's ingredients into its thread (the loop itself is made there and stays
/// there).
private struct ServerLoopStarter: Sendable {
    let options: ControlSocket.Options
    let listener: ListeningSocket
    let mailbox: Mailbox

    func run() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        mailbox.enterServerThread()
        let policy = PeerPolicy(uid: options.serviceUID ?? geteuid(), allowedGroup: options.allowedGroup)
        ServerLoop(options: options, listener: listener, mailbox: mailbox, policy: policy).run()
        mailbox.closePipe()
        mailbox.finished.signal()
    }
}
