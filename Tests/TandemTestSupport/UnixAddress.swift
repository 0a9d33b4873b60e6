import Glibc

/// A Unix socket's address for `bind` and `connect`: the test doubles' one way to fill a
/// `sockaddr_un` (a path longer than `sun_path` is cut, and then names no socket).
public enum UnixAddress {
    /// Calls `body` with `path` as a `sockaddr` and its length; returns what `body` returns.
    public static func with(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    public static func bind(_ fd: Int32, _ path: String) -> Int32 { with(path) { Glibc.bind(fd, $0, $1) } }
    public static func connect(_ fd: Int32, _ path: String) -> Int32 { with(path) { Glibc.connect(fd, $0, $1) } }
}
