import Glibc

/// A Unix stream socket's address (`sockaddr_un`) for `bind` and `connect`: the one place
/// that fills one.
public enum UnixSocketAddress {
    /// The longest path an address holds: `sun_path` is 108 bytes, the last a NUL.
    public static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Calls `body` with `path` as a `sockaddr` and its length; nil, without calling it, when
    /// the path is longer than `maxPathBytes` (cut, it would name another socket).
    public static func with<R, E: Error>(_ path: String,
                                         _ body: (UnsafePointer<sockaddr>, socklen_t) throws(E) -> R) throws(E) -> R? {
        let bytes = Array(path.utf8)
        guard bytes.count <= maxPathBytes else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // sockaddr_un() is all zeros, so the path stays NUL-terminated.
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return try withUnsafePointer(to: &address) { (p) throws(E) -> R in
            try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { (s) throws(E) -> R in
                try body(s, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// `bind(2)` to `path`: its result, or -1 with errno ENAMETOOLONG when the path is too long.
    public static func bind(_ fd: Int32, _ path: String) -> Int32 {
        with(path) { Glibc.bind(fd, $0, $1) } ?? tooLong()
    }

    /// `connect(2)` to `path`: its result, or -1 with errno ENAMETOOLONG when the path is too long.
    public static func connect(_ fd: Int32, _ path: String) -> Int32 {
        with(path) { Glibc.connect(fd, $0, $1) } ?? tooLong()
    }

    private static func tooLong() -> Int32 {
        errno = ENAMETOOLONG
        return -1
    }
}
