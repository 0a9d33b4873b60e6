import Foundation
import Glibc
import TandemTestSupport
import Synchronization

/// The private accessibility desktop of these tests (`scripts/services/atspi.sh`): one for the
/// whole suite, started at first use, stopped by its watcher when the test process ends. Each
/// test starts apps of its own on it (a GTK app under a name of its own, a Chromium with a
/// profile of its own), so tests running side by side never share an app.
final class AtspiRig: Sendable {
    static let script = PackageRoot.path("scripts/services/atspi.sh")
    static let shared = Result { try AtspiRig() }

    let dir: String
    /// The desktop's environment (DISPLAY, the session bus, the AT-SPI bus): what an app or
    /// `tandem atspi` started on it gets.
    let environment: [String: String]

    private init() throws {
        dir = "/tmp/tandem-atspi-" + UUID().uuidString.prefix(8).lowercased()
        var env = ProcessInfo.processInfo.environment
        env["ATSPI_WATCH_PID"] = String(getpid())
        let start = try ProcessRunner.run(["/bin/bash", Self.script, "start", dir], environment: env, timeout: .seconds(60))
        guard start.status == 0 else { throw TestSupportError("atspi.sh start failed: \(start.output)") }
        let exports = try ProcessRunner.run(["/bin/bash", Self.script, "env", dir])
        guard exports.status == 0 else { throw TestSupportError("atspi.sh env failed: \(exports.output)") }
        var base = ProcessInfo.processInfo.environment
        for line in exports.stdout.split(separator: "\n") where line.hasPrefix("export ") {
            let pair = line.dropFirst("export ".count).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { base[String(pair[0])] = String(pair[1]) }
        }
        environment = base
    }

    static func get() throws -> AtspiRig { try shared.get() }

    /// A desktop of the caller's own, for a test that breaks it (kills its registry); `stop()` it.
    static func fresh() throws -> AtspiRig { try AtspiRig() }

