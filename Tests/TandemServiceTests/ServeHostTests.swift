import Foundation
import Synchronization
import Testing
import TandemServer
import TandemService
import TandemSession
import TandemTestSupport
import TandemVocabulary

/// `tandem serve`'s glue, without the process: a socket's clients reach the service through a
/// `ServeHost` and the runner, and its replies come back to the client that asked, by the same
/// `ClientID`.
@Suite("the serve host between the socket and the runner", .serialized)
struct ServeHostTests {
    /// A runner with a service, served on a socket in a temporary folder, run on its own thread.
    final class Served: Sendable {
        let runner: LiveRunner
        let host: ServeHost
        let records = RecordingSink()
        let notes = NoteLog()
        let done = DispatchSemaphore(value: 0)

        init() throws {
            let folder = try temporaryDirectory(prefix: "tandem-serve-host")
            let profile = try ProfileStore.shipped.load("headless").0
            let (session, service) = Service.start(profile: profile, catalog: nil, sink: records, timing: .virtual,
                                                   makeTranslator: louisTranslator(for:))
            runner = LiveRunner(session: session, keyMap: profile.keyMap)
            runner.service = service
            let notes = self.notes
            host = try ServeHost(runner: runner, options: ControlSocket.Options(path: folder + "/tandem.sock"),
                             note: { notes.add($0) })
            runner.startThread(signalling: done)
        }

        func stop() {
            runner.send(.quit)
            _ = done.wait(timeout: .now() + 10)
            host.finish()
        }
    }

    final class NoteLog: Sendable {
        private let notes = Mutex<[ServeHost.Note]>([])
        func add(_ n: ServeHost.Note) { notes.withLock { $0.append(n) } }
        var all: [ServeHost.Note] { notes.withLock { $0 } }
    }

    @Test("an app's hello is welcomed by its own client id, its screen is heard, and each client gets only its own replies")
    func helloScreenAndReplies() throws {
        let served = try Served()
        defer { served.stop() }
        let app = try RawSocketClient(path: served.host.socket.path)
        let controller = try RawSocketClient(path: served.host.socket.path)
        app.send(#"{"type":"hello","v":1,"role":"app","name":"Notes"}"#)
        let welcome = try #require(app.readLine())
        #expect(welcome.hasPrefix(#"{"type":"welcome","v":1,"client":"c1""#), "the first connection is c1: \(welcome)")
        controller.send(#"{"type":"hello","v":1,"role":"controller"}"#)
        #expect(controller.readLine()?.hasPrefix(#"{"type":"welcome","v":1,"client":"c2""#) == true)
        app.send(#"{"type":"screen","id":1,"screen":{"id":"main","title":"Notes","root":{"id":"root","children":[{"id":"t","label":"Notes","traits":["header"]}]}}}"#)
        #expect(app.readLine() == #"{"type":"ack","id":1}"#, "the app's request is answered on its own connection")
        controller.send(#"{"type":"status","id":"s"}"#)
        let status = try #require(controller.readLine())
        #expect(status.contains(#""client":"c1","name":"Notes","foreground":true"#), "\(status)")
        #expect(waitUntil { served.records.records.contains { if case .speech(.speak(let s)) = $0.record { s.utterance.text == "Notes, heading" } else { false } } },
                "the app's screen is heard")
        #expect(served.notes.all.contains { if case .connected(ClientID(1), _) = $0 { true } else { false } }, "the connection is noted")
    }

    @Test("a client that leaves is reported, and an app's leaving is announced by its name")
    func leaving() throws {
        let served = try Served()
        defer { served.stop() }
        do {
            let app = try RawSocketClient(path: served.host.socket.path)
            app.send(#"{"type":"hello","v":1,"role":"app","name":"Notes"}"#)
            _ = app.readLine()
            app.send(#"{"type":"screen","screen":{"id":"main","root":{"id":"root","children":[{"id":"t","label":"Hello"}]}}}"#)
            #expect(waitUntil { served.records.records.contains { if case .speech(.speak(let s)) = $0.record { s.utterance.text == "Hello" } else { false } } })
        }
        #expect(waitUntil { served.notes.all.contains { if case .disconnected(ClientID(1), _) = $0 { true } else { false } } })
        #expect(waitUntil { served.records.records.contains { if case .speech(.speak(let s)) = $0.record { s.utterance.text == "Notes closed" } else { false } } })
    }
}
