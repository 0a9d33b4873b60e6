import Foundation
import Glibc
import Testing
import TandemTestSupport

/// `tandem ctl` as a shell script uses it, against a real `tandem serve` running the grocery
/// catalog as its app: what it prints, and its exit status for each way things go.
@Suite("tandem ctl against tandem serve", .serialized)
struct CtlCommandTests {
    /// `tandem ctl ARGUMENTS --socket SOCKET`.
    static func ctl(_ arguments: [String], socket: String) throws -> ProcessResult {
        try ProcessRunner.run([try TandemBinary.path(), "ctl"] + arguments + ["--socket", socket], timeout: .seconds(30))
    }

    static func serve() throws -> ServeProcess {
        try ServeProcess(extra: ["--catalog", Example("grocery").catalogPath])
    }

    @Test("no service: exit 69 and a sentence naming the socket; a usage mistake: exit 64 before connecting")
    func noService() throws {
        let folder = try temporaryDirectory(prefix: "tandem-ctl-")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let absent = try Self.ctl(["status"], socket: folder + "/control.sock")
        #expect(absent.status == 69)
        #expect(absent.stderr.contains("no tandem serve answers at \(folder)/control.sock"), "\(absent.stderr)")
        #expect(absent.stdout.isEmpty)
        let usage = try Self.ctl(["teleport"], socket: folder + "/control.sock")
        #expect(usage.status == 64 && usage.stderr.contains(#"unknown ctl command "teleport""#), "\(usage.stderr)")
        let noText = try Self.ctl(["say"], socket: folder + "/control.sock")
        #expect(noText.status == 64 && noText.stderr.contains("say needs the text"), "\(noText.stderr)")
        let channel = try Self.ctl(["listen", "--channels", "speech,smell"], socket: folder + "/control.sock")
        #expect(channel.status == 64 && channel.stderr.contains(#"unknown channel "smell""#), "\(channel.stderr)")
    }

