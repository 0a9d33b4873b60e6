import TandemVocabulary
import Testing
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemNavigator
import TandemService
import TandemSession
import TandemTestSupport

/// Braille as a first-class channel (issue 14): what speech tells, the display shows too
/// (the rules: Docs/braille.md#rules).
@Suite("braille parity with speech")
struct BrailleParityTests {
    /// The braille line shown at `time` (the last written at or before it).
    static func shown(at time: Int, in r: ReplayRun) -> String? {
        r.braille.last { ($0.int("t") ?? 0) <= time }?.string("text")
    }

    @Test("loading: the final 100% is shown on the display as a message, though a new screen replaces the indicator")
    func finalProgressShown() throws {
        let r = try ReplayHarness.replay(example: "grocery")
        let last = try #require(r.speakLine("100%"))
        let t = try #require(last.int("t"))
        let flash = try #require(r.braille.first { $0.string("text") == "Finalizando compra, 100%" })
        #expect(flash.int("t") == t, "shown when it is said")
        #expect(flash["flash"] == .bool(true))
        // The new screen's title follows once the message time is over, marked as a new screen.
        let next = try #require(r.braille.first { ($0.int("t") ?? 0) > t })
        #expect(next.string("text") == "tela: Pedido confirmado cab")
        #expect(next.int("t") == t + 4000)
    }

    @Test("checkout: the last step is heard and shown before the confirmation screen that follows it")
    func lastStepBeforeFollowUpScreen() throws {
        let r = try ReplayHarness.replay(example: "grocery")
        let last = try #require(r.indexOfSpeech("100%"))
        let title = try #require(r.indexOfSpeech("Pedido confirmado, cabeçalho"))
        #expect(last < title, "100% is said before the new screen's title")
        let shown = r.brailleTexts
        let finished = try #require(shown.firstIndex(of: "Finalizando compra, 100%"))
        let confirmed = try #require(shown.firstIndex(of: "tela: Pedido confirmado cab"))
        #expect(finished < confirmed, "100% is shown before the new screen's title")
        #expect(!shown[..<finished].contains { $0.contains("Pedido") }, "nothing of the new screen before the last step")
        let sounds = r.sounds
        #expect(sounds.lastIndex(of: "progress")! < sounds.lastIndex(of: "screen")!, "the last step's sound, then the screen's")
    }

    @Test("loading: every percentage speech says is the one the display shows at that moment")
    func samePercentageOnBothChannels() throws {
        let r = try ReplayHarness.replay(example: "grocery")
        let said = r.speech("speak").filter { $0.string("src") == "progress" }
        #expect(said.count >= 2)
        for line in said {
            let text = try #require(line.string("text"))
            let t = try #require(line.int("t"))
            let display = Self.shown(at: t, in: r) ?? ""
            #expect(display.hasSuffix(text), "@\(t) speech says \(text), the display shows \(display)")
        }
    }

    static let grocery = PackageRoot.path("Examples/grocery/grocery.catalog.json")
    static let messages = FixtureFolder.service.path("messages.catalog.json")

    static func run(_ catalog: String, _ scenario: String, messageTime: Int = 4000) throws -> ReplayRun {
        var p = try ReplayHarness.profile()
        p.messageTime = messageTime
        return try ReplayHarness.replay(catalog: catalog, scenarioText: scenario, profile: p)
    }

    /// The first braille line written after the n-th `command` key.
    static func shownAfter(_ command: String, occurrence n: Int = 0, in r: ReplayRun) -> TranscriptLine? {
        r.afterKey(command, occurrence: n).first { $0.string("ch") == "braille" }
    }

    @Test("boundaries flash where navigation stopped, in the session's language")
    func boundariesFlash() throws {
        let r = try Self.run(Self.grocery, "previous\nwait 500\nprevious\nwait 500\nlast\nwait 500\nnext\nwait 5000\nroute 39\nwait 500\n")
        let start = try #require(Self.shownAfter("previous", occurrence: 1, in: r))
        #expect(start.string("text") == "Início" && start["flash"] == .bool(true))
        #expect(Self.shownAfter("next", in: r)?.string("text") == "Fim")
        #expect(Self.shownAfter("route 39", in: r)?.string("text") == "Não disponível", "a blank routing cell")
    }

    @Test("help stays on the display until a key; the mark is shown as a message")
    func helpAndMarkShown() throws {
        let r = try Self.run(Self.grocery, "wait 500\nhelp\nwait 10000\nmark\nwait 500\n")
        let help = try #require(Self.shownAfter("help", in: r))
        #expect(help["flash"] == .bool(true))
        #expect((help.string("text")?.count ?? 0) > 100, "the whole help: \(help.string("text") ?? "")")
        #expect(r.afterKey("help").filter { $0.string("ch") == "braille" }.count == 1, "still shown 10 s later")
        #expect(Self.shownAfter("mark", in: r)?.string("text") == "Marca registrada")
    }

    @Test("activating an element with no action is said and shown")
    func noActionShown() throws {
        let r = try Self.run(Self.grocery, "wait 500\nactivate\nwait 2000\n")
        #expect(r.afterKey("activate").contains { $0.string("op") == "speak" && $0.string("text") == "Nenhuma ação" })
        let shown = try #require(Self.shownAfter("activate", in: r))
        #expect(shown.string("text") == "Nenhuma ação" && shown["flash"] == .bool(true))
    }

