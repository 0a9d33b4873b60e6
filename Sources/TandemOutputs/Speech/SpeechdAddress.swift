import CSpeechd
import Foundation

/// Where speech-dispatcher listens, written as in `SPEECHD_ADDRESS`:
/// `unix_socket:/path/speechd.sock`, `unix_socket` (the default socket),
/// `inet_socket:host:port`, `inet_socket` (127.0.0.1:6560).
public enum SpeechdAddress: Sendable, Hashable, CustomStringConvertible {
    case unixSocket(path: String)
    case inetSocket(host: String, port: Int)

    /// Parses an address; nil for a method speech-dispatcher's clients do not know.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        switch parts[0] {
        case "unix_socket", "":
            if parts.count > 1 {
                // A path may itself contain colons.
                let path = String(text.dropFirst(parts[0].count + 1))
                guard !path.isEmpty else { return nil }
                self = .unixSocket(path: path)
            } else {
                self = .unixSocket(path: Self.defaultSocketPath())
            }
        case "inet_socket":
            let host = parts.count > 1 && !parts[1].isEmpty ? parts[1] : "127.0.0.1"
            guard parts.count < 3 || Int(parts[2]) != nil else { return nil }
            let port = parts.count > 2 ? Int(parts[2])! : 6560
            guard (1...65535).contains(port) else { return nil }
            self = .inetSocket(host: host, port: port)
        default:
            return nil
        }
    }

    /// The address to use: `explicit` (a profile's or `--speech`), else `SPEECHD_ADDRESS`,
    /// else speech-dispatcher's default socket. Nil when the chosen text does not parse.
    public static func resolve(_ explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> SpeechdAddress? {
        if let explicit { return SpeechdAddress(explicit) }
        if let env = environment["SPEECHD_ADDRESS"], !env.isEmpty { return SpeechdAddress(env) }
        return .unixSocket(path: defaultSocketPath())
    }

    /// libspeechd's own default (`$XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock`, with
    /// glib's fallback when that variable is unset), so Tandem finds the user's daemon
    /// exactly where every other client does.
    static func defaultSocketPath() -> String {
        let saved = getenv("SPEECHD_ADDRESS").map { String(cString: $0) }
        // spd_get_default_address reads SPEECHD_ADDRESS; ask it for the plain default.
        if saved != nil { return fallbackSocketPath() }
        var error: UnsafeMutablePointer<CChar>?
        guard let address = spd_get_default_address(&error) else {
            free(error)
            return fallbackSocketPath()
        }
        defer { SPDConnectionAddress__free(address) }
        guard let name = address.pointee.unix_socket_name else { return fallbackSocketPath() }
        return String(cString: name)
    }

    static func fallbackSocketPath() -> String {
        let env = ProcessInfo.processInfo.environment
        func nonEmpty(_ k: String) -> String? { env[k].flatMap { $0.isEmpty ? nil : $0 } }
        // glib's g_get_user_runtime_dir: XDG_RUNTIME_DIR, else the user's cache directory
        let runtime = nonEmpty("XDG_RUNTIME_DIR") ?? nonEmpty("XDG_CACHE_HOME") ?? ((nonEmpty("HOME") ?? "/tmp") + "/.cache")
        return runtime + "/speech-dispatcher/speechd.sock"
    }

    public var description: String {
        switch self {
        case .unixSocket(let path): return "unix_socket:\(path)"
        case .inetSocket(let host, let port): return "inet_socket:\(host):\(port)"
        }
    }
}
