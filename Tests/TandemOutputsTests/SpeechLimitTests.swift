import Testing
import TandemOutputs
import TandemPolicy
import TandemTestSupport

/// The speech engine's limits (Docs/speech.md#connection-handling): speech far too long, the
/// kept-message queue's `maxKept`, cancels whose notice never comes, and a message that hangs
/// the output module (`maxHangs`) — on a fake daemon and a clock that moves only when the test
/// moves it.
@Suite("speech engine limits against a fake daemon")
struct SpeechLimitTests {
    typealias Rig = SpeechFaultRig

    @Test("speech far too long: lost at longestSpeech plus longestSpeechPerCharacter for each character, though the keep-alive is answered")
    func longSpeech() throws {
        var timing = SpeechDispatcherOutput.Timing()
        timing.longestSpeech = 1000
        timing.longestSpeechPerCharacter = 100
        let rig = try Rig(timing: timing)
        let t = rig.spoken("Long")
        rig.say(t)
        rig.event(701, "Long")
        let limit = 1000 + 100 * 4
        rig.pass(limit - 10)
        #expect(rig.statuses == [true], "10 ms before the limit of a 4-character text")
        #expect(rig.count("GET RATE") == 1, "the daemon answers the keep-alive: only the length gives the hang away")
        rig.pass(10)
        #expect(rig.statuses == [true, false])
        #expect(rig.log.statuses.last?.message.contains("far longer than it could take") == true, "\(rig.log.statuses)")
        #expect(rig.events == [.speechBegan(t.id), .speechCancelled(t.id)], "text is stale after the outage")
        waitUntil { rig.count("QUIT") == 5 }
        #expect(rig.count("CANCEL SELF") == 5 && rig.count("QUIT") == 5, "a daemon that was only stuck drops what it queued")
    }

