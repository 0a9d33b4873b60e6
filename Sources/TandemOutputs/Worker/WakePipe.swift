import CLinux
import Glibc

/// A pipe that wakes a worker thread blocked in `poll`: both ends nonblocking and
/// close-on-exec from the start (`pipe2`), so no daemon a test starts in the meantime from
/// another thread inherits them.
enum WakePipe {
    /// (read end, write end), or (-1, -1) when no pipe could be made.
    static func open() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe2(&fds, O_NONBLOCK | O_CLOEXEC) == 0 else { return (-1, -1) }
        return (fds[0], fds[1])
    }
}
