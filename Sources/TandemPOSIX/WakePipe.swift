import CLinux
import Glibc

/// A pipe that wakes a thread blocked in `poll`: both ends nonblocking and close-on-exec from
/// the start (`pipe2`), so no process another thread starts meanwhile inherits them (`pipe`
/// then `fcntl` leaves a window where one can).
public struct WakePipe: Sendable {
    /// The end the sleeping thread polls for POLLIN; -1 when no pipe could be made.
    public let readFD: Int32
    /// The end that wakes it; -1 when no pipe could be made.
    public let writeFD: Int32

    /// Makes the pipe; both ends are -1 when it could not be made (`isOpen` is false).
    public init() {
        var fds: [Int32] = [-1, -1]
        if pipe2(&fds, O_NONBLOCK | O_CLOEXEC) != 0 { fds = [-1, -1] }
        readFD = fds[0]
        writeFD = fds[1]
    }

    public var isOpen: Bool { readFD >= 0 }

    /// Makes the read end readable (one byte; a full pipe is readable already).
    public func signal() {
        guard writeFD >= 0 else { return }
        var one: UInt8 = 1
        _ = write(writeFD, &one, 1)
    }

    /// Reads everything written so far, so the next `signal` wakes the poller again.
    public func drain() {
        guard readFD >= 0 else { return }
        var sink = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &sink, { read(readFD, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Closes both ends. Call once: the owner knows when (a descriptor closed twice may be
    /// another thread's by then).
    public func close() {
        if readFD >= 0 { Glibc.close(readFD) }
        if writeFD >= 0 { Glibc.close(writeFD) }
    }
}
