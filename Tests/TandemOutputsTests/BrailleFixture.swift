import Foundation
import Glibc
import TandemModel
import TandemOutputs
import TandemService
import TandemSession
import TandemTestSupport

/// A private BRLTTY with a virtual display (`scripts/services/brltty.sh` + `vrdisplay.py`), and
/// the live sessions a test shows on it: the one fixture of the braille tests.
///
/// BRLTTY gets its own directory and BrlAPI port; the display's cells are read from its state
/// file and its keys are pressed through its FIFO. `stop()` finishes the sessions, then ends
/// every process the script started; the display also stops BRLTTY and itself if this test
/// process dies first.
///
/// ```swift
/// let braille = try BrailleFixture(cells: 40)
/// defer { braille.stop() }
/// let live = try braille.showSession()          // the panel catalog, its first frame shown
/// braille.press("LNDN")
/// #expect(live.wait { $0.lastFrame?.text.hasPrefix("Delivery") == true })
/// ```
final class BrailleFixture: Sendable {
    static let script = PackageRoot.path("scripts/services/brltty.sh")

    let directory: String
    let cells: Int
    let keyAuthentication: Bool
    let portOffset: Int
    private let sessions = LiveSessions()

    /// The BrlAPI host to give `BrlAPIOutput`.
    var host: String { "127.0.0.1:\(portOffset)" }
    /// The key file clients need when `keyAuthentication` is on.
    var keyFile: String { directory + "/brlapi.key" }
    var auth: String { keyAuthentication ? keyFile : "none" }

    /// Starts BRLTTY and the display; throws when they do not come up.
    init(cells: Int = 40, keyAuthentication: Bool = false) throws {
        self.cells = cells
        self.keyAuthentication = keyAuthentication
        directory = try temporaryDirectory(prefix: "tandem-braille-")
        var lastError = ""
        for _ in 0..<5 {
            let offset = Self.freePortOffset()
            let started = Self.run("start", directory: directory, portOffset: offset, cells: cells, keyAuthentication: keyAuthentication)
            if started.status == 0 {
                portOffset = offset
                return
            }
            lastError = started.output
            _ = Self.run("stop", directory: directory, portOffset: offset, cells: cells, keyAuthentication: keyAuthentication)
        }
        try? FileManager.default.removeItem(atPath: directory)
        throw TestSupportError("brltty.sh start failed: \(lastError)")
    }

    deinit { stop() }

