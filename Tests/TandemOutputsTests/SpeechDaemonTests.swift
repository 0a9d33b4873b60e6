import Foundation
import TandemVocabulary
import Testing
import TandemModel
import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemService
import TandemSession
import TandemTestSupport

/// `SpeechDispatcherOutput` against a real speech-dispatcher: each test starts a private
/// daemon (`SpeechFixture`, via `scripts/services/speechd.sh`) and reads back what its capture
/// module was asked to say. Serialized: they share the machine's two cores and their timing.
@Suite(.serialized) struct SpeechDaemonTests {
    /// How much faster than real time the sample stories are played. The daemon speaks as fast
    /// (`60 / speed` ms a character, Tandem's estimate sped up alike), so live and headless runs
    /// see the same durations.
    static let speed = 6.0

    // MARK: (a) the sample stories

    @Test(arguments: try SpeechRuns.examples())
    func sampleStoryIsHeardAsTheHeadlessRunSaysIt(_ name: String) throws {
        let headless = try SpeechRuns.headless(name)
        let speech = try SpeechFixture(msPerCharacter: Int(60 / Self.speed))
        defer { speech.stop() }
        let output = SpeechDispatcherOutput(address: speech.address, voice: .init())
        let live = try SpeechRuns.live(name, outputs: [output], speed: Self.speed)
        let capture = speech.capture()
        let sent = live.records.speaks

        #expect(live.records.events("output").first?["available"] == "yes")
        // Tandem decided what the headless run decided: every announcement and final
        // message, in order; and every focus and value speech the headless run started (live,
        // keys typed back to back each start their speech before the next cuts it, where the
        // headless run settles once per instant and drops all but the last).
        let kept = headless.speaks.filter(\.isKept).map(\.utterance.text)
        #expect(sent.filter(\.isKept).map(\.utterance.text) == kept)
        let texts = headless.speaks.filter { $0.priority == .text }.map(\.utterance.text)
        #expect(isSubsequence(texts, of: sent.filter { $0.priority == .text }.map(\.utterance.text)))
        // speech-dispatcher said every kept utterance to its end, in order…
        #expect(isSubsequence(kept, of: capture.finished), "kept \(kept)\ncapture \(capture)")
        // …said nothing Tandem did not send, nothing twice, nothing out of order…
        #expect(isSubsequence(capture.started, of: sent.map(\.utterance.text)), "capture \(capture.started)\nsent \(sent.map(\.utterance.text))")
        // …and ended on the last focus speech, heard whole: it is the last one begun, and it
        // finished. (Not "the last END": sd_generic loses a stop that reaches it before its
        // shell line has made itself a process group, and that line then writes its END late,
        // after the next text's; under load CI saw an earlier focus text END after this one.)
        if let last = texts.last {
            let begun = capture.filter { $0.starts && texts.contains($0.text) }
            #expect(begun.last?.text == last, "capture \(capture)")
            #expect(capture.finished.contains(last), "capture \(capture)")
        }
        // What speech-dispatcher reported is in the transcript, with the text.
        let notices = live.records.events("speechd")
        #expect(notices.contains { $0["notice"] == "end" && $0["text"] == texts.last })
        #expect(notices.filter { $0["notice"] == "begin" }.count == capture.started.count)
        // Real time: the scenario's waits at `speed`, plus the speech after its last line.
        let (_, scenario, _) = try SpeechRuns.inputs(name)
        let waits = scenario.lines.reduce(0) { if case .wait(let ms) = $1.step { $0 + ms } else { $0 } }
        #expect(live.seconds < Double(waits) / 1000 / Self.speed + 15)
    }

    // MARK: (b) priorities and cancel

