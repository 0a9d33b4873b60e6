import Dispatch
import Foundation
import Glibc
import TandemPOSIX
import Synchronization
import Testing
@testable import TandemServer

/// Starting, stopping, and leaving nothing behind.
@Suite("control socket: lifecycle")
struct LifecycleTests {
    @Test("stop writes what was sent just before, closes every client, removes the socket file and returns, reporting nothing more")
    func stopClosesEverything() throws {
        let server = try TestServer()
        defer { removeDirectory(server.dir) }
        let (idle, idIdle) = try server.connect()
        let (halfway, idHalf) = try server.connect()
        halfway.write("done\n{\"type\":")
        #expect(server.log.waitForLines(idHalf, count: 1))
        let own = server.socket.ownDescriptors.compactMap(descriptorTarget)
        #expect(own.count == 3, "the listener and the wake pipe's two ends")

        server.socket.send(idIdle, Array("shutting down".utf8))
        #expect(server.socket.stop(timeout: .seconds(10)))
        let reported = server.log.all.count
        #expect(access(server.path, F_OK) != 0, "the socket file is gone")
        #expect(idle.readLine() == "shutting down")
        #expect(idle.readsEnd())
        #expect(halfway.readsEnd())
        #expect(Set(openDescriptorTargets()).isDisjoint(with: own), "no descriptor of the server is open")
        #expect(socketInodes(boundTo: server.path).isEmpty)
        #expect(server.log.all.count == reported)
        #expect(server.socket.stop(), "a second stop is harmless")
        #expect(throws: (any Error).self) { _ = try TestClient(path: server.path) }
    }

    @Test("stop may be called from the event handler, on the server's own thread")
    func stopFromHandler() throws {
        let dir = makeTempDirectory()
        defer { removeDirectory(dir) }
        let box = Locked<ControlSocket?>(nil)
        let stopped = DispatchSemaphore(value: 0)
        let socket = ControlSocket(options: .init(path: dir + "/control.sock")) { event in
            if case .line = event {
                _ = box.with { $0?.stop() }
                stopped.signal()
            }
        }
        box.with { $0 = socket }
        try socket.start()
        let client = try TestClient(path: socket.path)
        client.write("stop\n")
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(client.readsEnd())
        #expect(socket.stop(timeout: .seconds(10)))
        #expect(access(socket.path, F_OK) != 0)
        box.with { $0 = nil }
    }

    @Test("stop leaves alone a socket file that another server has put in its place")
    func stopRemovesOnlyItsOwn() throws {
        let server = try TestServer()
        defer { removeDirectory(server.dir) }
        unlink(server.path)
        let other = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(other) }
        #expect(UnixSocketAddress.bind(other, server.path) == 0)
        #expect(server.socket.stop())
        #expect(access(server.path, F_OK) == 0)
    }

    @Test("200 clients connecting and leaving leave no descriptor open")
    func noDescriptorLeak() throws {
        let server = try TestServer()
        defer { server.stopAndRemove() }
        let listener = socketInodes(boundTo: server.path)
        #expect(listener.count == 1)
        for i in 1...200 {
            var (client, id): (TestClient?, ClientID) = try server.connect()
            client!.write("cycle \(i)\n")
            #expect(server.log.waitForLines(id, count: 1))
            // Half the time the service closes, half the time the client.
            if i % 2 == 0 {
                server.socket.close(id, after: Array("bye".utf8))
                #expect(client!.readLine() == "bye")
            }
            client = nil
            #expect(server.log.waitForDisconnect(id) != nil)
        }
        // Every connection the server accepted is bound to its path (in /proc/net/unix); only
        // the listener is left.
        #expect(socketInodes(boundTo: server.path) == listener)
        let mine = openDescriptorTargets().filter { target in listener.contains { target == "socket:[\($0)]" } }
        #expect(mine.count == 1)
    }
}
