import Foundation
import Glibc

/// A private BRLTTY with its virtual display (`scripts/services/brltty.sh`) in a folder of its
/// own, on a free BrlAPI port, for tests that run a real `tandem serve` on it
/// (`ServeProcess(extra: ["--braille", rig.host], launcher: ["/usr/bin/env", "BRLAPI_AUTH=none"])`):
/// display keys are pressed through its FIFO, what it showed is read from its log.
public final class BrailleDisplayRig: Sendable {
    public let directory: String
    public let offset: Int

    public init() throws {
        directory = try temporaryDirectory(prefix: "tandem-brlrig-")
        var last = ""
        for _ in 0..<5 {
            let offset = Int.random(in: 20_000..<40_000)
            let r = try Self.script("start", directory, offset)
            if r.status == 0 { self.offset = offset; return }
            last = r.output
            _ = try? Self.script("stop", directory, offset)
        }
        throw TestSupportError("brltty.sh start failed: \(last)")
    }

    static func script(_ command: String, _ directory: String, _ offset: Int) throws -> ProcessResult {
        var env = ProcessInfo.processInfo.environment
        env["BRLAPI_PORT_OFFSET"] = String(offset)
        env["BRLTTY_WATCH_PID"] = String(getpid())
        return try ProcessRunner.run(["/bin/bash", PackageRoot.path("scripts/services/brltty.sh"), command, directory],
                                     environment: env, timeout: .seconds(40))
    }

    /// The BrlAPI host to give `tandem serve --braille`.
    public var host: String { "127.0.0.1:\(offset)" }

    /// Presses a display key (a BRLTTY command as the vr driver takes it: `LNDN`, `ROUTE 0`).
    public func press(_ command: String) {
        guard let h = FileHandle(forWritingAtPath: directory + "/keys.fifo") else { return }
        h.write(Data((command + "\n").utf8))
        try? h.close()
    }

    /// What the display showed so far (its log's lines).
    public var log: String { (try? String(contentsOfFile: directory + "/display.log", encoding: .utf8)) ?? "" }

    public func stop() {
        _ = try? Self.script("stop", directory, offset)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