    func stop() {
        _ = try? ProcessRunner.run(["/bin/bash", Self.script, "stop", dir])
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// The pid of one of its daemons (`xvfb`, `dbus`, `a11ybus`, `registryd`).
    func daemonPID(_ name: String) -> Int32? {
        (try? String(contentsOfFile: dir + "/pids/" + name, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// `tandem atspi ARGS` on this desktop, to its end.
    func tandemAtspi(_ args: [String], timeout: Duration = .seconds(30)) throws -> ProcessResult {
        try ProcessRunner.run([try TandemBinary.path(), "atspi"] + args, environment: environment, timeout: timeout)
    }

    /// `tandem ARGS` (lint, test) with this desktop's environment.
    func tandem(_ args: [String], input: Data? = nil) throws -> ProcessResult {
        try ProcessRunner.run([try TandemBinary.path()] + args, environment: environment, input: input)
    }
}

/// A process of a test's own on the desktop, its standard input a pipe the test writes to and
/// its standard output read line by line; killed when the test lets it go.
final class DesktopApp: @unchecked Sendable {  // Process and Pipe are not Sendable: set once in init; what the handlers write is in `read`
    let process = Process()
    private let stdin = Pipe()
    private let stdout = Pipe()
    private let stderr = Pipe()
    private struct Read {
        var lines: [String] = []
        var errorText = ""
    }
    private let read = Mutex(Read())

    init(_ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = environment
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        stdout.fileHandleForReading.readabilityHandler = { [weak self] h in
            let data = h.availableData
            guard let self, !data.isEmpty else { return }
            let text = String(decoding: data, as: UTF8.self)
            self.read.withLock { $0.lines += text.split(separator: "\n").map(String.init) }
        }
        stderr.fileHandleForReading.readabilityHandler = { [weak self] h in
            let data = h.availableData
            guard let self, !data.isEmpty else { return }
            self.read.withLock { $0.errorText += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }
    var output: [String] { read.withLock { $0.lines } }
    /// What it wrote on standard error so far.
    var standardError: String { read.withLock { $0.errorText } }

    /// Its exit status once it has ended within `timeout`, else nil.
    func exitStatus(within timeout: Duration = .seconds(10)) -> Int32? {
        waitUntil(timeout: timeout) { !self.process.isRunning } ? process.terminationStatus : nil
    }

    /// Waits until the app has printed `line`.
    @discardableResult
    func wait(for line: String, timeout: Duration = .seconds(20)) -> Bool {
        waitUntil(timeout: timeout) { self.output.contains(line) }
    }

    /// One command on the app's standard input (the GTK app's: `status TEXT`, `dialog`, …),
    /// answered by its `ok COMMAND` line.
    @discardableResult
    func send(_ command: String, timeout: Duration = .seconds(10)) -> Bool {
        let before = output.count
        stdin.fileHandleForWriting.write(Data((command + "\n").utf8))
        let word = "ok " + (command.split(separator: " ").first.map(String.init) ?? command)
        return waitUntil(timeout: timeout) { self.output.dropFirst(before).contains(word) }
    }

    /// One line on the app's standard input, without waiting for an answer (`quit`).
    func write(_ line: String) {
        stdin.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    func stop() {
        if process.isRunning { process.terminate() }
        _ = waitUntil(timeout: .seconds(5)) { !self.process.isRunning }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    deinit { stop() }
}

extension AtspiRig {
    static let pantryScript = PackageRoot.path("Tests/Fixtures/atspi/pantry.py")
    static let storePage = PackageRoot.path("Tests/Fixtures/atspi/store.html")

    static let ledgerScript = PackageRoot.path("Tests/Fixtures/atspi/ledger.py")

    /// The GTK test app (`script`: the pantry, or the ledger) under `name` (its AT-SPI name),
    /// once it is on the bus.
    func pantry(name: String, script: String = AtspiRig.pantryScript) throws -> DesktopApp {
        let app = try DesktopApp(["/usr/bin/python3", script, "--app-name", name], environment: environment)
        guard app.wait(for: "ready") else { throw TestSupportError("the GTK test app did not start: \(app.output)") }
        return app
    }

    static let formPage = PackageRoot.path("Tests/Fixtures/atspi/form.html")

    /// Firefox (ESR) on a test page with a profile of its own, once the page's document is on
    /// the bus.
    func firefox(profile: String, page: String, title: String) throws -> DesktopApp {
        let app = try DesktopApp(["/usr/bin/firefox-esr", "--no-remote", "--new-instance", "--profile", profile, "file://" + page], environment: environment)
        let ready = waitUntil(timeout: .seconds(60)) {
            ((try? self.tandemAtspi(["--snapshot", "--pid", String(app.pid)]))?.stdout ?? "").contains("\"title\": \"" + title + "\"")
        }
        guard ready else { throw TestSupportError("Firefox did not publish the test page on the accessibility bus") }
        return app
    }

    /// Chromium on a test page (the store, or `page` with its `title`), with a profile of its
    /// own, once the page's document is on the bus (its snapshot names the page).
    func chromium(profile: String, page: String = AtspiRig.storePage, title: String = "Corner Store") throws -> DesktopApp {
        let app = try DesktopApp(["/usr/bin/chromium", "--no-sandbox", "--force-renderer-accessibility", "--user-data-dir=" + profile,
                                  "--no-first-run", "--disable-gpu", "--window-position=0,0", "--window-size=1000,800",
                                  "--disable-features=Translate", "file://" + page], environment: environment)
        let ready = waitUntil(timeout: .seconds(40)) {
            ((try? self.tandemAtspi(["--snapshot", "--pid", String(app.pid)]))?.stdout ?? "").contains("\"title\": \"" + title + "\"")
        }
        guard ready else { throw TestSupportError("Chromium did not publish the test page on the accessibility bus") }
        return app
    }
}
