import Foundation
import Synchronization
import Testing
import TandemOutputs
import TandemPresentation
import TandemTestSupport

/// The braille worker's recovery rules (Docs/braille.md#recovery), each against a fake BRLTTY
/// that misbehaves as scripted, through the real libbrlapi, on a clock that moves only when
/// the test moves it: every backoff, pacing interval and timeout is crossed exactly, and none
/// is waited for.
@Suite("braille worker against a misbehaving BRLTTY")
struct BrailleFaultTests {
    typealias Packet = FakeBrlAPIPacket

    /// A braille output on a `ManualClock`, talking to a `FakeBrlAPIPeer`.
    final class Rig: @unchecked Sendable {
        let peer: FakeBrlAPIPeer
        let clock = ManualClock()
        let log = OutputEventLog()
        let output: BrlAPIOutput
        let settings: BrlAPIOutput.Settings

        init(start: Bool = true, settings: BrlAPIOutput.Settings = .init(), receiveBuffer: Int32? = nil,
             _ configure: (FakeBrlAPIPeer) -> Void = { _ in }) throws {
            peer = try FakeBrlAPIPeer(receiveBuffer: receiveBuffer)
            configure(peer)
            self.settings = settings
            output = BrlAPIOutput(host: peer.host, auth: "none", acceptedCommands: ["LNDN", "ROUTE"], settings: settings)
            output.clock = clock
            if start { self.start() }
        }

        func start() {
            output.start(report: log.reporter)
            settle()
        }

        deinit {
            output.stop()
            peer.stop()
        }

        /// Waits until the peer has answered what it was sent and the worker has handled it.
        /// False when the worker never came back to wait on its clock (it is stuck).
        @discardableResult
        func settle() -> Bool {
            waitUntil { !peer.pending }
            let idle = clock.waitUntilIdle()
            waitUntil { !peer.pending }
            return clock.waitUntilIdle() && idle
        }

        /// Moves the clock on by `ms`, handling each 10 ms.
        func pass(_ ms: Int) {
            var left = ms
            while left > 0 {
                settle()
                let d = min(10, left)
                clock.advance(milliseconds: d)
                left -= d
            }
            settle()
        }

        /// Shows a frame of `cells` with the cursor on `cursor`.
        @discardableResult
        func show(_ cells: [Cell], cursor: Int? = nil, text: String = "frame") -> BrailleFrame {
            let frame = BrailleFrame(text: text, cells: cells, cursor: cursor, window: 0, windowCount: 1, flash: false)
            output.emit(.braille(frame), at: 0)
            settle()
            return frame
        }

        var statuses: [Bool] { log.statuses.map(\.available) }
        /// Waits until the statuses reported are `expected` (a bound on a failing test, not a
        /// timing assertion: what follows a connection is reported from the worker's thread).
        func reported(_ expected: [Bool]) -> Bool { log.wait { _ in statuses == expected } }
        /// Waits until `count` writes have reached the peer.
        func written(_ count: Int) -> Bool { waitUntil { writes.count == count } }
        var lastMessage: String { log.statuses.last?.message ?? "" }
        var sizes: [Int] { log.all.compactMap { if case .displaySize(let c) = $0 { c } else { nil } } }
        var writes: [FakeBrlAPIPeer.Write] { peer.writes }
        var answerTimeout: Int { Int((settings.answerTimeout / .milliseconds(1)).rounded()) }
    }

    /// Settings whose answer timeout is short, for tests that cross it more than once.
    static var quick: BrlAPIOutput.Settings {
        var s = BrlAPIOutput.Settings()
        s.answerTimeout = .milliseconds(200)
        return s
    }

    static func padded(_ cells: [Cell], to width: Int = 40) -> [Cell] {
        cells + [Cell](repeating: 0, count: width - cells.count)
    }

    // MARK: connecting

    @Test("connecting: the handshake libbrlapi makes, the display's size reported, the frame written at its width with its cursor")
    func connects() throws {
        let rig = try Rig(start: false)
        let frame = BrailleFrame(text: "Save", cells: [1, 2, 3], cursor: 1, window: 0, windowCount: 1, flash: false)
        rig.output.emit(.braille(frame), at: 0)
        rig.start()
        #expect(rig.reported([true]))
        #expect(rig.written(1))
        #expect(rig.lastMessage.contains("40 cells"), "\(rig.lastMessage)")
        #expect(rig.sizes == [40])
        // BrlAPIConnection.open: version, the size watch, the size, TTY mode, every key
        // ignored, then the key map's plain commands and its block commands accepted.
        #expect(rig.peer.requestNames == ["version", "paramRequest", "getDisplaySize", "enterTtyMode", "ignoreKeys", "acceptKeys", "acceptKeys", "write"])
        #expect(rig.writes.count == 1)
        #expect(rig.writes.first?.cells == Self.padded([1, 2, 3]), "exactly the display's width")
        #expect(rig.writes.first?.cursor == 2, "BrlAPI's cursor is 1-based")
        #expect(rig.writes.first?.text == unicodeBraille(Self.padded([1, 2, 3])), "the same dots as Unicode braille")
    }