    @Test("more than maxKept waiting while connected: the oldest not yet sent is given up, reported cancelled and in a status")
    func keptOverflowConnected() throws {
        let rig = try Rig()
        let all = (1...66).map { rig.spoken("Message \($0)", .announcement) }
        for m in all { rig.output.emit(.speech(.speak(m)), at: 0) }
        rig.settle()
        rig.pass(rig.timing.startGate)
        #expect(rig.sent == ["Message 1"], "one at a time")
        #expect(rig.events == [.speechCancelled(all[1].id), .speechCancelled(all[2].id)],
                "Message 1 is out; 65 wait for one of 64 places: 2 and 3, the oldest waiting, are given up")
        let notes = rig.log.statuses.dropFirst().map(\.message)
        #expect(rig.statuses == [true, true, true], "said in a status that keeps speech available")
        #expect(notes.count == 2 && notes[0].contains("\"Message 2\"") && notes[1].contains("\"Message 3\""), "\(notes)")
        rig.event(701, "Message 1", component: "announcements")
        rig.event(702, "Message 1", component: "announcements")
        #expect(rig.sent == ["Message 1", "Message 4"])
    }

    @Test("more than maxKept waiting during an outage: the oldest are given up, and the status that says speech is back counts them")
    func keptOverflowInOutage() throws {
        let rig = try Rig()
        rig.peer.goAway()
        rig.settle()
        #expect(rig.statuses == [true, false])
        let all = (1...66).map { rig.spoken("Message \($0)", .announcement) }
        for m in all { rig.output.emit(.speech(.speak(m)), at: 0) }
        rig.settle()
        #expect(rig.events == [.speechCancelled(all[0].id), .speechCancelled(all[1].id)], "nothing was sent: the two oldest go")
        #expect(rig.statuses == [true, false], "no status per message during the outage")
        try rig.peer.comeBack()
        rig.pass(rig.timing.firstBackoff)
        #expect(rig.statuses == [true, false, true])
        let back = rig.log.statuses.last?.message ?? ""
        #expect(back.contains("saying 64 kept messages again") && back.contains("gave up 2 older messages"), "\(back)")
        #expect(rig.sent == ["Message 3"], "in order, one at a time")
        rig.event(701, "Message 3", component: "announcements")
        rig.event(702, "Message 3", component: "announcements")
        #expect(rig.sent == ["Message 3", "Message 4"])
    }

    @Test("a cancel whose notice never comes: repaired, then the message is forgotten at forgetCancelled (no more keep-alives, no long-speech outage)")
    func cancelledForgotten() throws {
        var timing = SpeechDispatcherOutput.Timing()
        timing.keepAlive = 200
        timing.forgetCancelled = 500
        timing.longestSpeech = 1000
        timing.longestSpeechPerCharacter = 0
        let rig = try Rig(timing: timing)
        let a = rig.spoken("Never confirmed")
        rig.say(a)
        rig.event(701, "Never confirmed")
        rig.pass(rig.timing.startSettle)
        rig.cancel(a)
        rig.pass(500 - rig.timing.startSettle)
        #expect(rig.count("CANCEL SELF") == 3, "sent, then repaired twice")
        #expect(rig.count("GET RATE") == 2, "still tracked: asked after each 200 ms of silence")
        rig.pass(10)
        rig.pass(1000, step: 50)
        #expect(rig.count("GET RATE") == 2, "forgotten just after forgetCancelled: nothing of Tandem's is out")
        #expect(rig.statuses == [true], "a forgotten message does not count as speaking far too long")
        #expect(rig.events == [.speechBegan(a.id)])
    }

    @Test("a kept message that hangs the output module: said again after each hang, given up at maxHangs (a daemon that died meanwhile does not count), said in the status that says speech is back; the queue goes on")
    func hangingMessageGivenUp() throws {
        var timing = SpeechDispatcherOutput.Timing()
        timing.beginTimeout = 500
        let rig = try Rig(timing: timing)
        let poison = rig.spoken("Poison", .announcement)
        let after = rig.spoken("After", .announcement)
        rig.say(poison)
        rig.say(after)
        rig.peer.goAway()
        rig.settle()
        try rig.peer.comeBack()
        rig.pass(timing.firstBackoff)
        #expect(rig.statuses == [true, false, true], "the daemon died while Poison was out: a crash, not a hang")
        // The fake never says Poison began: each time it is sent again, the begin watchdog fires.
        for hang in 1...3 {
            rig.pass(timing.beginTimeout - 10)
            #expect(rig.statuses.last == true, "hang \(hang): 10 ms before the begin timeout")
            rig.pass(10)
            #expect(rig.statuses.last == false, "hang \(hang)")
            #expect(rig.events == (hang < 3 ? [] : [.speechCancelled(poison.id)]), "hang \(hang): given up only at the third")
            rig.pass(timing.firstBackoff)
            #expect(rig.statuses.last == true, "back after hang \(hang)")
        }
        let back = rig.log.statuses.last?.message ?? ""
        #expect(back.contains("gave up \"Poison\": speech-dispatcher hung 3 times") && back.contains("saying 1 kept message again"), "\(back)")
        #expect(rig.sent == ["Poison", "Poison", "Poison", "Poison", "After"], "sent at first, after the crash and after two hangs; then the next")
        rig.event(701, "After", component: "announcements")
        rig.event(702, "After", component: "announcements")
        #expect(rig.events == [.speechCancelled(poison.id), .speechBegan(after.id), .speechEnded(after.id)])
    }

    @Test("a kept message that begins and then hangs the output module: given up at maxHangs long-speech losses")
    func hangingMidSpeechGivenUp() throws {
        var timing = SpeechDispatcherOutput.Timing()
        timing.longestSpeech = 300
        timing.longestSpeechPerCharacter = 0
        let rig = try Rig(timing: timing)
        let poison = rig.spoken("Poison", .announcement)
        rig.say(poison)
        for hang in 1...3 {
            rig.event(701, "Poison", component: "announcements")
            rig.pass(timing.longestSpeech)
            #expect(rig.statuses.last == false, "hang \(hang)")
            #expect(rig.log.statuses.last?.message.contains("far longer") == true, "\(rig.log.statuses)")
            #expect(rig.events.last == (hang < 3 ? .speechBegan(poison.id) : .speechCancelled(poison.id)), "hang \(hang)")
            rig.pass(timing.firstBackoff)
            #expect(rig.statuses.last == true, "back after hang \(hang)")
        }
        #expect(rig.sent == ["Poison", "Poison", "Poison"], "not sent after the third")
        #expect(rig.log.statuses.last?.message.contains("gave up \"Poison\"") == true, "\(rig.log.statuses)")
    }
}
