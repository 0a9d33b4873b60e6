import Foundation
import Glibc
import Testing
import TandemServer
import TandemTestSupport

/// The socket unit of Docs/protocol.md#socket-unit: systemd accepts it beside the service unit,
/// and `tandem serve` serves a listening socket passed the way systemd passes it
/// (`LISTEN_PID`, `LISTEN_FDS`, descriptor 3), leaving the socket file to systemd.
@Suite("the systemd socket unit and socket activation")
struct SocketUnitTests {
    /// The `ini` block under "Started on the first connection".
    static func documentedSocketUnit() throws -> String {
        try DocBlock.first("Docs/protocol.md", language: "ini", after: "<a id=\"socket-unit\"></a>")
    }

    @Test("systemd-analyze --user verify accepts the socket unit with the service unit it starts")
    func systemdAcceptsTheUnits() throws {
        let login = try UserUnitTests.FreshLogin()
        let unitFolder = login.home + "/.config/systemd/user"
        try FileManager.default.createDirectory(atPath: unitFolder, withIntermediateDirectories: true)
        let socketUnit = try Self.documentedSocketUnit()
        #expect(socketUnit.contains("[Socket]") && socketUnit.contains("ListenStream=%t/tandem/control.sock"), "\(socketUnit)")
        #expect(!socketUnit.contains("Accept=yes"), "one service for every connection")
        try socketUnit.write(toFile: unitFolder + "/tandem.socket", atomically: true, encoding: .utf8)
        try UserUnitTests.documentedUnit().write(toFile: unitFolder + "/tandem.service", atomically: true, encoding: .utf8)
        let r = try ProcessRunner.run(["/usr/bin/systemd-analyze", "--user", "verify", unitFolder + "/tandem.socket", unitFolder + "/tandem.service"],
                                      environment: login.environment)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.isEmpty, "systemd warns about the units: \(r.output)")
        // The service's command line names no other socket than the one systemd passes.
        #expect(!(UserUnitTests.value("ExecStart", in: try UserUnitTests.documentedUnit()) ?? "").contains("--socket"))
    }

    @Test("tandem serve serves the socket systemd passes, on the first connection, and leaves its file to systemd")
    func servesAnInheritedSocket() throws {
        let login = try UserUnitTests.FreshLogin()
        // Where the socket unit listens: %t/tandem/control.sock, the folder made by systemd.
        let folder = login.runtime + "/tandem"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let socket = folder + "/control.sock"
        let logPath = login.runtime + "/serve.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try #require(FileHandle(forWritingAtPath: logPath))
        defer { try? log.close() }

        // systemd-socket-activate listens as the socket unit does and, on the first connection,
        // execs the service with the socket as descriptor 3 (the service unit's command line:
        // no --socket). It passes on only the variables named with -E.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        var arguments = ["--listen=" + socket]
        for name in ["HOME", "XDG_RUNTIME_DIR", "SPEECHD_ADDRESS", "BRLAPI_HOST"] {
            arguments.append("--setenv=\(name)=\(login.environment[name]!)")
        }
        arguments.append("--setenv=TANDEM_PROFILES=" + PackageRoot.path("Profiles"))
        arguments += [try TandemBinary.path(), "serve", "--profile", "headless"]
        process.arguments = arguments
        process.environment = login.environment
        process.standardError = log
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        func logText() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        // Its log line comes once the socket listens (the file alone exists from bind on).
        #expect(waitUntil(timeout: .seconds(20)) { logText().contains("Listening on") || !process.isRunning }, "\(logText())")

        // The first connection starts the service; the connection waits in the queue meanwhile.
        let app = try RawSocketClient(path: socket)
        #expect(app.send(#"{"type":"hello","v":1,"role":"app","name":"Activated"}"#))
        let welcome = app.readLine(timeout: .seconds(20))
        #expect(welcome?.contains("welcome") == true, "\(welcome ?? "nothing"); \(logText())")
        #expect(waitUntil(timeout: .seconds(10)) { logText().contains("serving on \(socket)") }, "\(logText())")
        #expect(app.send(#"{"type":"status","id":1}"#))
        #expect(app.readLine { $0.contains(#""type":"status""#) } != nil)

        kill(process.processIdentifier, SIGTERM)
        #expect(waitUntil(timeout: .seconds(10)) { !process.isRunning })
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(logText())")
        #expect(FileManager.default.fileExists(atPath: socket), "the socket file is systemd's: the service leaves it")
    }

    @Test("what systemd passes is checked: another process's LISTEN_PID is ignored, two sockets are refused by name")
    func activationVariables() throws {
        #expect(try SocketActivation.inherited(environment: ["LISTEN_PID": "1", "LISTEN_FDS": "1"], pid: 4242) == nil)
        #expect(try SocketActivation.inherited(environment: [:], pid: 4242) == nil)
        do {
            _ = try SocketActivation.inherited(environment: ["LISTEN_PID": "4242", "LISTEN_FDS": "2"], pid: 4242)
            Issue.record("two sockets accepted")
        } catch {
            #expect("\(error)".contains("LISTEN_FDS=2") && "\(error)".contains("one ListenStream="), "\(error)")
        }
        do {
            _ = try SocketActivation.inherited(environment: ["LISTEN_PID": "4242"], pid: 4242)
            Issue.record("no LISTEN_FDS accepted")
        } catch {
            #expect("\(error)".contains("LISTEN_FDS is not set"), "\(error)")
        }
    }
}