    @Test("escape with nowhere to go back and a scroll nothing handles bonk and show Not available, not silence")
    func unhandledShown() throws {
        let r = try Self.run(Self.grocery, "wait 500\nescape\nwait 5000\nscroll-down\nwait 5000\n")
        for key in ["escape", "scroll-down"] {
            let after = r.afterKey(key)
            #expect(after.contains { $0.string("ch") == "sound" && $0.string("icon") == "boundary" }, "\(key): the boundary sound")
            let shown = try #require(Self.shownAfter(key, in: r), "\(key): something shown")
            #expect(shown.string("text") == "Não disponível" && shown["flash"] == .bool(true), "\(key): \(shown.string("text") ?? "")")
            #expect(!after.contains { $0.string("op") == "speak" }, "\(key): nothing said, as for other boundaries")
        }
    }

    @Test("an element with custom actions ends its line with the actions word, as speech says Actions available")
    func actionsAvailableShown() throws {
        let r = try ReplayHarness.replay(example: "grocery")
        #expect(r.brailleTexts.contains("Feira da semana, 12 itens ações"))
    }

    @Test("speech coming back and the display reconnecting are shown as messages")
    func outagesShown() throws {
        let catalog = try Example("grocery").catalog()
        let sink = RecordingSink()
        var session = Session(catalog: catalog, profile: Profile(), sink: sink, timing: .virtual, makeTranslator: louisTranslator(for:))
        session.start(at: 0)
        session.settle()
        session.reportOutput(OutputStatus(.speech, available: true, message: ""), at: 100)
        session.settle()
        #expect(sink.lastBrailleFrame?.flash != true, "the first connection is no news")
        session.reportOutput(OutputStatus(.speech, available: false, message: "gone"), at: 200)
        session.advance(to: 5000)
        session.reportOutput(OutputStatus(.speech, available: true, message: ""), at: 6000)
        session.settle()
        #expect(sink.lastBrailleFrame?.text == "A fala voltou" && sink.lastBrailleFrame?.flash == true)
        session.reportOutput(OutputStatus(.braille, available: false, message: "gone"), at: 7000)
        session.reportOutput(OutputStatus(.braille, available: true, message: ""), at: 8000)
        session.settle()
        #expect(sink.lastBrailleFrame?.text == "Linha braille conectada")
    }

    @Test("a routing key over a message only dismisses it: the element is not activated again")
    func routingDismissesOnly() throws {
        let r = try Self.run(Self.messages, "wait 1000\nnext\nwait 1000\nactivate\nwait 500\nroute 0\nwait 500\nroute 0\nwait 6000\n")
        #expect(r.events("activate").count == 2, "the first route dismissed, the second activated")
        let dismissed = try #require(Self.shownAfter("route 0", in: r))
        #expect(dismissed.string("text") == "Sync btn" && dismissed["flash"] == nil)
        #expect(!r.afterKey("route 0").contains { $0.string("type") == "activate" })
    }

    @Test("a stepper whose change posts an announcement shows its new value with the message")
    func stepperValueWithAnnouncement() throws {
        let r = try ReplayHarness.replay(example: "grocery")
        let flash = try #require(r.braille.first { $0.string("text")?.hasSuffix("Café adicionado ao carrinho") == true })
        #expect(flash.string("text") == "1 no carrinho. Café adicionado ao carrinho")
    }

    @Test("the display has keys for speech history, the mark and help")
    func displayKeysForTesterTools() {
        let m = KeyMap.default
        #expect(m.command(forBrailleCommand: "HELP", argument: nil) == .help)
        #expect(m.command(forBrailleCommand: "PRPROMPT", argument: nil) == .historyPrevious)
        #expect(m.command(forBrailleCommand: "NXPROMPT", argument: nil) == .historyNext)
        #expect(m.command(forBrailleCommand: "SETMARK", argument: nil) == .mark)
    }

    @Test("help from a display key lists the display's keys, in the session's language")
    func helpListsDisplayKeys() throws {
        let catalog = try Example("grocery").catalog()
        let sink = RecordingSink()
        var session = Session(catalog: catalog, profile: Profile(), sink: sink, timing: .virtual, makeTranslator: louisTranslator(for:))
        session.start(at: 0)
        session.displayKeys = .default
        session.perform(.help, at: 100)
        session.settle()
        let help = try #require(sink.lastBrailleFrame)
        #expect(help.flash)
        #expect(help.text.contains("LNDN: ") && help.text.contains("PRPROMPT: ") && help.text.contains("HELP: "), "\(help.text)")
        let phrases = Phrases.forLanguage("pt-BR")
        let summary = try #require(phrases.commandSummary("next"))
        #expect(help.text.contains("LNDN: " + summary), "the summaries in Portuguese")
    }

    @Test("a history entry shows its position on the display, in the session's language")
    func historyPosition() throws {
        let r = try Self.run(Self.grocery, "wait 2000\nnext\nwait 2000\nhistory-previous\nwait 500\nhistory-previous\nwait 500\n")
        // Everything spoken before the first review is in the history, the newest last.
        let before = r.lines.prefix { $0.string("command") != "history-previous" }
        let said = before.filter { $0.string("op") == "speak" }.compactMap { $0.string("text") }
        let n = said.count
        #expect(n >= 2)
        let first = try #require(Self.shownAfter("history-previous", in: r)?.string("text"))
        let second = try #require(Self.shownAfter("history-previous", occurrence: 1, in: r)?.string("text"))
        #expect(first == "\(n) de \(n): \(said[n - 1])")
        #expect(second == "\(n - 1) de \(n): \(said[n - 2])")
    }
}
