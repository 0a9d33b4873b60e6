import Foundation
import Glibc

/// A real `tandem serve` on a socket in a temporary folder, for tests over the real socket.
public final class ServeProcess: @unchecked Sendable {
    public let folder: String
    public let socket: String
    public let transcript: String
    private let process = Process()

    /// Starts `tandem serve --socket … --transcript … --profile PROFILE` plus `extra`, and waits
    /// for its socket.
    public init(profile: String = "headless", extra: [String] = []) throws {
        folder = try temporaryDirectory(prefix: "tandem-serve")
        socket = folder + "/control.sock"
        transcript = folder + "/transcript.jsonl"
        process.executableURL = URL(fileURLWithPath: try TandemBinary.path())
        process.arguments = ["serve", "--socket", socket, "--transcript", transcript, "--profile", profile] + extra
        var env = ProcessInfo.processInfo.environment
        // No daemons: speech and braille are reported missing, the session goes on.
        env["SPEECHD_ADDRESS"] = "unix_socket:\(folder)/no-speechd.sock"
        env["BRLAPI_HOST"] = "127.0.0.1:4999"
        env["TANDEM_PROFILES"] = PackageRoot.path("Profiles")
        process.environment = env
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        guard waitUntil(timeout: .seconds(20), { FileManager.default.fileExists(atPath: self.socket) }) else {
            process.terminate()
            throw TestSupportError("tandem serve did not make its socket at \(socket)")
        }
    }

    public func client() throws -> RawSocketClient { try RawSocketClient(path: socket) }

    public var isRunning: Bool { process.isRunning }

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
