import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
@testable import TandemServer

/// The control socket served on a thread that has other work (`startHosted`): `tandem serve`'s
/// session thread reads its clients this way.
@Suite("control socket: hosted on another thread")
struct HostedServerTests {
    /// A socket whose events are recorded with whether they came on the hosting thread.
    final class Hosting: Sendable {
        let dir = makeTempDirectory()
        let log = EventLog()
        let onHost = Locked<[Bool]>([])
        let host = Locked<pthread_t?>(nil)
        let socket: ControlSocket

        init() {
            let log = log, onHost = onHost, host = host
            socket = ControlSocket(options: .init(path: dir + "/control.sock")) { event in
                onHost.with { $0.append(host.with { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }) }
                log.add(event)
            }
        }

        /// Starts a thread that makes the hosted server and runs `body` with it there.
        func run(_ body: @escaping @Sendable (HostedServer) -> Void) -> DispatchSemaphore {
            let done = DispatchSemaphore(value: 0)
            let socket = socket, host = host
            Thread {
                host.with { $0 = pthread_self() }
                guard let hosted = try? socket.startHosted() else { return }
                body(hosted)
                hosted.finish()
                done.signal()
            }.start()
            return done
        }
    }

    @Test("events come on the hosting thread, from inside serve; replies sent there reach the client; finish closes all")
    func servesOnItsHost() throws {
        let h = Hosting()
        defer { removeDirectory(h.dir) }
        let stop = Atomic<Bool>(false)
        let socket = h.socket
        let server = Locked<HostedServer?>(nil)
        let done = h.run { hosted in
            server.with { $0 = hosted }
            var answered = 0
            while !stop.load(ordering: .relaxed) {
                hosted.serve(atMost: .seconds(1))
                for (id, text) in h.log.all.compactMap(Self.line).dropFirst(answered) {
                    socket.send(id, Array("heard \(text)".utf8))
                    socket.processed(id)
                    answered += 1
                }
            }
        }
        let client = try waitForConnection(h.socket.path)
        client.write("next\n")
        #expect(client.readLine() == "heard next")
        stop.store(true, ordering: .relaxed)
        server.with { $0?.wake() }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(client.readsEnd(), "finish closed the client")
        #expect(access(h.socket.path, F_OK) != 0, "finish removed the socket file")
        #expect(!h.onHost.with { $0 }.isEmpty)
        #expect(h.onHost.with { $0 }.allSatisfy { $0 }, "every event was reported on the hosting thread")
    }

    @Test("wake, from another thread, ends a serve that waits with no limit; a wake before the wait is kept")
    func wakeEndsTheWait() throws {
        let h = Hosting()
        defer { removeDirectory(h.dir) }
        let waiting = DispatchSemaphore(value: 0)
        let returned = DispatchSemaphore(value: 0)
        let server = Locked<HostedServer?>(nil)
        let done = h.run { hosted in
            server.with { $0 = hosted }
            waiting.signal()
            hosted.serve(atMost: nil)
            returned.signal()
        }
        #expect(waiting.wait(timeout: .now() + 10) == .success)
        server.with { $0?.wake() }
        #expect(returned.wait(timeout: .now() + 10) == .success, "serve returned once woken")
        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    @Test("flush writes what was sent at once, with no serve after it")
    func flushWritesNow() throws {
        let h = Hosting()
        defer { removeDirectory(h.dir) }
        let socket = h.socket
        let read = DispatchSemaphore(value: 0)
        let done = h.run { hosted in
            while h.log.connected().isEmpty { hosted.serve(atMost: .seconds(1)) }
            socket.send(h.log.connected()[0], Array("now".utf8))
            hosted.flush()
            // Not served again until the client has read it.
            _ = read.wait(timeout: .now() + 10)
        }
        let client = try waitForConnection(h.socket.path)
        #expect(client.readLine() == "now")
        read.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    @Test("serve returns by the caller's limit when nothing comes")
    func serveKeepsTheLimit() throws {
        let h = Hosting()
        defer { removeDirectory(h.dir) }
        let rounds = Atomic<Int>(0)
        let done = h.run { hosted in
            for _ in 0..<3 {
                hosted.serve(atMost: .milliseconds(20))
                rounds.add(1, ordering: .relaxed)
            }
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(rounds.load(ordering: .relaxed) == 3)
    }

    @Test("a limit is rounded up to whole milliseconds, never down to a wait that ends too early")
    func limitRoundsUp() {
        #expect(HostedServer.milliseconds(.microseconds(1)) == 1)
        #expect(HostedServer.milliseconds(.microseconds(1_500)) == 2)
        #expect(HostedServer.milliseconds(.milliseconds(20)) == 20)
        #expect(HostedServer.milliseconds(.zero) == 0)
    }

    static func line(_ e: ControlSocket.Event) -> (ControlSocket.ClientID, String)? {
        guard case .line(let id, _, let bytes) = e else { return nil }
        return (id, String(decoding: bytes, as: UTF8.self))
    }

    /// Connects once the hosting thread has made the socket (10 s at most).
    func waitForConnection(_ path: String) throws -> TestClient {
        let deadline = Date().addingTimeInterval(10)
        while true {
            if let c = try? TestClient(path: path) { return c }
            if Date() > deadline { throw TestFailure("no socket at \(path)") }
            usleep(5_000)
        }
    }
}
