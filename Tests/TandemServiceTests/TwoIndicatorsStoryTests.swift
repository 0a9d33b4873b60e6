import Testing
import TandemOutputs
import TandemTestSupport

/// Two loading indicators at once (Docs/braille.md#rules, Docs/policy.md#rules): as VoiceOver
/// and NVDA do, only the focused one is followed step by step, on both channels; the other is
/// heard and seen once, when it finishes, with its name.
@Suite("two loading indicators")
struct TwoIndicatorsStoryTests {
    static let catalog = FixtureFolder.service.path("two-indicators.catalog.json")

    /// Sync all starts the photos upload (25, 50, 75, 100% over 2.5 s, in the background) and
    /// the music download (33, 67, 100% over 3 s), which takes focus.
    static func syncAll() throws -> (run: ReplayRun, start: Int) {
        let r = try ReplayHarness.replay(catalog: catalog, scenarioText: "wait 500\nnext\nwait 1500\nactivate\nwait 10000\n")
        let key = try #require(r.events("key").first { $0.string("command") == "activate" })
        return (r, try #require(key.int("t")))
    }

    @Test("the indicator without focus is never heard, sounded or shown step by step")
    func backgroundStepsNotPresented() throws {
        let (r, start) = try Self.syncAll()
        #expect(r.focusedIDs().contains("music.loading"), "the music download has focus")
        for step in ["25%", "50%", "75%"] {
            #expect(!r.channel("speech").contains { $0.string("text")?.contains(step) == true }, "\(step) of the photos is not said")
            #expect(!r.brailleTexts.contains { $0.contains(step) }, "\(step) of the photos is not shown")
        }
        // Its steps come at +625, +1250 and +1875 ms: no sound then.
        let soundTimes = r.channel("sound").filter { $0.string("icon") == "progress" }.compactMap { $0.int("t") }
        for t in [625, 1250, 1875] { #expect(!soundTimes.contains(start + t), "no progress sound at +\(t) ms") }
    }

    @Test("the focused indicator's steps are heard and shown; the other's end is said and shown with its name")
    func focusedStepsAndBackgroundEnd() throws {
        let (r, start) = try Self.syncAll()
        // The focused download: its line on the display at every step (one a second at most).
        for percent in ["0%", "33%", "67%"] {
            #expect(r.brailleTexts.contains("Downloading music, \(percent)"), "the display shows \(percent)")
        }
        #expect(r.spoken(source: "progress").contains("33%"))
        // The upload finishes at +2500 ms: said as a message and shown as one, with its name.
        let said = try #require(r.speakLine("Uploading photos, 100%"))
        #expect(said.int("t") == start + 2500 && said.string("prio") == "message")
        let shown = try #require(r.braille.first { $0.string("text") == "Uploading photos, 100%" })
        #expect(shown.int("t") == start + 2500 && shown["flash"] == .bool(true))
        // The download ends at +3000 ms: its 100% said after the upload's message, then the
        // button that started both.
        let spoken = r.spoken
        let upload = try #require(spoken.firstIndex(of: "Uploading photos, 100%"))
        let download = try #require(spoken.firstIndex(of: "100%"))
        let button = try #require(spoken.lastIndex(of: "Sync all, button"))
        #expect(upload < download && download < button, "\(spoken)")
        #expect(r.braille.first { $0.string("text") == "Downloading music, 100%" }?.int("t") == start + 3000)
        #expect(r.brailleTexts.last == "Sync all btn")
    }
}
