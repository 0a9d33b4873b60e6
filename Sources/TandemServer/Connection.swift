import TandemPOSIX

/// One client's state, owned by the server's thread.
final class Connection {
    let id: ControlSocket.ClientID
    let fd: Int32
    var input: LineBuffer
    var output = OutputQueue()
    /// Lines handed to the service and not yet `processed`.
    var pending = 0
    /// The client will send nothing more (end of file or a read error).
    var inputEnded = false
    /// The client is gone for writing: a write failed, or the kernel says it hung up. Output
    /// is dropped from then on; what it sent before is still read.
    var hungUp = false
    /// Set when the connection is closing: why. No more input is read or handed on; the
    /// output is written out (until `closeDeadline`) and then the connection is closed.
    var closeReason: String?
    var closeDeadline: UInt64 = 0
    /// When the line now half sent (`lineNumber`) began to arrive, or when the client was last
    /// resumed after the service caught up: the line's stall is counted from here, however
    /// often bytes of it trickle in (Docs/server.md).
    var lineSince: UInt64
    /// The number of the line `lineSince` is about (0: none yet).
    var lineNumber = 0

    init(id: ControlSocket.ClientID, fd: Int32, maxLine: Int, now: UInt64) {
        self.id = id
        self.fd = fd
        self.input = LineBuffer(maxLine: maxLine)
        self.lineSince = now
    }

    var isClosing: Bool { closeReason != nil }

    /// Notes when the half line held (if any) began: a new line number starts its clock now.
    func noteHalfLine(now: UInt64) {
        guard !input.isEmpty, lineNumber != input.nextNumber else { return }
        lineNumber = input.nextNumber
        lineSince = now
    }

    /// The service has as many of its lines as it may hold.
    func isPaused(maxPending: Int) -> Bool { pending >= maxPending }

    /// Whether the loop reads this client now.
    func wantsInput(maxPending: Int) -> Bool { !inputEnded && !isClosing && !isPaused(maxPending: maxPending) }

    var wantsOutput: Bool { !output.isEmpty && !hungUp }
}
