import Foundation
import Glibc
import Testing
import TandemTestSupport
import Synchronization

/// The systemd user unit of Docs/protocol.md#systemd, as written there: systemd accepts it, and
/// its `ExecStart` line serves on a fresh login (no `tandem` folder anywhere yet), writes the
/// transcript as it goes, and stops cleanly on SIGHUP. Also where `tandem` finds its shipped
/// profiles when it is started by name through `PATH`.
@Suite("the systemd user unit and the installed binary")
struct UserUnitTests {
    /// The `ini` block of Docs/protocol.md's systemd section.
    static func documentedUnit() throws -> String {
        try DocBlock.first("Docs/protocol.md", language: "ini", after: "<a id=\"systemd\"></a>")
    }

    /// The value of `key=` in the unit (the first such line).
    static func value(_ key: String, in unit: String) -> String? {
        unit.split(separator: "\n").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    /// A fresh user: a home folder with the binary where the unit expects it, and an empty
    /// runtime folder (0700, as logind makes it).
    struct FreshLogin {
        let home: String
        let runtime: String
        init() throws {
            let root = try temporaryDirectory(prefix: "tandem-login")
            home = root + "/home"
            runtime = root + "/run"
            try FileManager.default.createDirectory(atPath: home + "/.local/bin", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try FileManager.default.createSymbolicLink(atPath: home + "/.local/bin/tandem", withDestinationPath: try TandemBinary.path())
        }

        /// systemd's specifiers for a user manager: %h home, %t runtime, %S state.
        func expand(_ text: String) -> String {
            text.replacingOccurrences(of: "%h", with: home)
                .replacingOccurrences(of: "%t", with: runtime)
                .replacingOccurrences(of: "%S", with: home + "/.local/state")
        }

        var environment: [String: String] {
            var env = ProcessInfo.processInfo.environment
            env["HOME"] = home
            env["XDG_RUNTIME_DIR"] = runtime
            env["XDG_CONFIG_HOME"] = nil
            env["XDG_STATE_HOME"] = nil
            env["TANDEM_PROFILES"] = nil
            // No daemons: the service starts without them and says so.
            env["SPEECHD_ADDRESS"] = "unix_socket:\(runtime)/no-speechd.sock"
            env["BRLAPI_HOST"] = "127.0.0.1:4998"
            env["JOURNAL_STREAM"] = "8:1234"
            return env
        }
    }

    @Test("systemd-analyze --user verify accepts the documented unit, the binary installed as the docs say")
    func systemdAcceptsTheUnit() throws {
        let login = try FreshLogin()
        let unitFolder = login.home + "/.config/systemd/user"
        try FileManager.default.createDirectory(atPath: unitFolder, withIntermediateDirectories: true)
        let unitPath = unitFolder + "/tandem.service"
        try Self.documentedUnit().write(toFile: unitPath, atomically: true, encoding: .utf8)
        let r = try ProcessRunner.run(["/usr/bin/systemd-analyze", "--user", "verify", unitPath], environment: login.environment)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.isEmpty, "systemd warns about the unit: \(r.output)")
    }

    @Test("the unit orders itself after no system unit (a user manager cannot see them)")
    func noSystemUnitOrdering() throws {
        let unit = try Self.documentedUnit()
        for key in ["After", "Requires", "Wants", "BindsTo"] {
            for name in (Self.value(key, in: unit) ?? "").split(separator: " ") {
                #expect(!FileManager.default.fileExists(atPath: "/lib/systemd/system/\(name)")
                        || FileManager.default.fileExists(atPath: "/usr/lib/systemd/user/\(name)"),
                        "\(key)=\(name) is a system unit")
            }
        }
    }