    @Test("commands move the front app's focus and status prints where it is, as one JSON line")
    func commandsAndStatus() throws {
        let serve = try Self.serve()
        let before = try Self.ctl(["status"], socket: serve.socket)
        #expect(before.status == 0)
        #expect(before.stdout == #"{"type":"status","apps":[{"client":"catalog","name":"Mercado — grocery catalog","foreground":true}],"speech":"unavailable","braille":"unavailable","screen":"catalog","focus":"header.title"}"# + "\n")
        // The header's explicit order: title, lists, then the search field.
        let moved = try Self.ctl(["command", "next", "next"], socket: serve.socket)
        #expect(moved.status == 0 && moved.stdout.isEmpty && moved.stderr.isEmpty, "\(moved.output)")
        #expect(try Self.ctl(["status"], socket: serve.socket).stdout.contains(#""focus":"search.field""#))
        #expect(serve.stop() == 0)
        // The service's own transcript (complete once it has stopped) has both keys.
        let keys = serve.transcriptLines.filter { $0.contains(#""type":"key""#) }
        #expect(keys.count == 2 && keys.allSatisfy { $0.contains(#""command":"next""#) }, "\(keys)")
    }

    @Test("a refused message: exit 1 with the service's sentence; commands after it are not sent")
    func refused() throws {
        let serve = try Self.serve()
        let unknown = try Self.ctl(["command", "teleport", "next"], socket: serve.socket)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains(#"unknown command "teleport""#), "\(unknown.stderr)")
        #expect(try Self.ctl(["status"], socket: serve.socket).stdout.contains(#""focus":"header.title""#), "next was not sent")
        let nobody = try Self.ctl(["foreground", "Nobody"], socket: serve.socket)
        #expect(nobody.status == 1)
        #expect(nobody.stderr == "tandem: error: no app named \"Nobody\" has shown a screen\n", "\(nobody.stderr)")
        #expect(serve.stop() == 0)
    }

    @Test("foreground brings an app by its name to the front")
    func foreground() throws {
        let serve = try ServeProcess()
        var apps: [RawSocketClient] = []
        for name in ["Groceries", "Mail"] {
            let app = try serve.client()
            app.send(#"{"type":"hello","v":1,"role":"app","name":"\#(name)"}"#)
            #expect(app.readLine()?.contains(#""type":"welcome""#) == true)
            app.send(#"{"type":"screen","screen":{"id":"main","root":{"id":"root","children":[{"id":"title","label":"\#(name)","traits":["header"],"frame":[0,0,390,44]}]}},"id":1}"#)
            apps.append(app)
        }
        // Mail showed its screen last, so it is in front.
        #expect(waitUntil(timeout: .seconds(10)) { (try? Self.ctl(["status"], socket: serve.socket).stdout.contains(#""name":"Mail","foreground":true"#)) == true })
        let front = try Self.ctl(["foreground", "Groceries"], socket: serve.socket)
        #expect(front.status == 0 && front.output.isEmpty, "\(front.output)")
        let status = try Self.ctl(["status"], socket: serve.socket).stdout
        #expect(status.contains(#""name":"Groceries","foreground":true"#) && status.contains(#""name":"Mail","foreground":false"#), "\(status)")
        #expect(serve.stop() == 0)
        _ = apps
    }

    /// `tandem ctl listen` running in the background, its output going to a file.
    final class Listener {
        let process = Process()
        let output: String

        init(socket: String, _ extra: [String] = []) throws {
            output = try temporaryDirectory(prefix: "tandem-listen-") + "/out.jsonl"
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            process.executableURL = URL(fileURLWithPath: try TandemBinary.path())
            process.arguments = ["ctl", "listen", "--socket", socket] + extra
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            process.standardError = Pipe()
            try process.run()
        }

        var lines: [String] {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        var stderr: String {
            String(decoding: (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        }

        /// Waits for the exit; its status, nil when it did not end within 10 s.
        func exitStatus() -> Int32? {
            guard waitUntil(timeout: .seconds(10), { !self.process.isRunning }) else {
                process.terminate()
                return nil
            }
            return process.terminationStatus
        }

        deinit {
            if process.isRunning { process.terminate() }
            try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent)
        }
    }

    /// Sends `next` until the listener prints something: then it is surely subscribed.
    static func untilListening(_ listener: Listener, _ socket: String) throws -> Bool {
        for _ in 0..<20 {
            _ = try ctl(["command", "next"], socket: socket)
            if waitUntil(timeout: .seconds(1), { !listener.lines.isEmpty }) { return true }
        }
        return false
    }

    @Test("listen prints the transcript as JSON lines, an announcement from say among them; Ctrl-C ends it with 0")
    func listenAndSay() throws {
        let serve = try Self.serve()
        let listener = try Listener(socket: serve.socket)
        #expect(try Self.untilListening(listener, serve.socket))
        let said = try Self.ctl(["say", "Delivery", "at", "noon", "--priority", "high"], socket: serve.socket)
        #expect(said.status == 0, "\(said.stderr)")
        #expect(waitUntil(timeout: .seconds(10)) {
            listener.lines.contains { $0.contains(#""ch":"speech""#) && $0.contains(#""text":"Delivery at noon""#) && $0.contains(#""src":"announcement""#) }
        }, "\(listener.lines)")
        #expect(listener.lines.allSatisfy { $0.hasPrefix(#"{"t":"#) && $0.hasSuffix("}") }, "transcript lines, as the file has them")
        #expect(listener.lines.contains { $0.contains(#""ch":"event","type":"key","command":"next""#) })
        kill(listener.process.processIdentifier, SIGINT)
        #expect(listener.exitStatus() == 0)
        #expect(serve.stop() == 0)
    }

    @Test("listen --channels keeps only those channels; when the service stops, listen ends with 69")
    func listenChannelsAndServiceGone() throws {
        let serve = try Self.serve()
        let listener = try Listener(socket: serve.socket, ["--channels", "braille"])
        #expect(try Self.untilListening(listener, serve.socket))
        #expect(listener.lines.allSatisfy { $0.contains(#""ch":"braille""#) }, "\(listener.lines)")
        #expect(serve.stop() == 0)
        #expect(listener.exitStatus() == 69)
        #expect(listener.stderr.contains("tandem: error: the service closed the connection\n"), "\(listener.stderr)")
    }
}
