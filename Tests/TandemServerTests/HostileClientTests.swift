import Foundation
import Glibc
import Testing
@testable import TandemServer

/// Clients that try to hold the service (issue 27): a line trickled a byte at a time, and more
/// connections than the service takes.
@Suite("Hostile clients at the transport")
struct HostileTransportTests {
    @Test("a line trickled in a byte at a time is dropped once it has been half sent for the stall timeout, however often bytes come")
    func trickledLine() throws {
        let server = try TestServer { $0.stallTimeout = .milliseconds(300) }
        defer { server.stopAndRemove() }
        let (trickler, id) = try server.connect()
        // One byte every 50 ms: each gap is a sixth of the timeout, so a clock reset by every
        // byte would never run out. 120 bytes is 6 s, twenty timeouts.
        var sent = 0
        for byte in Array(#"{"type":"status","id":""#.utf8) + [UInt8](repeating: 65, count: 100) {
            if server.log.disconnectReason(id) != nil { break }
            guard trickler.write([byte]) else { break }
            sent += 1
            usleep(50_000)
        }
        #expect(server.log.waitForDisconnect(id) == "line 1 was not finished within 300 ms")
        #expect(sent < 120, "the trickled line was still being read after \(sent) bytes")
        #expect(trickler.readLine() == #"{"error":"line 1 was not finished within 300 ms","line":1,"type":"error"}"#)
    }

    @Test("a line's clock starts at its own first byte: whole lines sent slowly keep the connection")
    func slowWholeLines() throws {
        let server = try TestServer { $0.stallTimeout = .milliseconds(300) }
        defer { server.stopAndRemove() }
        let (client, id) = try server.connect()
        // Each line takes 200 ms (under the timeout); ten of them take 2 s (well over it).
        for n in 1...10 {
            for byte in Array("line\(n)\n".utf8) {
                client.write([byte])
                usleep(200_000 / 6)
            }
        }
        #expect(server.log.waitForLines(id, count: 10))
        #expect(server.log.disconnectReason(id) == nil)
    }

    @Test("a client over maxClients gets an error line naming the limit and is closed; the others stay, and a place freed is taken again")
    func clientCap() throws {
        let server = try TestServer { $0.maxClients = 3 }
        defer { server.stopAndRemove() }
        var kept: [(TestClient, ClientID)] = []
        for _ in 0..<3 { kept.append(try server.connect()) }
        let extra = try TestClient(path: server.path)
        #expect(extra.readLine() == #"{"error":"the service has 3 clients, its limit (maxClients); try again when one has closed","type":"error"}"#)
        #expect(extra.readsEnd())
        #expect(server.log.wait { events in events.contains { if case .rejected = $0 { true } else { false } } })
        #expect(server.log.connected().count == 3)
        // The three still work.
        for (client, id) in kept {
            client.write("ping\n")
            #expect(server.log.waitForLines(id, count: 1))
        }
        // One leaves: the next comes in.
        let leaving = kept.removeFirst().1
        #expect(server.log.waitForDisconnect(leaving) == "closed by the client")
        let (late, lateID) = try server.connect()
        late.write("here\n")
        #expect(server.log.waitForLines(lateID, count: 1))
    }
}