    @Test("every reply split across reads, the version packet too, is still understood")
    func splitReplies() throws {
        let rig = try Rig { peer in
            peer.greeting.withLock { $0 = .pieces(3) }
            peer.script.withLock { $0 = { _ in .pieces(5) } }
        }
        #expect(rig.reported([true]))
        rig.show([7, 7])
        #expect(rig.written(1))
        #expect(rig.writes.last?.cells == Self.padded([7, 7]))
    }

    // MARK: the open fault: a BRLTTY that accepts and never answers

    @Test("accepts and never answers: given up at the answer timeout (not 10 ms before), retried by backoff, connected once it answers")
    func acceptsAndNeverAnswers() throws {
        let rig = try Rig(start: false, settings: Self.quick) { $0.greeting.withLock { $0 = .silence } }
        rig.output.start(report: rig.log.reporter)
        // Without a deadline of its own, the worker would sit inside libbrlapi's poll(-1) for
        // the version packet, never coming back to its clock.
        guard rig.settle() else {
            Issue.record("the worker is stuck inside libbrlapi waiting for BRLTTY's first packet")
            return
        }
        #expect(waitUntil { rig.peer.accepted == 1 } && rig.statuses.isEmpty, "the first attempt waits for its answer")
        rig.pass(rig.answerTimeout - 10)
        #expect(rig.statuses.isEmpty, "still waiting, 10 ms before the timeout")
        rig.pass(10)
        #expect(rig.reported([false]))
        #expect(rig.lastMessage.contains("did not answer within \(rig.answerTimeout) ms"), "\(rig.lastMessage)")
        #expect(waitUntil { rig.peer.closedByClient == 1 }, "the abandoned connection is closed")
        for (n, wait) in [50, 100].enumerated() {
            rig.pass(wait - 10)
            #expect(rig.peer.accepted == n + 1, "no attempt before \(wait) ms")
            rig.pass(10)
            #expect(waitUntil { rig.peer.accepted == n + 2 }, "an attempt after \(wait) ms")
            rig.pass(rig.answerTimeout)
        }
        #expect(rig.statuses == [false], "reported once, not once per attempt")
        rig.peer.greeting.withLock { $0 = .version }
        rig.pass(200)
        #expect(rig.reported([false, true]))
        #expect(waitUntil { rig.peer.closedByClient == 3 }, "every abandoned connection is closed")
    }

    @Test("a request in the handshake that is never answered is the same timeout", arguments: ["getDisplaySize", "enterTtyMode", "paramRequest", "acceptKeys"])
    func handshakeRequestNeverAnswered(request: String) throws {
        let rig = try Rig(start: false, settings: Self.quick) { peer in
            peer.script.withLock { $0 = { r in r.name == request && r.connection == 0 ? .none : .normal } }
        }
        rig.output.start(report: rig.log.reporter)
        guard rig.settle() else {
            Issue.record("the worker is stuck inside libbrlapi waiting for the answer to \(request)")
            return
        }
        #expect(rig.statuses.isEmpty)
        rig.pass(rig.answerTimeout)
        #expect(rig.reported([false]), "\(rig.log.statuses)")
        rig.pass(50)
        #expect(rig.reported([false, true]), "the second connection is answered")
        #expect(rig.sizes == [40])
    }

    @Test("stopping while BRLTTY has not answered ends the attempt and closes its connection")
    func stopWhileConnecting() throws {
        let rig = try Rig(start: false) { $0.greeting.withLock { $0 = .silence } }
        rig.output.start(report: rig.log.reporter)
        rig.settle()
        #expect(waitUntil { rig.peer.accepted == 1 })
        rig.output.stop()
        #expect(waitUntil { rig.peer.closedByClient == 1 }, "the half-open connection is closed")
        #expect(rig.log.statuses.isEmpty, "nothing reported after stop")
    }

    // MARK: replies that are wrong

