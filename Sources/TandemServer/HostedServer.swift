import Glibc
import TandemPOSIX

/// The control socket served on a thread that has other work, instead of one of its own
/// (`ControlSocket.startHosted`): `tandem serve`'s session thread waits for its clients here,
/// so a client's line is read on the thread that acts on it, with no hand-over between threads
/// on the way from a key to its speech.
///
/// `serve`, `flush` and `finish` are for the hosting thread only, the one that called
/// `startHosted`; `wake` is for any thread. Events are reported on the hosting thread, from
/// inside `serve` and `flush`, as `ControlSocket.start`'s thread reports them. Everything else —
/// the rules, the limits, `send`, `close`, `processed` — is the same (Docs/server.md).
public final class HostedServer: @unchecked Sendable {  // serve, flush and stop run on the hosting thread only; `wake`, for any thread, only posts to the Sendable mailbox
    private let loop: ServerLoop
    private let mailbox: Mailbox
    private var finished = false

    init(loop: ServerLoop, mailbox: Mailbox) {
        self.loop = loop
        self.mailbox = mailbox
    }

    /// Waits for a client, a `wake`, the server's own deadlines or `limit` (nil: no limit of
    /// the caller's), whichever comes first, and does what came: accepts, reads, writes,
    /// reports lines, closes.
    public func serve(atMost limit: Duration?) {
        guard !finished else { return }
        _ = loop.round(waitingAtMost: limit.map(Self.milliseconds) ?? -1)
    }

    /// Does at once, without waiting, what was asked since the last round (the lines sent, the
    /// closes, the lines processed) and what the sockets have.
    public func flush() {
        guard !finished else { return }
        _ = loop.round(waitingAtMost: 0)
    }

    /// Ends a `serve` that is waiting, from any thread.
    public func wake() {
        mailbox.wake()
    }

    /// `ControlSocket.stop` for a hosted server: the socket file removed, one last write of
    /// each queue without waiting, every descriptor closed; nothing reported from then on.
    public func finish() {
        guard !finished else { return }
        finished = true
        mailbox.requestStop()
        loop.listener.removeFile()
        loop.finish()
        mailbox.closePipe()
        mailbox.finished.signal()
    }

    /// `poll`'s milliseconds for `limit`, rounded up (`Monotonic.pollMilliseconds`).
    static func milliseconds(_ limit: Duration) -> Int32 {
        Monotonic.pollMilliseconds(Monotonic.nanoseconds(limit))
    }
}
