import Foundation
import Synchronization
import Testing
import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemTestSupport

/// The speech engine's recovery rules (Docs/speech.md#connection-handling), each against a fake
/// speech-dispatcher that misbehaves as scripted, on a clock that moves only when the test
/// moves it: every timeout, backoff and gate is crossed exactly, and none is waited for.
@Suite("speech engine against a misbehaving daemon")
struct SpeechFaultTests {
    typealias Rig = SpeechFaultRig

    // MARK: the daemon behaves

    @Test("a daemon that behaves: each utterance goes out once, its begin and end come back under the session's id")
    func wellBehaved() throws {
        let rig = try Rig()
        #expect(rig.statuses == [true])
        let a = rig.spoken("Hello")
        rig.say(a)
        #expect(rig.sent == ["Hello"])
        rig.event(701, "Hello")
        rig.event(702, "Hello")
        #expect(rig.events == [.speechBegan(a.id), .speechEnded(a.id)])
    }

    // MARK: replies

    @Test("a reply that never comes: lost exactly at the reply timeout, the text reported cancelled, back after the first backoff")
    func replyNeverComes() throws {
        let rig = try Rig { $0.line.hasPrefix("DATA ") ? .none : .normal }
        let t = rig.spoken("Never queued")
        rig.say(t)
        rig.pass(rig.timing.replyTimeout - 10)
        #expect(rig.statuses == [true], "still waiting, 10 ms before the timeout")
        rig.pass(10)
        #expect(rig.statuses == [true, false])
        #expect(rig.log.statuses.last?.message.contains("stopped answering") == true, "\(rig.log.statuses)")
        #expect(rig.events == [.speechCancelled(t.id)], "text is stale after an outage: reported cancelled, never said again")
        rig.peer.script.withLock { $0 = { _ in .normal } }
        let before = rig.peer.accepted
        rig.pass(rig.timing.firstBackoff - 10)
        #expect(rig.peer.accepted == before, "no attempt before the backoff")
        rig.pass(10)
        #expect(rig.peer.accepted == before + 5 && rig.statuses == [true, false, true], "one connection per component")
        #expect(rig.sent == ["Never queued"], "not said again")
    }

    @Test("garbage before a reply is skipped; garbage instead of a reply is a timeout")
    func garbage() throws {
        let calls = Mutex(0)
        let rig = try Rig { c in
            guard c.line.hasPrefix("DATA ") else { return .normal }
            let n = calls.withLock { $0 += 1; return $0 }
            return n == 1 ? .chunks(["this is not SSIP\r\n\u{1}\u{2}junk\r\n9x9 no\r\n", "225-1\r\n225 OK MESSAGE QUEUED\r\n"])
                : .chunks(["garbage\r\n", "more garbage with no code\r\n"])
        }
        let a = rig.spoken("First")
        rig.say(a)
        rig.event(701, "First")
        rig.event(702, "First")
        #expect(rig.events == [.speechBegan(a.id), .speechEnded(a.id)], "the real reply after the junk was read")
        rig.pass(rig.timing.startSettle)
        rig.say(rig.spoken("Second"))
        #expect(rig.statuses == [true])
        rig.pass(rig.timing.replyTimeout)
        #expect(rig.statuses == [true, false])
    }

    @Test("a reply split across reads, inside its code and its lines, is one reply")
    func splitReply() throws {
        let rig = try Rig { $0.line.hasPrefix("DATA ") ? .chunks(["22", "5-", "1\r", "\n225 OK MES", "SAGE QUEUED\r\n"]) : .normal }
        let a = rig.spoken("Split")
        rig.say(a)
        rig.event(701, "Split")
        rig.event(702, "Split")
        #expect(rig.events == [.speechBegan(a.id), .speechEnded(a.id)])
        #expect(rig.statuses == [true])
    }

    @Test("a daemon that reads a byte at a time and answers a byte at a time is still understood")
    func slowPeer() throws {
        let rig = try Rig()
        rig.peer.slow.withLock { $0 = true }
        let a = rig.spoken("Slowly, but surely")
        rig.say(a)
        rig.event(701, "Slowly, but surely")
        rig.event(702, "Slowly, but surely")
        #expect(rig.events == [.speechBegan(a.id), .speechEnded(a.id)])
        #expect(rig.statuses == [true])
    }

    // MARK: connections