    @Test("a connection closed in the middle of the authentication packet: refused, retried, and its socket closed")
    func closedMidMessage() throws {
        let rig = try Rig { peer in
            peer.script.withLock { $0 = { r in r.name == "version" && r.connection < 3 ? .closeAfter(6) : .normal } }
        }
        #expect(rig.reported([false]))
        rig.pass(50 + 100 + 200)
        #expect(rig.reported([false, true]))
        // libbrlapi returns from a failed wait for the auth packet without closing its socket.
        #expect(waitUntil { rig.peer.closedByClient == 3 }, "\(rig.peer.closedByClient) of the 3 failed connections closed")
    }

    @Test("garbage instead of the version packet: a packet of another type is skipped and waited past; a wrong protocol version is refused at once")
    func garbageGreeting() throws {
        let other = try Rig(settings: Self.quick) { $0.greeting.withLock { $0 = .bytes(Packet.make(Packet.letter("x"), [1, 2, 3])) } }
        #expect(other.statuses.isEmpty)
        other.pass(other.answerTimeout - 10)
        #expect(other.statuses.isEmpty)
        other.pass(10)
        #expect(other.reported([false]))

        let old = try Rig { $0.greeting.withLock { $0 = .bytes(Packet.make(Packet.version, Packet.uint32(7))) } }
        #expect(old.reported([false]))
        #expect(old.lastMessage.contains("Bad protocol version"), "\(old.lastMessage)")
    }

    @Test("an error in answer to TTY mode: refused with BrlAPI's reason, retried by backoff")
    func errorAnswer() throws {
        let rig = try Rig { peer in
            peer.script.withLock { $0 = { r in r.name == "enterTtyMode" && r.connection == 0 ? .error(Packet.Error.ttyBusy) : .normal } }
        }
        #expect(rig.reported([false]))
        #expect(rig.lastMessage.contains("refused the display") && rig.lastMessage.contains("busy"), "\(rig.lastMessage)")
        rig.pass(50)
        #expect(rig.reported([false, true]))
    }

    @Test("a packet of no known type while connected is ignored; keys after it arrive")
    func garbageWhileConnected() throws {
        let rig = try Rig()
        rig.peer.send(Packet.make(Packet.letter("x"), [9, 9, 9, 9]))
        rig.settle()
        rig.peer.press("LNDN")
        #expect(rig.log.wait { _ in rig.log.brailleCommands == ["LNDN"] })
        #expect(rig.statuses == [true])
    }

    @Test("an exception (BRLTTY faults a write and closes): lost, reconnected after 50 ms, the frame written again")
    func exception() throws {
        let rig = try Rig()
        rig.show([1, 2])
        #expect(rig.written(1))
        rig.peer.send(Packet.exception(code: Packet.Error.invalidParameter, type: Packet.write))
        #expect(rig.reported([true, false]))
        #expect(rig.lastMessage.contains("BrlAPI exception"), "\(rig.lastMessage)")
        rig.pass(50)
        #expect(rig.reported([true, false, true]))
        #expect(rig.written(2))
        #expect(rig.writes.map(\.connection) == [0, 1])
        #expect(rig.writes.last?.cells == Self.padded([1, 2]))
    }

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
        #expect(rig.writes.last?.cells == Self.padded([4, 2]))
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
        #expect(rig.writes.last?.cells == Self.padded([7]))
    }

    // MARK: a BRLTTY that stops reading

    @Test("a BRLTTY that stops reading: the worker never blocks on a full socket; lost after the answer timeout, then connected again")
    func stopsReading() throws {
        var settings = BrlAPIOutput.Settings()
        settings.minimumWriteInterval = .zero
        let rig = try Rig(settings: settings, receiveBuffer: 4096)
        #expect(rig.reported([true]))
        // 600 cells: each write is about 3.6 KB, so the socket fills up after a few dozen.
        rig.peer.announce(columns: 600)
        #expect(rig.log.wait { _ in rig.sizes == [40, 600] })
        rig.settle()
        rig.peer.setReading(false)
        // A new frame every 10 ms; once the socket is full the worker keeps the newest and
        // waits for room, at most the answer timeout.
        for i in 0..<2_000 where rig.statuses == [true] {
            let frame = BrailleFrame(text: "\(i)", cells: [Cell(i % 255 + 1)], cursor: nil, window: 0, windowCount: 1, flash: false)
            rig.output.emit(.braille(frame), at: 0)
            rig.clock.advance(milliseconds: 10)
            guard rig.clock.waitUntilIdle(timeout: .seconds(2)) else {
                Issue.record("the worker is stuck writing to a socket nobody reads (frame \(i), \(rig.writes.count) written)")
                return
            }
        }
        #expect(rig.reported([true, false]), "\(rig.log.statuses)")
        #expect(rig.lastMessage.contains("stopped reading"), "\(rig.lastMessage)")
        rig.pass(50)
        #expect(rig.reported([true, false, true]))
    }
}