    @Test func prioritiesCancelLanguagesAndVoiceReachTheDaemon() throws {
        // A second of speech: long enough that even a busy machine cuts it while it speaks.
        let speech = try SpeechFixture(speakSeconds: 1)
        defer { speech.stop() }
        let log = OutputEventLog()
        let voice = SpeechVoice(rate: 30, pitch: -10, volume: 20, voiceType: "female1", punctuation: "all")
        let output = SpeechDispatcherOutput(address: speech.address, voice: voice)
        output.start(report: log.reporter)
        defer { output.stop() }
        #expect(log.statuses.map(\.available) == [true])
        var make = SpokenMaker()
        func say(_ s: Spoken) { output.emit(.speech(.speak(s)), at: 0) }
        // Speaking, as far as the capture module is concerned: its shell line runs, and a moment
        // has passed. (sd_generic loses a stop that comes before its child has made itself a
        // process group, which happens after speech-dispatcher's BEGIN notice.)
        func speaking(_ s: Spoken) -> Bool {
            let begun = log.wait { $0.contains(.speechBegan(s.id)) }
                && speech.waitForCapture { $0.contains { $0.kind == .begin && $0.text == s.utterance.text } }
                    .contains { $0.text == s.utterance.text }
            Thread.sleep(forTimeInterval: 0.05)
            return begun
        }

        // A cancel cuts what speaks: BEGIN, never END.
        let t1 = make.make("First focus text", .focus)
        say(t1)
        #expect(speaking(t1))
        output.emit(.speech(.cancel(t1)), at: 0)
        #expect(log.wait { $0.contains(.speechCancelled(t1.id)) })

        // text waits for message.
        let m1 = make.make("Message one", .announcement)
        let t2 = make.make("Second focus text", .focus)
        say(m1)
        say(t2)
        #expect(log.wait { $0.contains(.speechEnded(t2.id)) })
        #expect(log.all.contains(.speechEnded(m1.id)))

        // important cuts text: speech-dispatcher's own rule (the policy also cancels the text
        // first; here the daemon's rule alone is at work).
        let t3 = make.make("Third focus text", .focus)
        say(t3)
        #expect(speaking(t3))
        let i1 = make.make("Important one", .announcement, important: true)
        say(i1)
        #expect(log.wait { $0.contains(.speechEnded(i1.id)) })
        #expect(log.all.contains(.speechCancelled(t3.id)))

        // A notification is dropped while a message speaks.
        let m2 = make.make("Message two", .announcement)
        say(m2)
        #expect(speaking(m2))
        let n1 = make.make("A hint", .hint)
        say(n1)
        #expect(log.wait { $0.contains(.speechCancelled(n1.id)) })
        #expect(log.wait { $0.contains(.speechEnded(m2.id)) })

        // Languages per utterance; spelling; a sound icon in between does no harm.
        let ru = make.make("Банан 2 кг", .announcement, language: "ru")
        let pt = make.make("Ação", .announcement, language: "pt-BR")
        let spelled = make.make("abc", .value, spell: true)
        say(ru)
        output.emit(.sound(.boundary), at: 0)
        #expect(log.wait { $0.contains(.speechEnded(ru.id)) })
        say(pt)
        #expect(log.wait { $0.contains(.speechEnded(pt.id)) })
        say(spelled)
        #expect(log.wait { $0.contains(.speechEnded(spelled.id)) })

        let c = speech.capture()
        #expect(c.map(\.description) == [
            "BEGIN First focus text",
            "BEGIN Message one", "END Message one", "BEGIN Second focus text", "END Second focus text",
            "BEGIN Third focus text", "BEGIN Important one", "END Important one",
            "BEGIN Message two", "END Message two",
            "BEGIN Банан 2 кг", "END Банан 2 кг", "BEGIN Ação", "END Ação", "BEGIN abc", "END abc",
        ])
        let first = try #require(c.first)
        #expect([first.language, first.voice, first.rate, first.pitch, first.volume] == ["en", "capture-en-female", "30.00", "-10.00", "20.00"])
        #expect(c.first { $0.text == "Банан 2 кг" }?.language == "ru")
        #expect(c.first { $0.text == "Ação" }?.language == "pt-br")
    }

    // MARK: (c) the daemon dies in the middle of announcements

    @Test func announcementsSurviveADaemonCrashExactlyOnce() throws {
        let speech = try SpeechFixture(speakSeconds: 0.3)
        defer { speech.stop() }
        let live = try speech.liveSession(example: "grocery")
        let texts = (1...8).map { "Announcement number \($0)" }
        for t in texts { live.send(.post(.announcement(text: t, priority: .default, delay: 0))) }

        // Crash while the third is being said, then bring the daemon back.
        let third = speech.waitForCapture(timeout: .seconds(10)) { $0.contains { $0.kind == .begin && $0.text == texts[2] } }
        try #require(third.contains { $0.text == texts[2] })
        Thread.sleep(forTimeInterval: 0.05)
        try speech.kill()
        Thread.sleep(forTimeInterval: 0.2)
        try speech.restart()

        #expect(live.finish(whenQuietWithin: 20_000, waiting: .seconds(30)))

        let c = speech.capture().filter { $0.text.hasPrefix("Announcement") }
        // Every announcement heard to its end exactly once, in order…
        #expect(c.finished == texts, "\(c)")
        // …the third cut by the crash and said again whole, nothing else twice.
        #expect(c.started == Array(texts[0...2]) + Array(texts[2...]), "\(c)")
        // The outage and the recovery are in the transcript.
        let statuses = live.recorded.events("output").filter { $0["output"] == "speech" }
        #expect(statuses.map { $0["available"] } == ["yes", "no", "yes"], "\(statuses)")
        // The policy went on with the original ids: each announcement's end is in the transcript.
        let ends = live.recorded.events("speechd").filter { $0["notice"] == "end" }.compactMap { $0["text"] }
        #expect(isSubsequence(texts, of: ends), "\(ends)")
    }

    // MARK: a daemon that hangs

    @Test func aHungDaemonIsNoticedWhileTheSessionGoesOn() throws {
        let speech = try SpeechFixture(speakSeconds: 0.2)
        defer { speech.resume(); speech.stop() }
        let live = try speech.liveSession(example: "grocery")
        let texts = (1...6).map { "Announcement number \($0)" }
        for t in texts.prefix(4) { live.send(.post(.announcement(text: t, priority: .default, delay: 0))) }
        func speechStatus() -> [String?] { live.recorded.events("output").filter { $0["output"] == "speech" }.map { $0["available"] } }

        let second = speech.waitForCapture(timeout: .seconds(10)) { $0.contains { $0.kind == .begin && $0.text == texts[1] } }
        try #require(second.contains { $0.text == texts[1] })
        speech.pause()
        // The session does not wait for the stuck daemon: a key is handled at once.
        live.send(.command(.next))
        #expect(waitUntil(timeout: .milliseconds(500)) { live.recorded.events("key").count == 1 })
        for t in texts.suffix(2) { live.send(.post(.announcement(text: t, priority: .default, delay: 0))) }
        // Noticed within the keep-alive and reply timeouts.
        #expect(waitUntil(timeout: .seconds(5)) { speechStatus() == ["yes", "no"] }, "\(speechStatus())")
        speech.resume()
        #expect(waitUntil(timeout: .seconds(10)) { speechStatus() == ["yes", "no", "yes"] }, "\(speechStatus())")

        #expect(live.finish(whenQuietWithin: 20_000, waiting: .seconds(30)))
        // Every announcement was heard to its end, in order of first hearing. (The one speaking
        // when the daemon stopped may be heard twice: its module went on without it.)
        let finished = speech.capture().filter { $0.text.hasPrefix("Announcement") }.finished
        var firsts: [String] = []
        for t in finished where !firsts.contains(t) { firsts.append(t) }
        #expect(firsts == texts, "\(finished)")
    }

    // MARK: (d) no daemon at all

    @Test func withoutADaemonTheRunGoesOnWithEstimates() throws {
        let address = "unix_socket:/tmp/tandem-no-speechd-\(UUID().uuidString.prefix(8))/speechd.sock"
        // start() never hangs.
        let probe = SpeechDispatcherOutput(address: address, voice: .init())
        let log = OutputEventLog()
        let began = Date()
        probe.start(report: log.reporter)
        #expect(Date().timeIntervalSince(began) < 0.5)
        probe.stop()
        #expect(log.statuses.map(\.available) == [false])

        let headless = try SpeechRuns.headless("grocery")
        let output = SpeechDispatcherOutput(address: address, voice: .init())
        // Nothing to keep pace with but Tandem's own estimates: faster still.
        let speed = 2 * Self.speed
        let live = try SpeechRuns.live("grocery", outputs: [output], speed: speed)
        let (_, scenario, _) = try SpeechRuns.inputs("grocery")
        let waits = scenario.lines.reduce(0) { if case .wait(let ms) = $1.step { $0 + ms } else { $0 } }
        #expect(live.seconds < Double(waits) / 1000 / speed + 10)

        // Said once, clearly.
        let statuses = live.records.events("output").filter { $0["output"] == "speech" }
        #expect(statuses.count == 1)
        #expect(statuses.first?["available"] == "no")
        #expect(statuses.first?["message"]?.contains("no speech-dispatcher at \(address)") == true)
        // Everything is still in the transcript, decided as headless decides it (see above for
        // keys typed back to back).
        #expect(live.records.speaks.filter(\.isKept).map(\.utterance.text) == headless.speaks.filter(\.isKept).map(\.utterance.text))
        #expect(isSubsequence(headless.speaks.filter { $0.priority == .text }.map(\.utterance.text),
                              of: live.records.speaks.filter { $0.priority == .text }.map(\.utterance.text)))
        #expect(live.records.events("speechd").isEmpty)
    }
}
