import Foundation
import Testing
import TandemOutputs
import TandemPresentation

/// A private BRLTTY with a virtual display (`scripts/services/brltty.sh` + `vrdisplay.py`):
/// its own directory and BrlAPI port, a display whose cells are read from its state file,
/// and display keys pressed through its FIFO. `stop()` ends every process it started; the
/// display also stops BRLTTY and itself if this test process dies first.
final class BrailleHarness: @unchecked Sendable {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TandemOutputsTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent().path
    static let script = packageRoot + "/scripts/services/brltty.sh"

    let directory: String
    let cells: Int
    let keyAuthentication: Bool
    private(set) var portOffset = 0

    /// The BrlAPI host to give `BrlAPIOutput`.
    var host: String { "127.0.0.1:\(portOffset)" }
    /// The key file clients need when `keyAuthentication` is on.
    var keyFile: String { directory + "/brlapi.key" }
    var auth: String { keyAuthentication ? keyFile : "none" }

    /// Starts BRLTTY and the display; throws when they do not come up.
    init(cells: Int = 40, keyAuthentication: Bool = false) throws {
        self.cells = cells
        self.keyAuthentication = keyAuthentication
        var template = Array("/tmp/tandem-braille-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed") }
        directory = String(cString: made)
        var lastError = ""
        for _ in 0..<5 {
            portOffset = Self.freePortOffset()
            let (status, output) = run("start")
            if status == 0 { return }
            lastError = output
            _ = run("stop")
        }
        throw HarnessError("brltty.sh start failed: \(lastError)")
    }

    deinit { stop() }

    /// Stops BRLTTY and the display (safe to call more than once) and removes the directory,
    /// unless `TANDEM_KEEP_BRAILLE_DIRS` is set (to read the logs after a failure).
    func stop() {
        guard !stopped else { return }
        stopped = true
        _ = run("stop")
        if ProcessInfo.processInfo.environment["TANDEM_KEEP_BRAILLE_DIRS"] == nil {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
    private var stopped = false

    /// Kills BRLTTY with SIGKILL, as a crash would; the display stays.
    func killBRLTTY() {
        guard let text = try? String(contentsOfFile: directory + "/brltty.pid", encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return }
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
        guard let text = try? String(contentsOfFile: directory + "/vrdisplay.pid", encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return }
        kill(pid, SIGTERM)
        // Not kill(pid, 0): a zombie answers it until init reaps it.
        for _ in 0..<100 where (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?.isEmpty == false {
            usleep(20_000)
        }
    }

    // MARK: the display

    /// What the display shows now.
    func display() -> DisplayState? {
        guard let text = try? String(contentsOfFile: directory + "/display.state", encoding: .utf8) else { return nil }
        return DisplayState(stateFile: text)
    }

    /// Polls the display until `predicate` holds; the last state seen otherwise.
    @discardableResult
    func waitForDisplay(timeout: Duration = .seconds(3), _ predicate: (DisplayState) -> Bool) -> (ok: Bool, state: DisplayState?) {
        let end = ContinuousClock.now + timeout
        var last: DisplayState?
        repeat {
            if let s = display() {
                last = s
                if predicate(s) { return (true, s) }
            }
            usleep(5_000)
        } while ContinuousClock.now < end
        return (false, last)
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

    // MARK: running the script

    /// Runs the script with posix_spawn and waits for it with waitpid (Foundation's Process
    /// can miss the exit of a child whose own children live on, and hang).
    @discardableResult
    private func run(_ command: String, environment extra: [String: String] = [:]) -> (status: Int32, output: String) {
        var env = ProcessInfo.processInfo.environment
        env["BRLAPI_PORT_OFFSET"] = String(portOffset)
        env["BRLTTY_CELLS"] = String(cells)
        env["BRLTTY_AUTH"] = keyAuthentication ? "key" : "none"
        env["BRLTTY_WATCH_PID"] = String(getpid())
        env.removeValue(forKey: "WINDOWPATH")
        for (k, v) in extra { env[k] = v }
        let outputPath = directory + "/harness-\(command).out"
        let status = Self.spawnAndWait(["/bin/bash", Self.script, command, directory],
                                       environment: env.map { "\($0.key)=\($0.value)" }, output: outputPath)
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return (status, text)
    }

    static func spawnAndWait(_ arguments: [String], environment: [String], output: String) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        // The test runner's threads block signals, and a spawned process inherits the mask:
        // BRLTTY and the display would then ignore SIGTERM. Start them with none blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp) == 0 else { return 127 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS are macros: exited normally when the low 7 bits are 0.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
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
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result == 0
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// The virtual display's state file: its cells (the cursor ORed in as dots 7-8 by BRLTTY).
struct DisplayState: Sendable, Hashable, CustomStringConvertible {
    var cells: [Cell]
    var visual: String
    var connected: Bool
    /// How many cell updates the display has received.
    var updates: Int

    init?(stateFile text: String) {
        var cells: [Cell]?
        var visual = "", connected = false, updates = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let (key, value) = (line.prefix { $0 != " " }, line.drop { $0 != " " }.dropFirst())
            switch key {
            case "braille": cells = value.unicodeScalars.map { Cell(truncatingIfNeeded: $0.value - 0x2800) }
            case "visual": visual = String(value)
            case "connected": connected = value == "yes"
            case "updates": updates = Int(value) ?? 0
            default: break
            }
        }
        guard let cells else { return nil }
        self.cells = cells; self.visual = visual; self.connected = connected; self.updates = updates
    }

    /// What a display of `columns` cells shows for `frame`: its window padded with blanks, and
    /// dots 7-8 added on the cursor cell.
    static func cells(showing frame: BrailleFrame, columns: Int) -> [Cell] {
        var out = Array(frame.cells.prefix(columns))
        out += Array(repeating: 0, count: max(0, columns - out.count))
        if let c = frame.cursor, c >= 0, c < columns { out[c] |= 0xC0 }
        return out
    }

    func shows(_ frame: BrailleFrame) -> Bool { cells == Self.cells(showing: frame, columns: cells.count) }

    var description: String { unicodeBraille(cells) }
}
