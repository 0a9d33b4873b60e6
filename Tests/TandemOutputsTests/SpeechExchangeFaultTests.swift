import Synchronization
import Testing
import TandemOutputs
import TandemPolicy
import TandemTestSupport

/// More of the speech engine's recovery rules (Docs/speech.md#connection-handling) against a
/// fake daemon, on a clock that moves only when the test moves it: events ahead of their
/// reply, refusals, a connection closed while Tandem writes, a daemon that stops reading, no
/// daemon at all, a session that estimates durations, the voice after reconnecting, and a
/// stop while a reply is awaited.
@Suite("speech engine exchanges against a misbehaving daemon")
struct SpeechExchangeFaultTests {
    typealias Rig = SpeechFaultRig

    @Test("events that overtake the reply naming their message id wait for it: in reads of their own, and split inside a line")
    func eventsBeforeTheirReply() throws {
        let datas = Mutex(0)
        let rig = try Rig { c in
            guard c.line.hasPrefix("DATA ") else { return .normal }
            switch datas.withLock({ $0 += 1; return $0 }) {
            case 1: return .chunks(["701-1\r\n701-1\r\n701 BEGIN\r\n", "702-1\r\n702-1\r\n702 END\r\n", "225-1\r\n225 OK MESSAGE QUEUED\r\n"])
            default: return .chunks(["701-2\r\n70", "1-1\r\n701 BEGIN\r\n225-2\r\n225 OK MESSAGE QUEUED\r\n"])
            }
        }
        let a = rig.spoken("Quick")
        rig.say(a)
        #expect(rig.events == [.speechBegan(a.id), .speechEnded(a.id)], "begin and end, both read before the reply")
        rig.pass(rig.timing.startSettle)
        let b = rig.spoken("Quicker")
        rig.say(b)
        #expect(rig.events == [.speechBegan(a.id), .speechEnded(a.id), .speechBegan(b.id)])
        rig.event(702, "Quicker")
        #expect(rig.events == [.speechBegan(a.id), .speechEnded(a.id), .speechBegan(b.id), .speechEnded(b.id)])
        #expect(rig.statuses == [true])
    }

    @Test("a refused SPEAK (4xx) or text (3xx): that utterance is over, reported cancelled, never sent again; the connection and the queue go on")
    func refused() throws {
        let speaks = Mutex(0)
        let rig = try Rig { c in
            if c.line == "SPEAK", speaks.withLock({ $0 += 1; return $0 }) == 2 { return .chunks(["401 ERR REFUSED\r\n"]) }
            if c.line == "DATA Refused text" { return .chunks(["300 ERR INTERNAL\r\n"]) }
            return .normal
        }
        let zero = rig.spoken("Before", .announcement)
        let first = rig.spoken("Refused", .announcement)
        let second = rig.spoken("Second", .announcement)
        rig.say(zero)
        rig.say(first)
        rig.say(second)
        rig.event(701, "Before", component: "announcements")
        rig.pass(rig.timing.startSettle)
        #expect(rig.sent == ["Before"], "one kept message at a time")
        rig.event(702, "Before", component: "announcements")
        #expect(rig.events == [.speechBegan(zero.id), .speechEnded(zero.id), .speechCancelled(first.id)])
        #expect(rig.sent == ["Before", "Second"], "the queue moves on at once")
        rig.event(701, "Second", component: "announcements")
        rig.event(702, "Second", component: "announcements")
        rig.pass(rig.timing.startSettle)
        let t = rig.spoken("Refused text")
        rig.say(t)
        #expect(rig.events.suffix(3) == [.speechBegan(second.id), .speechEnded(second.id), .speechCancelled(t.id)])
        let u = rig.spoken("After")
        rig.say(u)
        rig.event(701, "After")
        #expect(rig.events.last == .speechBegan(u.id))
        #expect(rig.statuses == [true], "a refusal is not an outage")
        rig.pass(rig.timing.firstBackoff + rig.timing.startGate)
        #expect(rig.count("SPEAK") == 5 && rig.sent == ["Before", "Second", "Refused text", "After"], "nothing refused is tried again")
    }

