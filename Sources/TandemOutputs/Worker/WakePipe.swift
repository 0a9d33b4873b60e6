import Glibc

/// A pipe that wakes a worker thread blocked in `poll`: both ends nonblocking and
/// close-on-exec (so no daemon a test starts inherits them).
enum WakePipe {
    /// (read end, write end), or (-1, -1) when no pipe could be made.
    static func open() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return (-1, -1) }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return (fds[0], fds[1])
    }
}
