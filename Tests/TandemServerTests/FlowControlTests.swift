import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
@testable import TandemServer

/// Neither a client that does not read nor one that floods can hold up the others.
@Suite("control socket: flow control")
struct FlowControlTests {
    @Test("a client that never reads is disconnected once its queue passes the limit, while another client gets every line sent to it")
    func nonReaderDropped() throws {
        let server = try TestServer { $0.maxQueuedBytes = 256 << 10 }
        defer { server.stopAndRemove() }
        let (deaf, idDeaf) = try server.connect()
        let (reader, idReader) = try server.connect()
        let chunk = [UInt8](repeating: 100, count: 16 << 10)

        // The service's side: sending never waits, whoever the client is. 64 MiB is far more
        // than the queue and the kernel's buffers hold, so the deaf client must be dropped.
        var sent = 0
        while server.log.disconnectReason(idDeaf) == nil && sent < 4096 {
            server.socket.send(idDeaf, chunk)
            sent += 1
            server.socket.send(idReader, Array("tick \(sent)".utf8))
            if sent % 64 == 0 { server.log.wait(seconds: 0.05) { _ in server.log.disconnectReason(idDeaf) != nil } }
        }
        #expect(server.log.waitForDisconnect(idDeaf) == "does not read its messages")

        var got: [String] = []
        while got.count < sent, let line = reader.readLine() { got.append(line) }
        #expect(got == (1...sent).map { "tick \($0)" })
        server.socket.send(idReader, Array("after".utf8))
        #expect(reader.readLine() == "after")
        #expect(server.log.disconnectReason(idReader) == nil)
        _ = deaf
    }

    @Test("a flooding client whose lines are not processed stops being read, while another client's lines still arrive; nothing is lost once the service catches up")
    func floodingClientPaused() throws {
        let server = try TestServer {
            $0.maxPendingLines = 4
            $0.readChunk = 4096
        }
        defer { server.stopAndRemove() }
        server.hold(clientNumber: 1)
        let (flooder, idFlood) = try server.connect()
        let (other, idOther) = try server.connect()

        // 2000 lines of 1 KiB: far more than the socket buffers, so the writer blocks once the
        // server stops reading.
        let total = 2000
        let payload = String(repeating: "f", count: 1000)
        let writerDone = DispatchSemaphore(value: 0)
        let writerClient = flooder
        Thread {
            var all: [UInt8] = []
            for i in 1...total { all += Array("\(i) \(payload)\n".utf8) }
            writerClient.write(all)
            writerDone.signal()
        }.start()

        #expect(server.log.waitForLines(idFlood, count: 4))
        #expect(writerDone.wait(timeout: .now() + 0.2) == .timedOut, "2 MB cannot all fit in the buffers")
        let readAtPause = server.bytesRead(idFlood)
        #expect(readAtPause > 0)
        // Rounds of the loop in which the other client is served; the flooder's socket stays
        // full all the while, so any read of it would show.
        for i in 1...3 {
            other.write("other \(i)\n")
            #expect(server.log.waitForLines(idOther, count: i))
        }
        #expect(server.log.lines(idFlood).count == 4, "no more lines than the service may hold")
        #expect(server.bytesRead(idFlood) == readAtPause, "the flooder was not read while paused")

        // The service catches up: every line arrives, in order, and the writer finishes.
        var acknowledged = 0
        while acknowledged < total {
            guard server.log.waitForLines(idFlood, count: acknowledged + 1) else { break }
            let delivered = server.log.lines(idFlood).count
            while acknowledged < delivered {
                server.socket.processed(idFlood)
                acknowledged += 1
            }
        }
        let lines = server.log.lines(idFlood)
        #expect(lines.count == total)
        #expect(lines.map(\.number) == Array(1...total))
        #expect(lines.map { $0.text.prefix(while: { $0 != " " }) } == (1...total).map { Substring("\($0)") })
        #expect(writerDone.wait(timeout: .now() + 10) == .success)
    }
}