    @Test("notices for a sound icon, for message ids Tandem never sent, and for an id no reply has named yet are passed over")
    func noticesNotTandemsArePassedOver() throws {
        let rig = try Rig()
        rig.output.emit(.sound(.boundary), at: 0)
        rig.settle()
        #expect(rig.count("SOUND_ICON boundary") == 1)
        rig.peer.event(701, message: 1, component: "sounds")
        rig.peer.event(702, message: 1, component: "sounds")
        rig.peer.event(701, message: 99)
        rig.peer.event(703, message: 99)
        // Read between commands, so not one that overtook its reply (those are read while the
        // reply is awaited): nothing of Tandem's, though the next message is given id 2.
        rig.peer.event(701, message: 2)
        rig.peer.event(702, message: 2)
        rig.settle()
        let a = rig.spoken("Mine")
        rig.say(a)
        #expect(rig.id("Mine") == 2, "the sound icon had message 1")
        #expect(rig.events.isEmpty, "the notices read before its reply are not taken for its own")
        rig.event(701, "Mine")
        rig.event(702, "Mine")
        #expect(rig.events == [.speechBegan(a.id), .speechEnded(a.id)])
        #expect(rig.statuses == [true])
    }

    @Test("a connection closed while Tandem writes the text: lost at once, the kept message said again whole once back")
    func closedWhileWritingText() throws {
        let rig = try Rig()
        rig.peer.script.withLock { $0 = { $0.line == "SPEAK" ? .thenClose("230 OK RECEIVING DATA\r\n") : .normal } }
        let m = rig.spoken("Whole message", .announcement)
        rig.say(m)
        #expect(rig.statuses == [true, false])
        #expect(rig.events.isEmpty, "the session still waits for it")
        rig.peer.script.withLock { $0 = { _ in .normal } }
        rig.pass(rig.timing.firstBackoff)
        #expect(rig.statuses == [true, false, true])
        #expect(rig.sent == ["Whole message"])
        rig.event(701, "Whole message", component: "announcements")
        rig.event(702, "Whole message", component: "announcements")
        #expect(rig.events == [.speechBegan(m.id), .speechEnded(m.id)])
    }

    @Test("a daemon that stops reading while Tandem writes a long text: emit still returns; the write waits for room until the reply timeout, the goodbye it cannot take at most goodbyeWrite; both kept messages said once it answers again")
    func stopsReading() throws {
        // Linux doubles a send buffer it is given and keeps it at least 4608 bytes: far less
        // than this text (about 7 000 bytes, Cyrillic letters take two).
        let rig = try Rig(sendBuffer: 1024)
        let long = Array(repeating: "Заказ подтверждён.", count: 200).joined(separator: " ")
        #expect(long.utf8.count > 4608 && long.count < 4000, "it fills the socket, and is not cut")
        rig.peer.script.withLock { $0 = { $0.line == "SPEAK" ? .thenHang("230 OK RECEIVING DATA\r\n") : .normal } }
        let first = rig.spoken(long, .announcement)
        rig.say(first)
        let second = rig.spoken("Второе сообщение", .announcement)
        rig.say(second)
        #expect(rig.statuses == [true], "the worker waits for room; the session goes on")
        rig.pass(rig.timing.replyTimeout - 10)
        #expect(rig.statuses == [true], "still waiting for room, 10 ms before the reply timeout")
        rig.pass(10 + rig.timing.goodbyeWrite - 10)
        #expect(rig.statuses == [true], "the CANCEL SELF that the full socket cannot take waits goodbyeWrite")
        rig.pass(10)
        #expect(rig.statuses == [true, false], "lost; no QUIT waits after the cancel was not taken")
        #expect(rig.log.statuses.last?.message.contains("does not read what Tandem sends") == true, "\(rig.log.statuses)")
        #expect(rig.events.isEmpty, "both are kept: the session still waits for them")
        rig.peer.script.withLock { $0 = { _ in .normal } }
        rig.pass(rig.timing.firstBackoff)
        #expect(rig.statuses == [true, false, true])
        #expect(rig.log.statuses.last?.message.contains("saying 2 kept messages again") == true, "\(rig.log.statuses)")
        #expect(rig.sent == [long], "the text the daemon never read, whole, first")
        rig.event(701, long, component: "announcements")
        rig.event(702, long, component: "announcements")
        #expect(rig.sent == [long, "Второе сообщение"])
        rig.event(701, "Второе сообщение", component: "announcements")
        rig.event(702, "Второе сообщение", component: "announcements")
        #expect(rig.events == [.speechBegan(first.id), .speechEnded(first.id), .speechBegan(second.id), .speechEnded(second.id)])
    }

