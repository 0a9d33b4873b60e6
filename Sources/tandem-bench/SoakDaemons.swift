import Foundation
import TandemOutputs
import TandemPresentation
import TandemProcess
import TandemVocabulary

/// The private speech-dispatcher and BRLTTY of a soak, driven through
/// `scripts/services/speechd.sh` and `brltty.sh` (Docs/speech.md, Docs/braille.md).
struct SoakDaemons {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// The folder holding `scripts/services/`.
    let root: String
    /// The soak's scratch folder; each daemon has a folder inside.
    let directory: String
    /// BrlAPI's port offset (TCP 4101 + offset).
    let portOffset: Int
    /// The capture module's speaking time, ms a character (0: instant).
    var msPerChar = 0

    var speechdDirectory: String { directory + "/speechd" }
    var brlttyDirectory: String { directory + "/brltty" }
    var speechAddress: String { "unix_socket:\(speechdDirectory)/speechd.sock" }
    var brailleHost: String { "127.0.0.1:\(portOffset)" }
    var capture: String { speechdDirectory + "/spoken.log" }
    var displayState: String { brlttyDirectory + "/display.state" }

    /// Runs a service script (its output into `DIR/scripts.log`); throws when it fails.
    func script(_ name: String, _ command: String, _ folder: String) throws {
        var environment = ProcessInfo.processInfo.environment
        // Should the soak die, the daemons go too.
        environment["SPEECHD_WATCH_PID"] = String(getpid())
        environment["BRLTTY_WATCH_PID"] = String(getpid())
        environment["BRLAPI_PORT_OFFSET"] = String(portOffset)
        environment["SPEECHD_MS_PER_CHAR"] = String(msPerChar)
        let log = directory + "/scripts.log"
        let arguments = ["/bin/bash", "\(root)/scripts/services/\(name)", command, folder]
        let result = try ProcessRunner.run(arguments, environment: environment, output: .appended(toFile: log))
        guard result.status == 0 else {
            throw ProcessFailure("\(arguments.joined(separator: " ")) failed (\(result.status)); output in \(log)")
        }
    }

    func start() throws {
        try script("speechd.sh", "start", speechdDirectory)
        try script("brltty.sh", "start", brlttyDirectory)
    }

    func stop() {
        try? script("speechd.sh", "stop", speechdDirectory)
        try? script("brltty.sh", "stop", brlttyDirectory)
    }

    /// SIGKILLs speech-dispatcher and its output module, then starts it again on the same
    /// socket and capture file. Returns when it answers SSIP again.
    func crashSpeechd() throws {
        try script("speechd.sh", "kill", speechdDirectory)
        try script("speechd.sh", "restart", speechdDirectory)
    }

    /// SIGKILLs BRLTTY (the virtual display stays), then starts it again. Returns when BrlAPI
    /// answers and the display shows BRLTTY's first cells.
    func crashBrltty() throws {
        guard let text = try? String(contentsOfFile: brlttyDirectory + "/brltty.pid", encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)),
              let command = ProcessMemory.read("/proc/\(pid)/cmdline"), command.contains("brltty") else {
            throw Failure(description: "BRLTTY is not running (no live pid in \(brlttyDirectory)/brltty.pid)")
        }
        kill(pid, SIGKILL)
        try script("brltty.sh", "start", brlttyDirectory)
    }

    /// The virtual display's cells now (BRLTTY ORs the cursor in as dots 7-8).
    func displayCells() -> [Cell]? {
        guard let text = try? String(contentsOfFile: displayState, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("braille ") {
            return line.dropFirst(8).unicodeScalars.map { Cell(truncatingIfNeeded: $0.value &- 0x2800) }
        }
        return nil
    }

    /// What a display of `columns` cells shows for `frame`: its window padded with blanks,
    /// dots 7-8 on the cursor cell.
    static func cells(showing frame: BrailleFrame, columns: Int) -> [Cell] {
        var out = Array(frame.cells.prefix(columns))
        out += Array(repeating: 0, count: max(0, columns - out.count))
        if let c = frame.cursor, c >= 0, c < columns { out[c] |= 0xC0 }
        return out
    }

    /// Finds the folder holding `scripts/services/` above this executable, else the working directory's.
    static func packageRoot() -> String? {
        var url = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.path + "/scripts/services/speechd.sh") { return url.path }
            url.deleteLastPathComponent()
        }
        let here = FileManager.default.currentDirectoryPath
        return FileManager.default.fileExists(atPath: here + "/scripts/services/speechd.sh") ? here : nil
    }
}
