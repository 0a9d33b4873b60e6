import Foundation
import Synchronization
import Testing
import TandemOutputs
import TandemPresentation
import TandemTestSupport

/// The braille worker's rules for writing, keys, reconnecting and the display
/// (Docs/braille.md#recovery), against a fake BRLTTY through the real libbrlapi, on a clock
/// that moves only when the test moves it: every pacing interval and backoff is crossed
/// exactly, and none is waited for.
@Suite("braille worker's rules on a fake BRLTTY")
struct BrailleWorkerRuleTests {
    typealias Rig = BrailleFaultRig
    typealias Packet = FakeBrlAPIPacket

    // MARK: writing

    @Test("frames closer than the pacing interval: only the newest is written, when the interval ends")
    func pacing() throws {
        let rig = try Rig()
        rig.show([1])
        #expect(rig.written(1), "the first frame at once")
        rig.show([2])
        rig.pass(20)
        rig.show([3])
        rig.pass(10)
        #expect(rig.writes.count == 1, "10 ms before the interval ends")
        rig.pass(10)
        #expect(rig.written(2))
        #expect(rig.writes.map { $0.cells.first } == [1, 3], "the newest frame, never the stale one")
        rig.pass(100)
        rig.show([4])
        #expect(rig.written(3), "after a pause, at once")
    }

    @Test("the same frame is not written twice")
    func unchangedFrame() throws {
        let rig = try Rig()
        rig.show([5])
        #expect(rig.written(1))
        rig.pass(100)
        rig.settle()
        #expect(rig.writes.count == 1)
    }

    // MARK: keys

    @Test("keys arrive as BRLTTY command names, a routing key with its cell")
    func keys() throws {
        let rig = try Rig()
        rig.peer.press("LNDN")
        rig.peer.press("ROUTE", argument: 5)
        #expect(rig.log.wait { _ in rig.log.brailleCommands == ["LNDN", "ROUTE 5"] }, "\(rig.log.brailleCommands)")
    }

    @Test("half a key packet leaves the worker free: frames are written meanwhile; the key arrives with its rest")
    func halfAKey() throws {
        let rig = try Rig()
        rig.show([1])
        #expect(rig.written(1))
        let key = Packet.key(BrailleKeyCodes.code(forCommand: "LNDN")!.code)
        rig.peer.send(Array(key.prefix(5)))
        rig.pass(50)
        rig.show([2])
        #expect(rig.written(2), "the frame written while the key is half there")
        rig.peer.send(Array(key.dropFirst(5)))
        #expect(rig.log.wait { _ in rig.log.brailleCommands == ["LNDN"] })
        #expect(rig.statuses == [true])
    }

    // MARK: BRLTTY lost and back

    @Test("BRLTTY lost: reported once; retried after 50, 100, 200, 400, 800, 1000, 1000 ms; back: reported, size told, the current frame written again at once")
    func lostAndBack() throws {
        let rig = try Rig()
        rig.show([4, 2])
        #expect(rig.written(1))
        rig.peer.goAway()
        // Every attempt while it is away is accepted and refused (a protocol BrlAPI does not
        // speak), so each one can be counted.
        rig.peer.greeting.withLock { $0 = .bytes(Packet.make(Packet.version, Packet.uint32(7))) }
        try rig.peer.comeBack()
        rig.settle()
        #expect(rig.reported([true, false]))
        #expect(rig.lastMessage.contains("lost"), "\(rig.lastMessage)")
        for (n, wait) in [50, 100, 200, 400, 800, 1000, 1000].enumerated() {
            rig.pass(wait - 10)
            #expect(rig.peer.accepted == n + 1, "no attempt before \(wait) ms")
            rig.pass(10)
            #expect(waitUntil { rig.peer.accepted == n + 2 }, "an attempt after \(wait) ms")
        }
        #expect(rig.statuses == [true, false], "one status, not one per attempt")
        rig.peer.greeting.withLock { $0 = .version }
        rig.pass(1000)
        #expect(rig.reported([true, false, true]))
        #expect(rig.written(2), "the unchanged frame written again: BRLTTY keeps nothing for a new client")
        #expect(rig.writes.last?.cells == Rig.padded([4, 2]))
        #expect(rig.sizes == [40, 40])
        rig.peer.press("LNDN")
        #expect(rig.log.wait { _ in rig.log.brailleCommands == ["LNDN"] }, "keys on the new connection")
    }

    @Test("a frame shown while BRLTTY is away is the one written when it is back")
    func frameWhileAway() throws {
        let rig = try Rig()
        rig.show([1])
        #expect(rig.written(1))
        rig.peer.goAway()
        #expect(rig.reported([true, false]))
        rig.show([2])
        rig.show([3])
        try rig.peer.comeBack()
        rig.pass(50)
        #expect(rig.reported([true, false, true]))
        #expect(rig.written(2))
        #expect(rig.writes.map { $0.cells.first } == [1, 3])
    }

    // MARK: the display

    @Test("another display of another width: reported, TTY mode entered again, the current frame cut to it")
    func widthChange() throws {
        let rig = try Rig()
        rig.show(Array(repeating: 1, count: 30))
        #expect(rig.written(1))
        let before = rig.peer.requests.count
        rig.peer.announce(columns: 20)
        rig.settle()
        rig.pass(40)
        #expect(rig.sizes == [40, 20])
        #expect(rig.peer.requestNames.dropFirst(before) == ["leaveTtyMode", "getDisplaySize", "enterTtyMode", "ignoreKeys", "acceptKeys", "acceptKeys", "write"])
        #expect(rig.written(2))
        #expect(rig.writes.last?.cells == Array(repeating: 1, count: 20))
        #expect(rig.statuses == [true])
    }

    @Test("the display unplugged (size 0): unavailable; plugged in again: available, the frame written again")
    func displayGoneAndBack() throws {
        let rig = try Rig()
        rig.show([6])
        #expect(rig.written(1))
        rig.peer.announce(columns: 0)
        #expect(rig.reported([true, false]))
        #expect(rig.lastMessage.contains("no display"), "\(rig.lastMessage)")
        rig.show([7])
        #expect(rig.writes.count == 1, "nothing written to no display")
        rig.peer.announce(columns: 40)
        rig.pass(50)
        #expect(rig.reported([true, false, true]))
        #expect(rig.written(2))
        #expect(rig.writes.last?.cells == Rig.padded([7]))
    }

    @Test("a display changed while TTY mode is being entered is not missed")
    func sizeChangeWhileConnecting() throws {
        let rig = try Rig(start: false) { peer in
            // The announcement comes between the size's answer and TTY mode's.
            peer.script.withLock { $0 = { [weak peer] r in
                guard r.name == "enterTtyMode", r.connection == 0, let peer else { return .normal }
                peer.columns.withLock { $0 = 20 }
                return .bytes(Packet.sizeUpdate(columns: 20) + Packet.make(Packet.ack, []))
            } }
        }
        rig.show([3])
        rig.start()
        #expect(rig.reported([true]))
        #expect(rig.log.wait { _ in rig.sizes == [40, 20] }, "\(rig.sizes)")
        rig.pass(40)
        #expect(waitUntil { rig.writes.last?.cells.count == 20 }, "\(rig.writes)")
    }
}
