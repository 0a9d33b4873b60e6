import TandemVocabulary
import Testing
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession
import TandemTestSupport

/// The tester's keys (`CommandHandler.tester`): speech settings, help and the speech history,
/// each as a user meets it in a headless run of the tiny catalog (a title, then a button with
/// a hint), and the braille width a display reported surviving a profile switch.
@Suite("tester keys")
struct TesterKeysTests {
    static let tiny = FixtureFolder.cli.path("tiny.catalog.json")

    static func run(_ scenario: String) throws -> ReplayRun {
        try ReplayHarness.replay(catalog: tiny, scenarioText: scenario)
    }

    @Test("rate-up and rate-down step the rate by 10, say it, tell speech, and stop at 100")
    func rate() throws {
        let r = try Self.run("wait 1500\nrate-up\nwait 1000\nrate-up\nwait 1000\nrate-down\nwait 1000\n"
                             + String(repeating: "rate-up\nwait 1000\n", count: 10) + "rate-up\nwait 1000\nnext\nwait 5000\n")
        let rates = r.events("voice").compactMap { $0.string("rate") }
        #expect(rates.prefix(3) == ["10", "20", "10"])
        #expect(rates.suffix(2) == ["100", "100"], "clamped at 100: \(rates)")
        #expect(r.spoken.prefix(4) == ["Groceries, heading", "Rate 10", "Rate 20", "Rate 10"])
        // What is said next is timed at the new rate: at 100, 60 ms a character becomes 30, so
        // the button's hint follows "Add, button" after 11 × 30 ms and the hint delay (1000 ms).
        let speech = r.speech("speak")
        let button = try #require(speech.last { $0.string("text") == "Add, button" }?.int("t"))
        let hint = try #require(speech.last { $0.string("src") == "hint" }?.int("t"))
        #expect(hint - button == "Add, button".count * 30 + 1000)
    }

    @Test("punctuation cycles some → most → all → none → some, said and told to speech each time")
    func punctuation() throws {
        let r = try Self.run("wait 1500\n" + String(repeating: "punctuation\nwait 1500\n", count: 4))
        #expect(r.events("voice").compactMap { $0.string("punctuation") } == ["most", "all", "none", "some"])
        #expect(Array(r.spoken.dropFirst()) == ["Punctuation most", "Punctuation all", "Punctuation none", "Punctuation some"])
    }

    @Test("verbosity turns hints off: the button's hint is no longer said; on again, it is")
    func verbosityTogglesHints() throws {
        let r = try Self.run("wait 1500\nverbosity\nwait 1500\nnext\nwait 3000\nverbosity\nwait 1500\nprevious\nwait 1500\nnext\nwait 3000\n")
        #expect(r.events("voice").compactMap { $0.string("hints") } == ["off", "on"])
        #expect(r.spoken(source: "hint").count == 1, "only after hints came back on: \(r.spoken)")
        #expect(r.spoken.contains("Hints off") && r.spoken.contains("Hints on"))
        let hintAt = try #require(r.speech("speak").first { $0.string("src") == "hint" }?.int("t"))
        let onAt = try #require(r.speech("speak").first { $0.string("text") == "Hints on" }?.int("t"))
        #expect(hintAt > onAt)
    }

    @Test("help says every key of the command table, as `tandem run`'s key map would not override it")
    func help() throws {
        let r = try Self.run("wait 1500\nhelp\nwait 60000\n")
        let said = try #require(r.afterKey("help").first { $0.string("op") == "speak" }?.string("text"))
        for name in ["next", "rate-up", "history-next", "help"] {
            #expect(said.contains("\(name): "), "\(name) is in the help text")
        }
    }

    @Test("history-previous steps back, history-next forward, each said again and flashed with its place; a boundary past either end")
    func historySteps() throws {
        let r = try Self.run("wait 1500\nnext\nwait 3000\nhistory-previous\nwait 1500\nhistory-previous\nwait 1500\nhistory-previous\nwait 1500\n"
                             + "history-previous\nwait 500\nhistory-next\nwait 1500\nhistory-next\nwait 1500\nhistory-next\nwait 500\n")
        // Heard before the review: the title, the button and its hint.
        let history = r.events("history").map { "\($0.string("index") ?? "") \($0.string("text") ?? "")" }
        #expect(history == ["-1 Adds one", "-2 Add, button", "-3 Groceries, heading",
                            "-2 Add, button", "-1 Adds one"])
        #expect(r.afterKey("history-previous", occurrence: 3).contains { $0.string("icon") == "boundary" }, "past the oldest")
        #expect(r.afterKey("history-next", occurrence: 2).contains { $0.string("icon") == "boundary" }, "past the newest")
        // Each step is said (as a value, never a hint) and flashed on the display.
        let step = r.afterKey("history-previous", occurrence: 1)
        #expect(step.contains { $0.string("op") == "speak" && $0.string("text") == "Add, button" && $0.string("src") == "value" })
        #expect(step.contains { $0.string("ch") == "braille" && $0.string("text") == "2 of 3: Add, button" && $0["flash"] == .bool(true) })
    }

    @Test("a width the display reported outlasts a profile switch: the next frame is cut to it")
    func reportedWidthOutlastsProfileSwitch() throws {
        let catalog = try ReplayHarness.catalog("Tests/Fixtures/service/messages.catalog.json")
        let sink = RecordingSink()
        var profile = try ReplayHarness.profile()
        profile.brailleWidth = 40
        var session = Session(catalog: catalog, profile: profile, sink: sink, timing: .virtual, makeTranslator: louisTranslator(for:))
        session.start(at: 0)
        session.settle()
        session.setDisplayWidth(20)
        var contracted = profile
        contracted.contracted = true
        session.setProfile(contracted)
        session.perform(.next, at: 1000)
        session.settle()
        session.perform(.activate, at: 2000)
        session.settle()
        let frame = try #require(sink.lastBrailleFrame)
        #expect(frame.flash && frame.text.hasPrefix("Synchronising"), "the announcement's flash: \(frame.text)")
        #expect(frame.cells.count <= 20 && frame.windowCount > 1, "cut to the 20 cells reported: \(frame.cells.count) cells, \(frame.windowCount) windows")
    }
}
