import Foundation
import Synchronization
import TandemVocabulary
import Testing
import TandemOutputs
import TandemPresentation
import TandemTestSupport

/// The braille worker against a fake BRLTTY that misbehaves as scripted (Docs/braille.md#recovery),
/// through the real libbrlapi, on a clock that moves only when the test moves it: every
/// timeout and backoff is crossed exactly, and none is waited for.
@Suite("braille worker against a misbehaving BRLTTY")
struct BrailleFaultTests {
    typealias Rig = BrailleFaultRig
    typealias Packet = FakeBrlAPIPacket

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
        #expect(rig.writes.first?.cells == Rig.padded([1, 2, 3]), "exactly the display's width")
        #expect(rig.writes.first?.cursor == 2, "BrlAPI's cursor is 1-based")
        #expect(rig.writes.first?.text == unicodeBraille(Rig.padded([1, 2, 3])), "the same dots as Unicode braille")
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
        #expect(rig.writes.last?.cells == Rig.padded([7, 7]))
    }

    // MARK: the open fault: a BRLTTY that accepts and never answers

    @Test("accepts and never answers: given up at the answer timeout (not 10 ms before), retried by backoff, connected once it answers")
    func acceptsAndNeverAnswers() throws {
        let rig = try Rig(start: false, settings: Rig.quick) { $0.greeting.withLock { $0 = .silence } }
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
        let rig = try Rig(start: false, settings: Rig.quick) { peer in
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
        let other = try Rig(settings: Rig.quick) { $0.greeting.withLock { $0 = .bytes(Packet.make(Packet.letter("x"), [1, 2, 3])) } }
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
        #expect(rig.writes.last?.cells == Rig.padded([1, 2]))
    }

    // MARK: stopping

    @Test("stop: the size watch removed while BRLTTY answers, then the connection closed")
    func goodbye() throws {
        let rig = try Rig()
        #expect(rig.reported([true]))
        rig.output.stop()
        #expect(waitUntil { rig.peer.closedByClient == 1 })
        let last = try #require(rig.peer.requests.last)
        #expect(last.name == "paramRequest")
        #expect((Packet.decodeParamRequest(last.payload)?.flags ?? 0) & Packet.paramUnsubscribe != 0, "an unsubscription")
    }

    @Test("stop when BRLTTY does not answer the goodbye: given up after half the stop timeout, the connection still closed")
    func goodbyeNeverAnswered() throws {
        let rig = try Rig { peer in
            peer.script.withLock { $0 = { r in
                let flags = Packet.decodeParamRequest(r.payload)?.flags ?? 0
                return r.name == "paramRequest" && flags & Packet.paramUnsubscribe != 0 ? .none : .normal
            } }
        }
        #expect(rig.reported([true]))
        let output = rig.output
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            output.stop()
            stopped.signal()
        }
        #expect(waitUntil { rig.peer.requests.count == 8 }, "the goodbye was sent: \(rig.peer.requestNames)")
        rig.pass(490)
        #expect(rig.peer.closedByClient == 0, "still waiting for the answer, 10 ms before")
        rig.pass(10)
        #expect(waitUntil { rig.peer.closedByClient == 1 }, "the connection closed without the answer")
        #expect(stopped.wait(timeout: .now() + 5) == .success)
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
