import Glibc

/// Why the control socket could not start. Each message names the path and what is wrong.
public enum ControlSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `$XDG_RUNTIME_DIR` is unset, empty, relative, or not a directory, so there is no
    /// default path.
    case noRuntimeDirectory(String)
    /// The socket's directory does not exist (and is not the server's to create).
    case missingDirectory(String)
    /// The server's own directory is not a directory, not the user's, or open to group or
    /// others.
    case unsafeDirectory(path: String, problem: String)
    /// The path is too long for a Unix socket address (`limit` bytes).
    case pathTooLong(path: String, limit: Int)
    /// Something that is not a socket is at the path; it is left alone.
    case notASocket(String)
    /// Another server answers at the path.
    case alreadyRunning(String)
    /// A system call failed.
    case system(call: String, path: String, errno: Int32)
    /// `start` was called twice.
    case alreadyStarted
    /// What systemd's socket activation passed is not a socket the server can use.
    case activation(String)

    public var description: String {
        switch self {
        case .noRuntimeDirectory(let why): return why
        case .missingDirectory(let dir): return "\(dir): no such directory"
        case .unsafeDirectory(let path, let problem): return "\(path): \(problem)"
        case .pathTooLong(let path, let limit):
            return "\(path): a socket path may have at most \(limit) bytes, this one has \(path.utf8.count)"
        case .notASocket(let path): return "\(path): exists and is not a socket; remove it or choose another path"
        case .alreadyRunning(let path): return "another tandem serve is running at \(path)"
        case .system(let call, let path, let code): return "\(path): \(call): \(String(cString: strerror(code)))"
        case .alreadyStarted: return "the control socket was already started"
        case .activation(let why): return "socket activation: \(why)"
        }
    }
}