    /// Finishes the sessions made here, stops BRLTTY and the display (safe to call more than
    /// once) and removes the directory, unless `TANDEM_KEEP_BRAILLE_DIRS` is set (to read the
    /// logs after a failure).
    func stop() {
        guard sessions.close() else { return }
        run("stop")
        if ProcessInfo.processInfo.environment["TANDEM_KEEP_BRAILLE_DIRS"] == nil {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    // MARK: sessions

    /// A live session on `catalog` whose braille goes to this BRLTTY (with `auth`, the
    /// fixture's own when not given), not yet waited for.
    func connect(catalog: Catalog, profile: Profile = Profile(), auth: String? = nil, clock: any RunnerClock = WallClock()) -> LiveSession {
        let output = BrlAPIOutput(host: host, auth: auth ?? self.auth, keyMap: .default)
        let live = LiveSession(catalog: catalog, profile: profile, outputs: [output], clock: clock)
        return sessions.keep(live)
    }

    /// A live session on `catalog` (the panel when not given) once it is connected, knows the
    /// display's width and its first frame is on the display; throws when that does not happen.
    func showSession(catalog: Catalog? = nil, profile: Profile = Profile(), clock: any RunnerClock = WallClock(),
                     timeout: Duration = .seconds(5)) throws -> LiveSession {
        let live = connect(catalog: try catalog ?? BrailleCatalogs.panel(), profile: profile, clock: clock)
        let connected = live.wait(timeout: timeout) { s in
            s.events.all.contains { if case .displaySize = $0 { true } else { false } }
                && (s.lastFrame.map { $0.cells.count <= cells } ?? false)
        }
        guard connected, waitForDisplay(timeout: timeout, { d in live.lastFrame.map(d.shows) ?? false }).ok else {
            throw TestSupportError("the session's first frame did not reach the display: session \(live.lastFrame?.text ?? "no frame"), "
                + "statuses \(live.events.statuses), display \(display()?.description ?? "no state")")
        }
        return live
    }

    // MARK: BRLTTY and the display

    /// Kills BRLTTY with SIGKILL, as a crash would; the display stays.
    func killBRLTTY() {
        guard let pid = pid(in: "brltty.pid") else { return }
        kill(pid, SIGKILL)
    }

    /// Starts whatever is not running (BRLTTY after `killBRLTTY`), with `environment` added
    /// (`BRLTTY_CELLS` for a new display).
    @discardableResult
    func startAgain(environment: [String: String] = [:]) -> Bool {
        run("start", environment: environment).status == 0
    }

    /// Ends the display process alone, as if the display were unplugged.
    func unplugDisplay() {
        guard let pid = pid(in: "vrdisplay.pid") else { return }
        kill(pid, SIGTERM)
        // Not kill(pid, 0): a zombie answers it until init reaps it.
        for _ in 0..<100 where (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?.isEmpty == false {
            usleep(20_000)
        }
    }

    /// What the display shows now.
    func display() -> DisplayState? {
        guard let text = try? String(contentsOfFile: directory + "/display.state", encoding: .utf8) else { return nil }
        return DisplayState(stateFile: text)
    }

    /// Looks at the display until `condition` holds; the last state seen otherwise.
    @discardableResult
    func waitForDisplay(timeout: Duration = .seconds(3), _ condition: (DisplayState) -> Bool) -> (ok: Bool, state: DisplayState?) {
        let seen = waitFor(timeout: timeout, display, until: condition)
        return (seen.ok, seen.last)
    }

    /// Presses a display key: a BRLTTY command as BRLTTY's vr driver takes it (`LNDN`,
    /// `ROUTE 3` for the 0-based cell 3 — cell 0 cannot be routed through vr).
    func press(_ command: String) {
        guard let handle = FileHandle(forWritingAtPath: directory + "/keys.fifo") else { return }
        handle.write(Data((command + "\n").utf8))
        try? handle.close()
    }

    /// The display log's lines (`<ns> KEY LNDN`, `<ns> BRAILLE …`).
    func log() -> [String] {
        ((try? String(contentsOfFile: directory + "/display.log", encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    private func pid(in file: String) -> pid_t? {
        guard let text = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8) else { return nil }
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    // MARK: the script

    @discardableResult
    private func run(_ command: String, environment extra: [String: String] = [:]) -> ProcessResult {
        Self.run(command, directory: directory, portOffset: portOffset, cells: cells, keyAuthentication: keyAuthentication,
                 environment: extra)
    }

    private static func run(_ command: String, directory: String, portOffset: Int, cells: Int, keyAuthentication: Bool,
                            environment extra: [String: String] = [:]) -> ProcessResult {
        var env = ProcessInfo.processInfo.environment
        env["BRLAPI_PORT_OFFSET"] = String(portOffset)
        env["BRLTTY_CELLS"] = String(cells)
        env["BRLTTY_AUTH"] = keyAuthentication ? "key" : "none"
        env["BRLTTY_WATCH_PID"] = String(getpid())
        env.removeValue(forKey: "WINDOWPATH")
        env.merge(extra) { _, new in new }
        do {
            return try ProcessRunner.run(["/bin/bash", script, command, directory], environment: env)
        } catch {
            return ProcessResult(status: 127, stdout: "", stderr: "\(error)")
        }
    }

    /// A BrlAPI port offset (TCP 4101+offset) nobody listens on now; the script refuses a taken
    /// port, and the caller retries.
    static func freePortOffset() -> Int {
        while true {
            let offset = Int.random(in: 2_000..<20_000)
            if !isListening(port: UInt16(4101 + offset)) { return offset }
        }
    }

    static func isListening(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result == 0
    }
}
