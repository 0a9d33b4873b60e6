import TandemVocabulary
import Testing
import TandemPresentation
@testable import TandemService
@testable import TandemSession

/// The small parts a session is made of, each on its own.
@Suite("session parts")
struct SessionPartsTests {
    func said(_ text: String) -> Utterance { Utterance(text: text, language: "en", source: .focus, hint: "a hint") }

    @Test("history: steps back from the newest, forward again, and stops at both ends")
    func historySteps() {
        var h = SpeechHistory()
        var empty = SpeechHistory()
        #expect(empty.step(back: true) == nil, "nothing to review yet")
        for t in ["one", "two", "three"] { h.record(said(t)) }
        #expect(h.step(back: true)?.utterance.text == "three")
        #expect(h.step(back: true)?.utterance.text == "two")
        #expect(h.step(back: true)?.position == 0)
        #expect(h.step(back: true) == nil, "past the oldest")
        #expect(h.step(back: false)?.utterance.text == "two")
        #expect(h.step(back: false)?.utterance.text == "three")
        #expect(h.step(back: false) == nil, "past the newest")
    }

    @Test("history: an entry is read back as a value without its hint, and something new ends the review")
    func historyReview() {
        var h = SpeechHistory()
        h.record(said("one"))
        h.record(said("two"))
        let u = h.step(back: true)!.utterance
        #expect(u.hint == nil && u.source == .value && u.isReview)
        h.record(said("three"))
        #expect(h.step(back: true)?.utterance.text == "three", "a new utterance starts the review again from the newest")
    }

    @Test("history: keeps the last 500")
    func historyLimit() {
        var h = SpeechHistory()
        for i in 0..<(SpeechHistory.limit + 20) { h.record(said("\(i)")) }
        #expect(h.entries.count == SpeechHistory.limit)
        #expect(h.entries.first?.text == "20")
        #expect(h.recent(2) == ["518", "519"])
    }

    @Test("read-all: the first focus speech is the element's; only its end moves on")
    func readAll() {
        var r = ReadAll()
        r.began(focusSpeech: 7)
        r.began(focusSpeech: 8)
        #expect(r.isReading(7) && !r.isReading(8))
        let endOfOther = r.ended(8), endOfElement = r.ended(7)
        #expect(!endOfOther && endOfElement)
        r.began(focusSpeech: 9)
        #expect(r.isReading(9), "after moving on, the next element's speech is the one read")
    }

    @Test("flash timer: each restart makes older timers stale; 0 keeps the message")
    func flashTimer() {
        var f = FlashTimer()
        let first = f.restart(at: 100, messageTime: 4000)
        #expect(first?.due == 4100)
        let second = f.restart(at: 1000, messageTime: 4000)
        #expect(!f.isCurrent(first!.token) && f.isCurrent(second!.token))
        #expect(f.restart(at: 2000, messageTime: 0) == nil)
    }

    @Test("progress on braille: at most once a second, the newest waiting step wins, the last shows at once")
    func progressBraille() {
        var p = ProgressBraille()
        let a = BrailleText(text: "20%", cursor: nil), b = BrailleText(text: "40%", cursor: nil)
        let c = BrailleText(text: "60%", cursor: nil), d = BrailleText(text: "100%", cursor: nil)
        #expect(p.offer(a, element: "load", last: false, at: 0) == .showNow)
        #expect(p.offer(b, element: "load", last: false, at: 300) == .showAt(1000))
        #expect(p.offer(c, element: "load", last: false, at: 600) == .showAt(1000))
        let due = p.due(at: 1000), again = p.due(at: 1000)
        #expect(due == c, "the newest step waiting is shown")
        #expect(again == nil)
        #expect(p.offer(d, element: "load", last: true, at: 1100) == .showNow, "the last step never waits")
    }

    @Test("progress on braille: a waiting step is dropped when focus moves")
    func progressFocusMoves() {
        var p = ProgressBraille()
        p.shown("load", at: 0)
        _ = p.offer(BrailleText(text: "50%", cursor: nil), element: "load", last: false, at: 10)
        p.focusMoved()
        let due = p.due(at: 1000)
        #expect(due == nil)
    }

    @Test("progress on braille: each indicator keeps its own second, so one never holds back another's step")
    func progressPerIndicator() {
        var p = ProgressBraille()
        #expect(p.offer(BrailleText(text: "Upload, 20%", cursor: nil), element: "upload", last: false, at: 0) == .showNow)
        // Focus moved to the other indicator at once: its first step is not held back by the first one's.
        p.focusMoved()
        #expect(p.offer(BrailleText(text: "Download, 10%", cursor: nil), element: "download", last: false, at: 200) == .showNow)
        #expect(p.offer(BrailleText(text: "Download, 30%", cursor: nil), element: "download", last: false, at: 500) == .showAt(1200))
    }
}