    @Test("a daemon that accepts and never answers: one status after the reply timeout, then retries by backoff, doubling")
    func acceptsAndNeverAnswers() throws {
        let rig = try Rig(start: false) { $0.line.hasPrefix("SET SELF CLIENT_NAME") ? .hang : .normal }
        rig.output.start(report: rig.log.reporter)
        rig.settle()
        #expect(rig.peer.accepted == 1 && rig.statuses.isEmpty, "the first attempt waits for its reply")
        rig.pass(rig.timing.replyTimeout)
        #expect(rig.statuses == [false])
        #expect(rig.log.statuses.first?.message.contains("did not answer") == true, "\(rig.log.statuses)")
        var accepted = 1
        for wait in [50, 100, 200, 400] {
            rig.pass(wait - 10)
            #expect(rig.peer.accepted == accepted, "no attempt before \(wait) ms")
            rig.pass(10)
            accepted += 1
            #expect(rig.peer.accepted == accepted, "an attempt after \(wait) ms")
            rig.pass(rig.timing.replyTimeout)
        }
        #expect(rig.statuses == [false], "reported once, not once per attempt")
    }

    @Test("a connection closed in the middle of a reply: lost at once; text cancelled; the kept message said again, its end under its own id")
    func closedMidReply() throws {
        let rig = try Rig()
        let m = rig.spoken("Kept message", .announcement)
        rig.say(m)
        rig.event(701, "Kept message", component: "announcements")
        rig.pass(rig.timing.startSettle)
        rig.peer.script.withLock { $0 = { $0.line.hasPrefix("DATA ") ? .thenClose("225-") : .normal } }
        let t = rig.spoken("Cut off")
        rig.say(t)
        #expect(rig.statuses == [true, false])
        #expect(rig.log.statuses.last?.message.contains("lost speech-dispatcher") == true, "\(rig.log.statuses)")
        #expect(rig.events == [.speechBegan(m.id), .speechCancelled(t.id)])
        rig.peer.script.withLock { $0 = { _ in .normal } }
        rig.pass(rig.timing.firstBackoff)
        #expect(rig.statuses == [true, false, true])
        #expect(rig.log.statuses.last?.message.contains("saying 1 kept message again") == true, "\(rig.log.statuses)")
        #expect(rig.sent == ["Kept message", "Cut off", "Kept message"])
        rig.event(701, "Kept message", component: "announcements")
        rig.event(702, "Kept message", component: "announcements")
        #expect(rig.events == [.speechBegan(m.id), .speechCancelled(t.id), .speechBegan(m.id), .speechEnded(m.id)])
    }

    // MARK: the start gate

    @Test("the start gate: a job waits until the last message began (at most startGate), then startSettle more")
    func startGate() throws {
        let rig = try Rig()
        rig.say(rig.spoken("One"))
        rig.say(rig.spoken("Two"))
        #expect(rig.sent == ["One"], "Two waits while One has not begun")
        rig.pass(rig.timing.startGate - 10)
        #expect(rig.sent == ["One"])
        rig.pass(10)
        #expect(rig.sent == ["One", "Two"], "no begin within the gate: Two goes anyway")
        rig.event(701, "Two")
        rig.say(rig.spoken("Three"))
        #expect(rig.sent == ["One", "Two"], "Two began just now: the module may still be starting")
        rig.pass(rig.timing.startSettle)
        #expect(rig.sent == ["One", "Two", "Three"])
    }

    @Test("the start gate coalesces: an utterance cancelled while it waited is never sent")
    func startGateCoalesces() throws {
        let rig = try Rig()
        rig.say(rig.spoken("Value 1"))
        let two = rig.spoken("Value 2")
        rig.say(two)
        rig.cancel(two)
        rig.say(rig.spoken("Value 3"))
        rig.pass(rig.timing.startGate)
        #expect(rig.sent == ["Value 1", "Value 3"])
        #expect(rig.count("CANCEL SELF") == 0, "nothing to cancel at the daemon: it never had Value 2")
    }

    // MARK: cancel repair

