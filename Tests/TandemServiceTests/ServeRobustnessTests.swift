import Foundation
import Testing
import TandemTestSupport

/// `tandem serve` over its real socket, against clients that misbehave: each gets an error or
/// is disconnected, and the service, the user's speech and braille and the other clients keep
/// working; nothing already queued for the user is lost.
@Suite("tandem serve under bad input and load", .serialized)
struct ServeRobustnessTests {
    static let screen = #"{"type":"screen","screen":{"id":"list","focus":"title","root":{"id":"root","children":[{"id":"title","label":"Groceries","traits":["header"],"frame":[0,0,390,44]},{"id":"bread","label":"Bread","traits":["button"],"frame":[0,60,390,44]}]}}}"#

    /// A service with the grocery app connected and a controller.
    struct Scene {
        let serve: ServeProcess
        let app: RawSocketClient
        let controller: RawSocketClient

        init(extra: [String] = []) throws {
            serve = try ServeProcess(extra: extra)
            app = try serve.client()
            app.send(#"{"type":"hello","v":1,"role":"app","name":"Groceries"}"#)
            #expect(app.readLine()?.contains(#""type":"welcome""#) == true)
            app.send(ServeRobustnessTests.screen)
            controller = try serve.client()
            controller.send(#"{"type":"hello","v":1,"role":"controller"}"#)
            #expect(controller.readLine()?.contains(#""type":"welcome""#) == true)
        }

        /// A status round trip still works (the service and this client are fine).
        func alive(_ client: RawSocketClient? = nil, _ id: Int = 99) -> Bool {
            let c = client ?? controller
            c.send(#"{"type":"status","id":\#(id)}"#)
            return c.readLine(timeout: .seconds(10)) { $0.contains(#""type":"status""#) && $0.contains(#""id":\#(id)"#) } != nil
        }
    }

    @Test("malformed JSON gets an error naming its line; the same connection goes on")
    func malformedJSON() throws {
        let s = try Scene()
        s.controller.send(#"{"type":"command","command":"next""#)
        let error = s.controller.readLine()
        #expect(error?.hasPrefix(#"{"type":"error","error":"not valid JSON"#) == true && error?.contains(#""line":2"#) == true, "\(error ?? "nothing")")
        #expect(s.alive())
        #expect(s.serve.stop() == 0)
    }

    @Test("an unknown message type gets an error; an unknown version gets an error and the connection is closed")
    func unknownTypeAndVersion() throws {
        let s = try Scene()
        s.controller.send(#"{"type":"teleport","id":"x"}"#)
        #expect(s.controller.readLine()?.contains(#"unknown message type \"teleport\""#) == true)
        let newcomer = try s.serve.client()
        newcomer.send(#"{"type":"hello","v":9,"role":"controller"}"#)
        #expect(newcomer.readLine()?.contains("protocol version 9 is not spoken here (versions: 1)") == true)
        #expect(newcomer.isClosed())
        #expect(s.alive())
        #expect(s.serve.stop() == 0)
    }

    @Test("updates naming unknown nodes or making cycles are refused; the app's tree is as it was")
    func badUpdates() throws {
        let s = try Scene()
        s.app.send(#"{"type":"update","nodes":[{"id":"root","children":["title","ghost"]}]}"#)
        #expect(s.app.readLine { $0.contains(#""type":"error""#) }?.contains(#"\"ghost\", which is neither in the tree nor a node"#) == true)
        s.app.send(#"{"type":"update","nodes":[{"id":"title","children":["root"]}]}"#)
        #expect(s.app.readLine { $0.contains(#""type":"error""#) }?.contains("cannot be a child") == true)
        s.controller.send(#"{"type":"command","command":"last"}"#)
        s.controller.send(#"{"type":"status","id":1}"#)
        #expect(s.controller.readLine { $0.contains(#""type":"status""#) }?.contains(#""focus":"bread""#) == true, "the tree still has its two elements")
        #expect(s.serve.stop() == 0)
    }

    @Test("children edits naming unknown ids or places not in the list are refused whole, the connection stays; good ones apply")
    func badEdits() throws {
        let s = try Scene()
        func refusal() -> String? { s.app.readLine { $0.contains(#""type":"error""#) } }
        func focusAfterLast(_ id: Int) -> String? {
            s.controller.send(#"{"type":"command","command":"last"}"#)
            s.controller.send(#"{"type":"status","id":\#(id)}"#)
            return s.controller.readLine { $0.contains(#""type":"status""#) && $0.contains(#""id":\#(id)"#) }
        }
        // A good edit and a bad one in one update: neither is applied.
        s.app.send(#"{"type":"update","nodes":[{"id":"milk","label":"Milk","frame":[0,120,390,44]}],"edits":[{"parent":"root","insert":["milk"],"after":"bread"},{"parent":"root","remove":["ghost"]}]}"#)
        let first = refusal()
        #expect(first?.contains(#"edits[1].remove[0]: \"ghost\" is not a child of \"root\" (no element has that id)"#) == true && first?.contains(#""line":3"#) == true, "\(first ?? "nothing")")
        s.app.send(#"{"type":"update","nodes":[{"id":"milk","label":"Milk","frame":[0,120,390,44]}],"edits":[{"parent":"root","insert":["milk"],"after":"cheese"}]}"#)
        #expect(refusal()?.contains(#"edits[0].after: \"cheese\" is not a child of \"root\""#) == true)
        s.app.send(#"{"type":"update","edits":[{"parent":"root","insert":["ghost"]}]}"#)
        #expect(refusal()?.contains(#"edits[0].insert[0]: \"ghost\" is neither in the tree nor a node of this update"#) == true)
        s.app.send(#"{"type":"update","edits":[{"parent":"root","remove":["bread"],"after":"title"}]}"#)
        #expect(refusal()?.contains(#"edits[0].after: \"after\" and \"before\" place what an edit inserts"#) == true)
        #expect(focusAfterLast(1)?.contains(#""focus":"bread""#) == true, "the tree is as it was")
        // The connection stays: a good edit applies, and a removal by id.
        s.app.send(#"{"type":"update","nodes":[{"id":"milk","label":"Milk","frame":[0,120,390,44]}],"edits":[{"parent":"root","insert":["milk"],"after":"bread"}]}"#)
        #expect(focusAfterLast(2)?.contains(#""focus":"milk""#) == true, "milk is the last row")
        s.app.send(#"{"type":"update","edits":[{"parent":"root","remove":["milk"]}]}"#)
        #expect(focusAfterLast(3)?.contains(#""focus":"bread""#) == true, "milk is gone")
        #expect(s.serve.stop() == 0)
    }

    @Test("a line over the limit: an error, then the client is disconnected; others go on")
    func oversizeLine() throws {
        let s = try Scene()
        let huge = #"{"type":"notify","notification":"announcement","text":""# + String(repeating: "x", count: 1 << 20) + "\"}"
        let big = try s.serve.client()
        big.send(huge)
        #expect(big.readLine()?.contains("longer than the limit of 1048576 bytes") == true)
        #expect(big.isClosed())
        #expect(s.alive())
        #expect(s.serve.stop() == 0)
    }

    @Test("a client that sends half a line and stalls is dropped after the stall timeout; others go on")
    func halfLineStall() throws {
        let s = try Scene(extra: ["--stall-timeout", "300"])
        let stalled = try s.serve.client()
        stalled.write(Array(#"{"type":"hello","v":1,"ro"#.utf8))
        #expect(stalled.isClosed(within: .seconds(10)))
        #expect(s.alive())
        #expect(s.serve.stop() == 0)
    }

    @Test("a client that floods slows only itself: another client's round trip is answered meanwhile")
    func flood() throws {
        let s = try Scene()
        let flooder = try s.serve.client()
        flooder.send(#"{"type":"hello","v":1,"role":"controller"}"#)
        let writer = Thread {
            let line = Array(#"{"type":"command","command":"stop"}"#.utf8) + [10]
            var block: [UInt8] = []
            for _ in 0..<500 { block += line }
            for _ in 0..<100 { if !flooder.write(block) { return } }   // 50,000 commands
        }
        writer.start()
        for k in 0..<5 { #expect(s.alive(nil, k), "round trip \(k) during the flood") }
        #expect(s.serve.isRunning)
        #expect(s.serve.stop() == 0)
    }

    @Test("a client that never reads is disconnected once its queue is full; nobody waits for it")
    func neverReads() throws {
        let s = try Scene(extra: ["--max-queue", "65536"])
        let deaf = try s.serve.client()
        deaf.send(#"{"type":"hello","v":1,"role":"controller"}"#)
        deaf.send(#"{"type":"subscribe"}"#)
        // Lots of transcript for the subscriber, which never reads.
        for _ in 0..<400 { s.controller.send(#"{"type":"command","command":"next"}"#); s.controller.send(#"{"type":"command","command":"previous"}"#) }
        #expect(s.alive(), "the controller is answered while the subscriber's queue fills")
        #expect(deaf.isClosed(within: .seconds(20)), "the subscriber that does not read is dropped")
        #expect(s.alive(nil, 100))
        #expect(s.serve.stop() == 0)
    }

    @Test("an announcement queued for the user is still said when a bad client comes and goes")
    func nothingQueuedIsLost() throws {
        let s = try Scene()
        s.app.send(#"{"type":"notify","notification":"announcement","text":"Your order is on its way"}"#)
        let bad = try s.serve.client()
        bad.send("garbage")
        _ = bad.readLine()
        bad.write(Array(#"{"type":"he"#.utf8))
        withExtendedLifetime(bad) {}
        #expect(s.alive())
        // The service writes each batch's transcript lines as it goes: wait for the line, not a while.
        func said() -> Bool {
            s.serve.transcriptLines.contains { $0.contains(#""op":"speak""#) && $0.contains("Your order is on its way") }
        }
        #expect(waitUntil(timeout: .seconds(10), said), "the announcement is said while the service runs")
        #expect(s.serve.stop() == 0)
        #expect(said())
    }

    @Test("SIGTERM stops the service cleanly and removes its socket")
    func cleanStop() throws {
        let s = try Scene()
        #expect(s.serve.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: s.serve.socket))
        #expect(s.controller.isClosed(within: .seconds(5)))
    }
}
