import Glibc
import TandemPOSIX

/// The socket file and its listening descriptor: made safely, and removed only by the server
/// that made it.
struct ListeningSocket: Sendable {
    let fd: Int32
    let path: String
    /// The socket file's identity, so `remove` never deletes another server's file; nil for
    /// a socket systemd passed, whose file is systemd's.
    private let device: UInt64?
    private let inode: UInt64?

    /// sun_path holds 108 bytes, the last a NUL.
    static let maxPathBytes = UnixSocketAddress.maxPathBytes

    /// Checks (or makes) the directory, replaces a stale socket file, binds, makes the file
    /// 0600 and listens. The descriptor is nonblocking and close-on-exec.
    static func open(_ options: ControlSocket.Options) throws -> ListeningSocket {
        if let inherited = options.inherited {
            return ListeningSocket(fd: inherited.descriptor, path: inherited.path, device: nil, inode: nil)
        }
        let path = options.path
        guard path.utf8.count <= maxPathBytes else {
            throw ControlSocketError.pathTooLong(path: path, limit: maxPathBytes)
        }
        try prepareDirectory(of: path, owned: options.ownsDirectory)

        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw ControlSocketError.system(call: "socket", path: path, errno: errno) }
        var bound = false
        do {
            try bindReplacingStale(fd, path)
            bound = true
            // Before listen, so no peer can connect while the file has the umask's mode.
            guard chmod(path, 0o600) == 0 else { throw ControlSocketError.system(call: "chmod", path: path, errno: errno) }
            guard listen(fd, options.backlog) == 0 else { throw ControlSocketError.system(call: "listen", path: path, errno: errno) }
            var st = stat()
            guard lstat(path, &st) == 0 else { throw ControlSocketError.system(call: "stat", path: path, errno: errno) }
            return ListeningSocket(fd: fd, path: path, device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
        } catch {
            Glibc.close(fd)
            if bound { unlink(path) }
            throw error
        }
    }

    /// Removes the socket file if it is still the one this server made.
    func removeFile() {
        var st = stat()
        guard let device, let inode, lstat(path, &st) == 0, UInt64(st.st_dev) == device, UInt64(st.st_ino) == inode else { return }
        unlink(path)
    }

    // MARK: steps

    private static func prepareDirectory(of path: String, owned: Bool) throws {
        let dir = directory(of: path)
        var st = stat()
        if owned {
            if lstat(dir, &st) != 0 {
                guard errno == ENOENT else { throw ControlSocketError.system(call: "stat", path: dir, errno: errno) }
                // EEXIST: made meanwhile by someone else; it is checked below like any other.
                if mkdir(dir, 0o700) != 0 && errno != EEXIST {
                    throw ControlSocketError.system(call: "mkdir", path: dir, errno: errno)
                }
                guard lstat(dir, &st) == 0 else { throw ControlSocketError.system(call: "stat", path: dir, errno: errno) }
            }
            guard st.st_mode & S_IFMT == S_IFDIR else {
                throw ControlSocketError.unsafeDirectory(path: dir, problem: "is not a directory")
            }
            guard st.st_uid == geteuid() else {
                throw ControlSocketError.unsafeDirectory(
                    path: dir, problem: "belongs to uid \(st.st_uid), not to the service's user (uid \(geteuid()))")
            }
            let mode = st.st_mode & 0o777
            guard mode & 0o077 == 0 else {
                throw ControlSocketError.unsafeDirectory(
                    path: dir, problem: "is open to group or others (mode \(octal(mode))); it must be 0700")
            }
        } else {
            guard stat(dir, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
                throw ControlSocketError.missingDirectory(dir)
            }
        }
    }

    /// Binds; when the path is taken by a socket nobody answers on (a server that died), the
    /// file is removed and bound again. A live server, or anything that is not a socket, is
    /// left alone.
    private static func bindReplacingStale(_ fd: Int32, _ path: String) throws {
        for _ in 0..<3 {
            if bind(fd, path) == 0 { return }
            guard errno == EADDRINUSE else { throw ControlSocketError.system(call: "bind", path: path, errno: errno) }
            var st = stat()
            if lstat(path, &st) != 0 {
                if errno == ENOENT { continue }   // gone meanwhile
                throw ControlSocketError.system(call: "stat", path: path, errno: errno)
            }
            guard st.st_mode & S_IFMT == S_IFSOCK else { throw ControlSocketError.notASocket(path) }
            switch probe(path) {
            case 0: throw ControlSocketError.alreadyRunning(path)
            case ECONNREFUSED: unlink(path)
            case ENOENT: continue
            case let code: throw ControlSocketError.system(call: "connect", path: path, errno: code)
            }
        }
        throw ControlSocketError.alreadyRunning(path)
    }

    /// Connects to `path` without waiting: 0 when a server is there (EAGAIN: it is there, with
    /// a full backlog), otherwise connect's errno.
    private static func probe(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { Glibc.close(fd) }
        if UnixSocketAddress.connect(fd, path) == 0 { return 0 }
        let code = errno
        return code == EAGAIN || code == EINPROGRESS ? 0 : code
    }

    private static func bind(_ fd: Int32, _ path: String) -> Int32 {
        UnixSocketAddress.bind(fd, path)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func octal(_ mode: mode_t) -> String {
        let s = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
