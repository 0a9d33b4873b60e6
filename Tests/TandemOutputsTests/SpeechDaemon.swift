import Foundation
import Glibc

/// A private speech-dispatcher for one test, run by the project's own
/// `scripts/services/speechd.sh` in a directory of its own under /tmp. Its "capture" output
/// module appends what it was asked to say to `spoken.log`, read back with `capture()`.
///
/// `stop()` kills everything the script started and removes the directory; a test calls it
/// in a `defer`. Should the test process die first, the script's watcher
/// (`SPEECHD_WATCH_PID`) stops the daemon anyway.
final class SpeechDaemon: @unchecked Sendable {
    /// The package root: the nearest ancestor of this file that holds `Package.swift`.
    static let packageRoot: String = {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { return dir.path }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }()
    static let script = packageRoot + "/scripts/services/speechd.sh"

    let dir: String
    let speakSeconds: Double
    let msPerCharacter: Int
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

    /// Stops the daemon and everything it started, and removes its directory (kept when
    /// `TANDEM_KEEP_SPEECHD` is set, to read its logs; `SPEECHD_LOGLEVEL=5` logs all SSIP).
    func stop() {
        _ = try? run("stop")
        if ProcessInfo.processInfo.environment["TANDEM_KEEP_SPEECHD"] == nil {
            try? FileManager.default.removeItem(atPath: dir)
        }
    }

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

    /// Runs the script and waits for it. posix_spawn and waitpid, not Foundation's Process:
    /// its `waitUntilExit` can miss the exit of a child whose own children live on (the
    /// daemon does), and wait forever. Output goes to a file, so no pipe stays open either.
    @discardableResult
    private func run(_ command: String) throws -> String {
        var env = ProcessInfo.processInfo.environment
        env["SPEECHD_SPEAK_SECONDS"] = String(speakSeconds)
        env["SPEECHD_MS_PER_CHAR"] = String(msPerCharacter)
        env["SPEECHD_READY_TIMEOUT"] = "15"
        env["SPEECHD_WATCH_PID"] = String(getpid())
        let log = "/tmp/tandem-speechd-run-\(UUID().uuidString.prefix(8)).log"
        defer { unlink(log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argStrings: [String] = ["/bin/bash", Self.script, command, dir]
        let envStrings: [String] = env.map { "\($0.key)=\($0.value)" }
        let args: [UnsafeMutablePointer<CChar>?] = argStrings.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = envStrings.map { strdup($0) } + [nil]
        defer { (args + envp).forEach { free($0) } }
        // A test runs on a thread that blocks signals, and a child inherits that mask: unblock
        // them all and restore the default actions, or the daemon would never see a SIGTERM.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/bash", &actions, &attributes, args, envp) == 0 else {
            throw SpeechTestError("cannot run \(Self.script)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        // exited normally with status 0 (WIFEXITED && WEXITSTATUS == 0)
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { throw SpeechTestError("speechd.sh \(command) failed: \(text)") }
        return text
    }

    /// The capture file, line by line.
    func capture() -> [CaptureLine] {
        guard let data = FileManager.default.contents(atPath: capturePath) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap(CaptureLine.init)
    }

    /// Polls the capture file until `done` holds or `timeout` seconds pass; the last capture.
    @discardableResult
    func waitForCapture(timeout: Double = 5, until done: ([CaptureLine]) -> Bool) -> [CaptureLine] {
        let end = Date().addingTimeInterval(timeout)
        while true {
            let lines = capture()
            if done(lines) || Date() > end { return lines }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }
}

/// One line of the capture file: `SAY|BEGIN|END  lang  voice  rate  pitch  volume  text`.
struct CaptureLine: Sendable, Hashable, CustomStringConvertible {
    enum Kind: String, Sendable { case say = "SAY", begin = "BEGIN", end = "END" }
    var kind: Kind
    var language: String
    var voice: String
    var rate: String
    var pitch: String
    var volume: String
    var text: String

    init?(_ line: Substring) {
        let f = line.split(separator: "\t", maxSplits: 6, omittingEmptySubsequences: false).map(String.init)
        guard f.count == 7, let kind = Kind(rawValue: f[0]) else { return nil }
        self.kind = kind
        language = f[1]; voice = f[2]; rate = f[3]; pitch = f[4]; volume = f[5]; text = f[6]
    }

    /// A line where speech started (`SAY` or `BEGIN`).
    var starts: Bool { kind != .end }
    var description: String { "\(kind.rawValue) \(text)" }
}

extension [CaptureLine] {
    /// Texts that started, in order.
    var started: [String] { filter(\.starts).map(\.text) }
    /// Texts said to the end, in order (`SAY`, or `END`).
    var finished: [String] { filter { $0.kind != .begin }.map(\.text) }
}

struct SpeechTestError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// Polls `done` until it holds or `timeout` seconds pass; whether it held.
@discardableResult
func waitUntil(timeout: Double, _ done: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while !done() {
        if Date() > end { return false }
        Thread.sleep(forTimeInterval: 0.005)
    }
    return true
}

/// Whether `sub` appears in `seq` in order (not necessarily next to each other).
func isSubsequence<T: Equatable>(_ sub: [T], of seq: [T]) -> Bool {
    var i = sub.startIndex
    for x in seq where i < sub.endIndex && sub[i] == x { i += 1 }
    return i == sub.endIndex
}