    @Test("cancel repair: a CANCEL without its notice is sent again after cancelConfirm, up to three in all")
    func cancelRepairedWhenUnconfirmed() throws {
        let rig = try Rig()
        let a = rig.spoken("Long text")
        rig.say(a)
        rig.event(701, "Long text")
        rig.pass(rig.timing.startSettle)
        rig.cancel(a)
        #expect(rig.count("CANCEL SELF") == 1)
        rig.pass(rig.timing.cancelConfirm - 10)
        #expect(rig.count("CANCEL SELF") == 1)
        rig.pass(10)
        #expect(rig.count("CANCEL SELF") == 2, "no notice within cancelConfirm: sent again")
        rig.pass(rig.timing.cancelConfirm * 3)
        #expect(rig.count("CANCEL SELF") == 3, "three in all, then no more")
        rig.event(703, "Long text")
        #expect(rig.events == [.speechBegan(a.id), .speechCancelled(a.id)])
    }

    @Test("cancel repair: a message that begins after its cancel is cancelled again, and what went out after it is sent again")
    func cancelRepairedWhenItBeganLater() throws {
        let rig = try Rig()
        let a = rig.spoken("Slow to start")
        rig.say(a)
        rig.pass(rig.timing.startGate)
        rig.cancel(a)
        #expect(rig.count("CANCEL SELF") == 1)
        let b = rig.spoken("After it")
        rig.say(b)
        #expect(rig.sent == ["Slow to start", "After it"])
        rig.event(701, "Slow to start")
        #expect(rig.count("CANCEL SELF") == 2, "it began after the cancel: the cancel was lost")
        #expect(rig.sent == ["Slow to start", "After it", "After it"], "the second CANCEL SELF took After it too: sent again")
    }

    // MARK: the kept-message queue

    @Test("kept messages go out one at a time, in order, each once the one before ended")
    func keptQueue() throws {
        let rig = try Rig()
        let one = rig.spoken("Message one", .announcement)
        let two = rig.spoken("Message two", .announcement)
        rig.say(one)
        rig.say(two)
        rig.pass(rig.timing.startGate)
        #expect(rig.sent == ["Message one"])
        rig.event(701, "Message one", component: "announcements")
        rig.event(702, "Message one", component: "announcements")
        #expect(rig.sent == ["Message one", "Message two"])
    }

    // MARK: the outage hold

    @Test("the outage hold: the session waits for a kept message holdLimit long, then is released; it is still said once the daemon is back")
    func outageHold() throws {
        let rig = try Rig()
        let m = rig.spoken("Order placed", .announcement)
        rig.say(m)
        rig.peer.goAway()
        rig.settle()
        #expect(rig.statuses == [true, false])
        rig.pass(rig.timing.holdLimit - 10)
        #expect(rig.events.isEmpty, "the session still waits for it")
        rig.pass(10)
        #expect(rig.events == [.speechCancelled(m.id)], "released")
        try rig.peer.comeBack()
        rig.pass(rig.timing.maxBackoff)
        #expect(rig.statuses == [true, false, true])
        #expect(rig.sent == ["Order placed", "Order placed"], "said again once back")
    }

    // MARK: watchdogs

    @Test("a message that never begins while nothing speaks: lost at beginTimeout")
    func neverBegins() throws {
        let rig = try Rig()
        rig.say(rig.spoken("Stuck"))
        rig.pass(rig.timing.beginTimeout - 10)
        #expect(rig.statuses == [true])
        #expect(rig.count("GET RATE") >= 1, "asked after keepAlive of silence")
        rig.pass(10)
        #expect(rig.statuses == [true, false])
        #expect(rig.log.statuses.last?.message.contains("has not begun") == true, "\(rig.log.statuses)")
    }

    @Test("silence during speech: GET RATE after keepAlive; no answer within the reply timeout is an outage")
    func keepAlive() throws {
        let rig = try Rig { $0.line == "GET RATE" ? .none : .normal }
        rig.say(rig.spoken("Speaking a while"))
        rig.event(701, "Speaking a while")
        rig.pass(rig.timing.keepAlive - 10)
        #expect(rig.count("GET RATE") == 0)
        rig.pass(10)
        #expect(rig.count("GET RATE") == 1)
        rig.pass(rig.timing.replyTimeout)
        #expect(rig.statuses == [true, false])
    }

    // MARK: stopping

    @Test("stop: CANCEL SELF and QUIT on every connection, nothing reported after")
    func stopSaysGoodbye() throws {
        let rig = try Rig()
        rig.say(rig.spoken("Bye"))
        rig.output.stop()
        waitUntil { rig.count("QUIT") == 5 }
        #expect(rig.count("CANCEL SELF") == 5 && rig.count("QUIT") == 5)
        let before = rig.log.all.count
        rig.peer.event(702, message: 1)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(rig.log.all.count == before)
    }
}