    @Test("no daemon at all: one status; attempts 50 ms apart, doubling up to maxBackoff (2 s)")
    func noDaemonBackoffCapped() throws {
        let rig = try Rig(start: false)
        rig.peer.goAway()
        rig.start()
        #expect(rig.statuses == [false])
        #expect(rig.log.statuses.first?.message.contains("no speech-dispatcher at") == true, "\(rig.log.statuses)")
        // Attempts at 50, 150, 350, 750, 1550, 3150, 5150, 7150 ms (doubled: 6350 without the cap).
        rig.pass(5200, step: 50)
        try rig.peer.comeBack()
        rig.pass(7140 - 5200, step: 10)
        #expect(rig.peer.accepted == 0 && rig.statuses == [false], "no attempt between 5150 and 7150 ms")
        rig.pass(10)
        #expect(rig.peer.accepted == 5 && rig.statuses == [false, true])
    }

    @Test("a session that estimates durations is told real notices only, never an end the engine made up")
    func estimatingSessionHearsNoMadeUpEnd() throws {
        let rig = try Rig(sessionWaits: false)
        let a = rig.spoken("Heard")
        rig.say(a)
        rig.event(701, "Heard")
        rig.event(702, "Heard")
        #expect(rig.events == [.speechBegan(a.id), .speechEnded(a.id)])
        rig.pass(rig.timing.startSettle)
        rig.peer.script.withLock { $0 = { $0.line.hasPrefix("DATA ") ? .none : .normal } }
        rig.say(rig.spoken("Stale"))
        rig.pass(rig.timing.replyTimeout)
        #expect(rig.statuses == [true, false])
        #expect(rig.events == [.speechBegan(a.id), .speechEnded(a.id)], "its estimate ends it: a cancel now would cut it short")
    }

    @Test("a voice change reaches every connection, and the connections made after an outage")
    func voiceSurvivesReconnecting() throws {
        let rig = try Rig()
        rig.output.update(voice: .init(rate: 40))
        rig.settle()
        let set = { (from: Int) in rig.peer.commands.filter { $0.connection >= from && $0.line == "SET SELF RATE 40" }.count }
        #expect(set(0) == 5)
        rig.peer.goAway()
        rig.settle()
        try rig.peer.comeBack()
        rig.pass(rig.timing.firstBackoff)
        #expect(rig.statuses == [true, false, true])
        #expect(set(5) == 5, "the new connections open with the new rate")
    }

    @Test("stop while a reply is awaited returns without waiting for the reply timeout, and still says goodbye")
    func stopWhileAwaitingReply() throws {
        let rig = try Rig { $0.line.hasPrefix("DATA ") ? .none : .normal }
        rig.say(rig.spoken("Never answered"))
        let before = rig.clock.now()
        rig.say(rig.spoken("Waits behind it"))
        rig.output.emit(.speech(.speak(rig.spoken("And another"))), at: 0)
        // The clock never moves: without the stop pipe the worker could only leave its wait at
        // the reply timeout, which never comes.
        rig.output.stop()
        #expect(waitUntil { rig.count("QUIT") == 5 }, "the worker left its wait and said goodbye on every connection")
        #expect(rig.count("CANCEL SELF") == 5)
        #expect(rig.clock.now() == before)
        #expect(rig.sent == ["Never answered"])
    }
}
