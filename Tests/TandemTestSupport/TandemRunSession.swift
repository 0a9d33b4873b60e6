import Foundation

/// `tandem run` as a tester starts it: in a real terminal (a private tmux server, 160×50),
/// on a copy of the grocery catalog (so a test may edit it), with its transcript in a scratch
/// folder. When the session ends the shell prints `EXIT <status>` and `stty -a` (to show the
/// terminal was restored) and stays, so a test can read both.
///
/// Speech and braille go where `environment` says (`SPEECHD_ADDRESS`, `BRLAPI_HOST`,
/// `BRLAPI_AUTH`); by default to a speech-dispatcher socket and a BrlAPI port nobody serves.
/// The user's own profiles are out of reach (`XDG_CONFIG_HOME` is in the scratch folder).
public final class TandemRunSession {
    public let directory: URL
    public let catalog: URL
    public let transcript: URL
    private let socket = "tandem-test-\(UUID().uuidString.prefix(8))"

    /// Starts `tandem run CATALOG --transcript FILE` with `arguments` after them; with
    /// `connect`, `tandem run --connect SOCKET` instead (no catalog, no transcript of its own);
    /// with `program`, that command line instead of `tandem run …` (a script that runs it).
    public init(environment: [String: String] = [:], arguments: [String] = [], connect socketPath: String? = nil,
                program: String? = nil) throws {
        directory = URL(fileURLWithPath: try temporaryDirectory(prefix: "tandem-run-"))
        catalog = directory.appendingPathComponent("grocery.catalog.json")
        transcript = directory.appendingPathComponent("run.jsonl")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Example("grocery").catalogPath), to: catalog)
        var settings = [
            "XDG_CONFIG_HOME": directory.path + "/config",
            "SPEECHD_ADDRESS": "unix_socket:\(directory.path)/no-speechd.sock",
            "SPEECHD_CMD": "/bin/false",
            "BRLAPI_HOST": "127.0.0.1:4091",
        ]
        settings.merge(environment) { _, new in new }
        let what: String = if let socketPath { "--connect \(socketPath)" } else { "\(catalog.path) --transcript \(transcript.path)" }
        let command = "env " + settings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            + " " + (try program ?? "\(TandemBinary.path()) run \(what)")
            + arguments.map { " " + $0 }.joined()
            + "; echo \"EXIT $?\"; stty -a; sleep 60"
        let started = try ProcessRunner.run(["/usr/bin/tmux", "-L", socket, "new-session", "-d", "-x", "160", "-y", "50", command],
                                            timeout: .seconds(20))
        guard started.status == 0 else { throw TestSupportError("tmux new-session failed (\(started.status)): \(started.output)") }
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs a tmux command against this session's server; what it printed.
    @discardableResult
    public func tmux(_ arguments: [String]) throws -> String {
        try ProcessRunner.run(["/usr/bin/tmux", "-L", socket] + arguments, timeout: .seconds(20)).stdout
    }

    /// The terminal's text, with up to 200 lines of history.
    public func screen() throws -> String { try tmux(["capture-pane", "-p", "-J", "-S", "-200"]) }

    /// Types keys (tmux key names: `Right`, `Enter`, `q`).
    public func press(_ keys: String...) throws { try tmux(["send-keys"] + keys) }

    /// Waits until the terminal shows `text` (10 s at most).
    public func waitFor(_ text: String) throws -> Bool {
        for _ in 0..<100 {
            if try screen().contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    /// The transcript's lines so far.
    public func transcriptLines() throws -> [String] {
        try String(contentsOf: transcript, encoding: .utf8).split(separator: "\n").map(String.init)
    }
}
