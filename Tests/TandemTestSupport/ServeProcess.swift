import CLinux
import Foundation
import Glibc
import Synchronization

/// A real `tandem serve` on a socket in a temporary folder, for tests over the real socket.
public final class ServeProcess: @unchecked Sendable {  // Foundation's Process is not Sendable; it is started in init and only queried or signalled after
    public let folder: String
    public let socket: String
    public let transcript: String
    private let process = Process()
    private let log = StandardErrorLog()

    /// Starts `tandem serve --socket … --transcript … --profile PROFILE` plus `extra` (through
    /// `launcher`, a program and its arguments that run it, when one is given), and waits
    /// until it serves: its log line `serving on PATH`, which it writes once the socket listens.
    /// (The socket file alone is not enough: it exists from `bind`, before `listen`, and a
    /// connect in between is refused. A probe connection instead would take the client id
    /// `c1` that tests expect their first client to get.)
    public init(profile: String = "headless", extra: [String] = [], launcher: [String] = []) throws {
        folder = try temporaryDirectory(prefix: "tandem-serve")
        socket = folder + "/control.sock"
        transcript = folder + "/transcript.jsonl"
        let arguments = ["serve", "--socket", socket, "--transcript", transcript, "--profile", profile] + extra
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(launcher.dropFirst()) + [try TandemBinary.path()] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: try TandemBinary.path())
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        // No daemons: speech and braille are reported missing, the session goes on.
        env["SPEECHD_ADDRESS"] = "unix_socket:\(folder)/no-speechd.sock"
        env["BRLAPI_HOST"] = "127.0.0.1:4999"
        env["TANDEM_PROFILES"] = PackageRoot.path("Profiles")
        // Plain log lines (`tandem serve: …`), not the journal's.
        env["JOURNAL_STREAM"] = nil
        process.environment = env
        var fds: [Int32] = [-1, -1]
        // Close-on-exec from the start, so no other child inherits the pipe: one that did would
        // hold back the end of file the reader waits for.
        guard pipe2(&fds, O_CLOEXEC) == 0 else { throw TestSupportError("pipe for tandem serve's log: errno \(errno)") }
        process.standardError = FileHandle(fileDescriptor: fds[1], closeOnDealloc: false)
        do {
            try process.run()
        } catch {
            close(fds[0]); close(fds[1])
            throw error
        }
        close(fds[1])
        log.read(from: fds[0])
        let ready = waitUntil(timeout: .seconds(20)) { self.log.text.contains("serving on \(self.socket)") || !self.process.isRunning }
        guard ready, process.isRunning else {
            if process.isRunning { process.terminate() }
            throw TestSupportError("tandem serve did not start serving on \(socket): \(log.text)")
        }
    }

    public func client() throws -> RawSocketClient { try RawSocketClient(path: socket) }

    public var isRunning: Bool { process.isRunning }

    /// Its process id (the launcher's, which `exec`s it, when one was given).
    public var pid: Int32 { process.processIdentifier }

    /// What `tandem serve` wrote to its standard error so far.
    public var standardError: String { log.text }

    /// SIGTERM, then the exit status (nil when it did not stop within the timeout).
    @discardableResult
    public func stop(timeout: Duration = .seconds(10)) -> Int32? {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        guard waitUntil(timeout: timeout, { !self.process.isRunning }) else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        return process.terminationStatus
    }

    /// The transcript's lines so far.
    public var transcriptLines: [String] {
        (try? String(contentsOfFile: transcript, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// A child's standard error, read to its end on a thread of its own (so the child never
/// blocks on a full pipe) and kept.
private final class StandardErrorLog: Sendable {
    private let bytes = Mutex<[UInt8]>([])

    var text: String { bytes.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Reads `fd` until end of file, then closes it.
    func read(from fd: Int32) {
        Thread.detachNewThread { [self] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = Glibc.read(fd, &chunk, chunk.count)
                if n > 0 {
                    bytes.withLock { $0 += chunk[0..<n] }
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(fd)
        }
    }
}
