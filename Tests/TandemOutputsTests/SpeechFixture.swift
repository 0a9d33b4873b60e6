import Foundation
import Glibc
import TandemOutputs
import TandemService
import TandemSession
import TandemTestSupport

/// A private speech-dispatcher, and the live sessions a test speaks through it: the one
/// fixture of the speech daemon tests.
///
/// The daemon is run by the project's own `scripts/services/speechd.sh` in a directory of its
/// own under /tmp. Its "capture" output module appends what it was asked to say to
/// `spoken.log`, read back with `capture()`. `stop()` finishes the sessions, kills everything
/// the script started and removes the directory; should the test process die first, the
/// script's watcher (`SPEECHD_WATCH_PID`) stops the daemon anyway.
///
/// ```swift
/// let speech = try SpeechFixture(speakSeconds: 0.3)
/// defer { speech.stop() }
/// let live = try speech.liveSession(example: "grocery")
/// live.send(.post(.announcement(text: "Hello", priority: .default, delay: 0)))
/// speech.waitForCapture { $0.finished.contains("Hello") }
/// ```
final class SpeechFixture: Sendable {
    static let script = PackageRoot.path("scripts/services/speechd.sh")

    let dir: String
    let speakSeconds: Double
    let msPerCharacter: Int
    private let sessions = LiveSessions()

    var address: String { "unix_socket:\(dir)/speechd.sock" }
    var capturePath: String { dir + "/spoken.log" }

    /// Starts a daemon. `speakSeconds` and `msPerCharacter`: the simulated speaking time
    /// (0 and 0: instant, `SAY` lines; otherwise `BEGIN`…`END`).
    init(speakSeconds: Double = 0, msPerCharacter: Int = 0) throws {
        dir = "/tmp/tandem-speechd-" + UUID().uuidString.prefix(8).lowercased()
        self.speakSeconds = speakSeconds
        self.msPerCharacter = msPerCharacter
        try run("start")
    }

    deinit { stop() }

    /// Finishes the sessions made here, stops the daemon and everything it started, and removes
    /// its directory (kept when `TANDEM_KEEP_SPEECHD` is set, to read its logs;
    /// `SPEECHD_LOGLEVEL=5` logs all SSIP). Safe to call more than once.
    func stop() {
        guard sessions.close() else { return }
        _ = try? run("stop")
        if ProcessInfo.processInfo.environment["TANDEM_KEEP_SPEECHD"] == nil {
            try? FileManager.default.removeItem(atPath: dir)
        }
    }

    // MARK: sessions

    /// A live session on a sample's catalog with the default profile, whose speech goes to
    /// this daemon (braille: blank cells, no liblouis).
    func liveSession(example name: String) throws -> LiveSession {
        let (catalog, _, profile) = try SpeechRuns.inputs(name)
        let output = SpeechDispatcherOutput(address: address, voice: .init())
        let live = LiveSession(catalog: catalog, profile: profile, outputs: [output], makeTranslator: { _ in BlankTranslator() })
        return sessions.keep(live)
    }

    // MARK: the daemon

    /// SIGKILL to the daemon and its output module at once: a crash.
    func kill() throws { try run("kill") }

    /// Starts it again after `kill`, appending to the same capture file.
    func restart() throws { try run("restart") }

    /// SIGSTOP / SIGCONT to the daemon alone (its output module goes on): a hung daemon.
    func pause() { signalDaemon(SIGSTOP) }
    func resume() { signalDaemon(SIGCONT) }

    private func signalDaemon(_ signal: Int32) {
        guard let text = try? String(contentsOfFile: dir + "/speechd.pid", encoding: .utf8),
              let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return }
        Glibc.kill(pid, signal)
    }

    /// Whether the daemon runs.
    var isRunning: Bool { (try? run("status")) != nil }

    /// The capture file, line by line.
    func capture() -> [CaptureLine] {
        guard let data = FileManager.default.contents(atPath: capturePath) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap(CaptureLine.init)
    }

    /// Reads the capture file until `done` holds or `timeout` passes; the last capture.
    @discardableResult
    func waitForCapture(timeout: Duration = .seconds(5), until done: ([CaptureLine]) -> Bool) -> [CaptureLine] {
        waitFor(timeout: timeout, capture, until: done).last ?? []
    }

    /// Runs the script; throws with its output when it fails.
    @discardableResult
    private func run(_ command: String) throws -> String {
        var env = ProcessInfo.processInfo.environment
        env["SPEECHD_SPEAK_SECONDS"] = String(speakSeconds)
        env["SPEECHD_MS_PER_CHAR"] = String(msPerCharacter)
        env["SPEECHD_READY_TIMEOUT"] = "15"
        env["SPEECHD_WATCH_PID"] = String(getpid())
        let result = try ProcessRunner.run(["/bin/bash", Self.script, command, dir], environment: env)
        guard result.status == 0 else { throw TestSupportError("speechd.sh \(command) failed: \(result.output)") }
        return result.output
    }
}
