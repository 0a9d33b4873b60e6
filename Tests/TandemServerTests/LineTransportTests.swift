import Foundation
import Glibc
import Testing
@testable import TandemServer

/// Lines in, lines out, and the transport's own errors, over a real socket.
@Suite("control socket: lines")
struct LineTransportTests {
    @Test("two clients' interleaved lines arrive in order per client, numbered from 1 on each connection")
    func twoClientsInterleaved() throws {
        let server = try TestServer()
        defer { server.stopAndRemove() }
        let (a, idA) = try server.connect()
        let (b, idB) = try server.connect()
        #expect(idA != idB)
        for i in 1...50 {
            #expect(a.write("a\(i)\n"))
            #expect(b.write("b\(i)\n"))
        }
        #expect(server.log.waitForLines(idA, count: 50))
        #expect(server.log.waitForLines(idB, count: 50))
        #expect(server.log.lines(idA).map(\.text) == (1...50).map { "a\($0)" })
        #expect(server.log.lines(idA).map(\.number) == Array(1...50))
        #expect(server.log.lines(idB).map(\.text) == (1...50).map { "b\($0)" })
        #expect(server.log.lines(idB).map(\.number) == Array(1...50))

        // Replies go to the client named, each with its newline.
        server.socket.send(idB, Array(#"{"type":"welcome"}"#.utf8))
        server.socket.send(idA, Array("for a".utf8))
        #expect(b.readLine() == #"{"type":"welcome"}"#)
        #expect(a.readLine() == "for a")
    }

    @Test("a new connection counts its lines from 1 again")
    func numbersPerConnection() throws {
        let server = try TestServer()
        defer { server.stopAndRemove() }
        let (first, id1) = try server.connect()
        first.write("x\ny\n")
        #expect(server.log.waitForLines(id1, count: 2))
        let (second, id2) = try server.connect()
        second.write("z\n")
        #expect(server.log.waitForLines(id2, count: 1))
        #expect(server.log.lines(id2).map(\.number) == [1])
        #expect(id1 == ClientID(1) && id2 == ClientID(2) && id2.description == "c2")
    }

    @Test("CRLF is accepted; empty lines are not handed on but keep their numbers")
    func crlfAndEmptyLines() throws {
        let server = try TestServer()
        defer { server.stopAndRemove() }
        let (c, id) = try server.connect()
        c.write("{\"type\":\"hello\"}\r\n\r\n\n{\"type\":\"status\"}\r\n")
        #expect(server.log.waitForLines(id, count: 2))
        let lines = server.log.lines(id)
        #expect(lines.map(\.number) == [1, 4])
        #expect(lines.map(\.text) == [#"{"type":"hello"}"#, #"{"type":"status"}"#])
    }

    @Test("a line of exactly 1 MiB is accepted; one byte more gets an error line naming it and the limit, then the client is closed; another client is unaffected")
    func lineLimit() throws {
        let server = try TestServer()
        defer { server.stopAndRemove() }
        let (big, idBig) = try server.connect()
        let (other, idOther) = try server.connect()
        let limit = 1 << 20
        #expect(server.socket.options.maxLine == limit)

        big.write([UInt8](repeating: 120, count: limit) + [10])
        #expect(server.log.waitForLines(idBig, count: 1))
        #expect(server.log.lines(idBig)[0].text.utf8.count == limit)

        // The server may close before the whole line is written: the write can fail.
        big.write([UInt8](repeating: 121, count: limit + 1) + [10])
        #expect(big.readLine() == #"{"error":"line 2 is longer than the limit of 1048576 bytes","line":2,"type":"error"}"#)
        #expect(big.readsEnd())
        #expect(server.log.waitForDisconnect(idBig) == "line 2 is longer than the limit of 1048576 bytes")
        #expect(server.log.lines(idBig).count == 1)

        other.write("still here\n")
        #expect(server.log.waitForLines(idOther, count: 1))
        server.socket.send(idOther, Array("yes".utf8))
        #expect(other.readLine() == "yes")
        #expect(server.log.disconnectReason(idOther) == nil)
    }

    @Test("a half line left for the stall timeout is dropped with an error; an idle client with no half line stays, and others go on")
    func stalledHalfLine() throws {
        let server = try TestServer { $0.stallTimeout = .milliseconds(200) }
        defer { server.stopAndRemove() }
        let (idle, idIdle) = try server.connect()
        let (staller, idStaller) = try server.connect()
        let (worker, idWorker) = try server.connect()

        staller.write("{\"type\":\"status\"}\n{\"type\":")
        #expect(server.log.waitForLines(idStaller, count: 1))
        worker.write("one\n")
        #expect(server.log.waitForLines(idWorker, count: 1))

        #expect(staller.readLine() == #"{"error":"line 2 was not finished within 200 ms","line":2,"type":"error"}"#)
        #expect(staller.readsEnd())
        #expect(server.log.waitForDisconnect(idStaller) == "line 2 was not finished within 200 ms")

        // The idle client has been silent longer than the stall timeout, with nothing half
        // sent: it is still connected, and so is the one that keeps working.
        idle.write("awake\n")
        worker.write("two\n")
        #expect(server.log.waitForLines(idIdle, count: 1))
        #expect(server.log.waitForLines(idWorker, count: 2))
        #expect(server.log.disconnectReason(idIdle) == nil)
        #expect(server.log.disconnectReason(idWorker) == nil)
    }

    @Test("a client that shuts its sending side still gets the replies to what it sent")
    func halfClose() throws {
        let server = try TestServer()
        defer { server.stopAndRemove() }
        let (c, id) = try server.connect()
        c.write("{\"type\":\"status\"}\n")
        c.shutdownWriting()
        #expect(server.log.waitForLines(id, count: 1))
        server.socket.send(id, Array("reply".utf8))
        #expect(c.readLine() == "reply")
        #expect(server.log.disconnectReason(id) == nil)
        server.socket.close(id, after: Array("bye".utf8))
        #expect(c.readLine() == "bye")
        #expect(c.readsEnd())
        #expect(server.log.waitForDisconnect(id) == "closed by the service")
    }

    @Test("input that ends in the middle of a line is an error, and the client is closed")
    func endsMidLine() throws {
        let server = try TestServer()
        defer { server.stopAndRemove() }
        let (c, id) = try server.connect()
        c.write("{\"type\":\"status\"}\n{\"type\"")
        c.shutdownWriting()
        #expect(c.readLine() == #"{"error":"the input ended in the middle of line 2","line":2,"type":"error"}"#)
        #expect(c.readsEnd())
        #expect(server.log.waitForDisconnect(id) == "the input ended in the middle of line 2")
        #expect(server.log.lines(id).map(\.text) == [#"{"type":"status"}"#])
    }

    @Test("a client that closes is reported once, after all its lines")
    func clientCloses() throws {
        let server = try TestServer()
        defer { server.stopAndRemove() }
        var (c, id): (TestClient?, ClientID) = try server.connect()
        c!.write("1\n2\n3\n")
        c = nil
        #expect(server.log.waitForDisconnect(id) == "closed by the client")
        let mine = server.log.all.filter {
            switch $0 {
            case .connected(let i, _), .line(let i, _, _), .disconnected(let i, _): i == id
            case .rejected: false
            }
        }
        #expect(mine.count == 5)
        #expect(server.log.lines(id).map(\.text) == ["1", "2", "3"])
        if case .disconnected = mine.last {} else { Issue.record("disconnected is not last: \(mine)") }
        _ = c
    }

    @Test("closing a client writes what was queued, then the last line, then closes")
    func closeAfterQueued() throws {
        let server = try TestServer()
        defer { server.stopAndRemove() }
        let (c, id) = try server.connect()
        for i in 1...3 { server.socket.send(id, Array("line \(i)".utf8)) }
        server.socket.close(id, after: Array(#"{"error":"bye","type":"error"}"#.utf8))
        server.socket.send(id, Array("too late".utf8))
        #expect(c.readLine() == "line 1")
        #expect(c.readLine() == "line 2")
        #expect(c.readLine() == "line 3")
        #expect(c.readLine() == #"{"error":"bye","type":"error"}"#)
        #expect(c.readsEnd())
        #expect(server.log.waitForDisconnect(id) == "closed by the service")
    }
}