    @Test("its ExecStart serves on a fresh login, writes the transcript as it goes, and SIGHUP stops it cleanly")
    func execStartOnAFreshLogin() throws {
        let unit = try Self.documentedUnit()
        let login = try FreshLogin()
        let exec = try #require(Self.value("ExecStart", in: unit))
        let arguments = login.expand(exec).split(separator: " ").map(String.init)
        let transcript = try #require(arguments.firstIndex(of: "--transcript").map { arguments[$0 + 1] })
        // What `StateDirectory=` makes before the start, and nothing more.
        let state = try #require(Self.value("StateDirectory", in: unit))
        #expect(transcript.hasPrefix(login.home + "/.local/state/\(state)/"), "the transcript is in the folder systemd makes")
        try FileManager.default.createDirectory(atPath: login.home + "/.local/state/" + state, withIntermediateDirectories: true)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = login.environment
        let log = Pipe()
        process.standardError = log
        let text = LockedText()
        log.fileHandleForReading.readabilityHandler = { text.append($0.availableData) }
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let socket = login.runtime + "/tandem/control.sock"
        #expect(waitUntil(timeout: .seconds(20)) { text.value.contains("serving on \(socket)") || !process.isRunning }, "\(text.value)")
        #expect(process.isRunning, "\(text.value)")
        #expect(text.value.hasPrefix("<"), "journal priority prefixes under systemd: \(text.value)")

        let app = try RawSocketClient(path: socket)
        #expect(app.send(#"{"type":"hello","v":1,"role":"app","name":"Fresh"}"#))
        #expect(app.readLine()?.contains("welcome") == true)
        #expect(app.send(#"{"type":"screen","screen":{"id":"s","title":"Fresh","root":{"id":"t","label":"Hello","traits":["header"]}}}"#))
        #expect(app.send(#"{"type":"status","id":1}"#))
        let reply = app.readLine { $0.contains(#""type":"status""#) }
        #expect(reply?.contains(#""type":"status""#) == true, "\(reply ?? "nothing")")
        // While it runs, not only when it stops.
        #expect(waitUntil(timeout: .seconds(10)) {
            ((try? String(contentsOfFile: transcript, encoding: .utf8)) ?? "").contains(#""text":"Hello, heading""#)
        }, "the transcript has the focus speech while the service runs")

        kill(process.processIdentifier, SIGHUP)
        #expect(waitUntil(timeout: .seconds(10)) { !process.isRunning })
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "SIGHUP is a clean stop: \(text.value)")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket file is removed")
    }

    @Test("a transcript in a folder that does not exist: exit 2 naming the folder and the reason")
    func transcriptFolderMissing() throws {
        let login = try FreshLogin()
        let path = login.runtime + "/missing/transcript.jsonl"
        let r = try ProcessRunner.run([try TandemBinary.path(), "serve", "--socket", login.runtime + "/s.sock", "--transcript", path],
                                      environment: login.environment)
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(path): cannot write the file: No such file or directory (the folder \(login.runtime)/missing does not exist)"),
                "\(r.stderr)")
    }

    @Test("started by name through PATH from another folder, tandem finds the shipped profiles")
    func profilesThroughPath() throws {
        let login = try FreshLogin()
        var env = login.environment
        env["PATH"] = TandemBinary.buildDirectory.path + ":" + (env["PATH"] ?? "/usr/bin")
        let catalog = PackageRoot.path("Examples/grocery/grocery.catalog.json")
        let scenario = PackageRoot.path("Examples/grocery/grocery.scenario")
        let r = try ProcessRunner.run(["/usr/bin/env", "tandem", "replay", catalog, scenario, "--profile", "headless"],
                                      environment: env, directory: login.home)
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test("a copied binary with no profiles near it names every file it looked for")
    func copiedBinaryListsWhereItLooked() throws {
        let login = try FreshLogin()
        let copy = login.home + "/tandem-copy"
        try FileManager.default.copyItem(atPath: try TandemBinary.path(), toPath: copy)
        let r = try ProcessRunner.run([copy, "replay", PackageRoot.path("Examples/grocery/grocery.catalog.json"),
                                       PackageRoot.path("Examples/grocery/grocery.scenario"), "--profile", "headless"],
                                      environment: login.environment, directory: login.runtime)
        #expect(r.status == 2)
        #expect(r.stderr.contains("no profile \"headless\" (looked for \(login.home)/.config/tandem/profiles/headless.json, "), "\(r.stderr)")
        #expect(r.stderr.contains("/usr/share/tandem/profiles/headless.json"), "\(r.stderr)")
        #expect(r.stderr.contains("TANDEM_PROFILES=DIR"), "\(r.stderr)")
    }
}

/// Text appended from a pipe's handler thread and read from the test's.
private final class LockedText: Sendable {
    private let data = Mutex(Data())
    func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }
    var value: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}
