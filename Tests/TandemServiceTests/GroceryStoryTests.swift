import Foundation
import TandemVocabulary
import Testing
import TandemModel
import TandemOutputs
import TandemTestSupport

/// Examples/grocery: a blind tester walks the Mercado app (pt-BR) from opening to checkout —
/// the seed stories of Tandem, each checked against what the transcript says was heard and shown.
@Suite("grocery story")
struct GroceryStoryTests {
    let run: ReplayRun

    init() throws { run = try ReplayHarness.replay(example: "grocery") }

    func speak(after key: String, _ n: Int) -> [TranscriptLineView] {
        run.afterKey(key, occurrence: n).filter { $0.string("op") == "speak" }.map(TranscriptLineView.init)
    }

    @Test("grocery: first focus is on the screen's title, spoken and shown at once")
    func firstFocusOnTitle() throws {
        let first = try #require(run.events("focus").first)
        #expect(first.string("id") == "header.title")
        #expect(first.string("reason") == "start")
        #expect(run.speech("speak").first?.string("text") == "Mercado, cabeçalho")
        #expect(run.speech("speak").first?.int("t") == 0)
        #expect(run.braille.first?.string("text") == "Mercado cab")
        #expect(run.braille.first?.int("t") == 0)
    }

    @Test("grocery: the header's explicit order keeps the buttons its title frame covers reachable")
    func headerOrder() throws {
        // With the order: search, title, lists.
        #expect(run.afterKey("previous").first { $0.string("type") == "focus" }?.string("id") == "header.search")
        #expect(run.afterKey("next", occurrence: 1).first { $0.string("type") == "focus" }?.string("id") == "header.lists")
        // Without it, the title's frame (x 0, full width) sorts before both buttons: the bug the
        // order fixes.
        var text = try String(contentsOfFile: Example("grocery").catalogPath, encoding: .utf8)
        text = text.replacingOccurrences(of: #""order": ["header.search", "header.title", "header.lists"],"#, with: "")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-grocery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let catalog = dir.appendingPathComponent("no-order.catalog.json")
        try text.write(to: catalog, atomically: true, encoding: .utf8)
        let unordered = try ReplayHarness.replay(catalog: catalog.path, scenarioText: "previous\nwait 1000\nnext\nwait 1000\nnext\nwait 1000\n")
        #expect(unordered.events("focus").compactMap { $0.string("id") } == ["header.title", "header.search", "header.lists"])
        #expect(unordered.afterKey("previous").contains { $0.string("icon") == "boundary" }, "the title comes first: nothing before it")
    }

    @Test("grocery: a grouped cell reads as one: name, weight and price, then its trait")
    func groupedCell() {
        #expect(run.spoken.contains("Banana, 1 kg, R$ 5,99, botão"))
        #expect(run.brailleTexts.contains("Banana, 1 kg, R$ 5,99 btn"))
        // The decorative photo inside the cell adds nothing.
        #expect(!run.spoken.contains { $0.contains("banana.photo") })
    }

    @Test("grocery: magic tap jumps from the search field to the product list, and back")
    func magicTap() throws {
        let jump = run.afterKey("magic-tap").first { $0.string("type") == "focus" }
        #expect(jump?.string("id") == "banana.cell")
        #expect(jump?.string("reason") == "layoutChanged")
        let back = try ReplayHarness.replay(catalog: "Examples/grocery/grocery.catalog.json",
                                            scenarioText: "wait 2000\nnext\nnext\nwait 2000\nmagic-tap\nwait 2000\nmagic-tap\nwait 2000\n")
        #expect(back.events("focus").compactMap { $0.string("id") }.suffix(2) == ["banana.cell", "search.field"])
    }

    @Test("grocery: quick-add pressed five times fast leaves only the final quantity to hear")
    func quickAddFiveTimes() {
        let burst = (0..<5).flatMap { run.afterKey("increment", occurrence: $0) }
        let spoken = burst.filter { $0.string("op") == "speak" }.compactMap { $0.string("text") }
        #expect(spoken == ["5 no carrinho"])
        let dropped = burst.filter { $0.string("op") == "drop" }.compactMap { $0.string("text") }
        #expect(dropped.contains("1 no carrinho") && dropped.contains("4 no carrinho"))
        // One braille frame for the burst: the last state.
        #expect(burst.filter { $0.string("ch") == "braille" }.compactMap { $0.string("text") } == ["Quantidade de banana, 5 no carrinho ajs"])
    }

    @Test("grocery: the coffee stepper's announcement waits for the new quantity to be heard")
    func announcementWaitsForValue() throws {
        let after = run.afterKey("increment", occurrence: 5)
        let waits = try #require(after.first { $0.string("op") == "postpone" })
        #expect(waits.string("text") == "Café adicionado ao carrinho")
        #expect(waits.string("reason") == "after the user's own speech")
        let value = try #require(run.speakLine("1 no carrinho"))
        let announcement = try #require(run.speakLine("Café adicionado ao carrinho"))
        #expect(announcement.string("prio") == "message")
        // Heard whole: the announcement starts when the value's 13 characters have been said.
        #expect(announcement.int("t")! - value.int("t")! == 13 * 60)
        #expect(!after.contains { $0.string("op") == "cancel" })
    }

    @Test("grocery: the list sheet is modal: focus moves into it and nothing behind it can be reached")
    func sheetIsModal() {
        let open = run.afterKey("activate", occurrence: 0)
        let focus = open.first { $0.string("type") == "focus" }
        #expect(focus?.string("id") == "lists.title")
        #expect(focus?.string("reason") == "modal")
        let atEnd = run.afterKey("next", occurrence: 10)
        #expect(atEnd.contains { $0.string("icon") == "boundary" })
        #expect(!atEnd.contains { $0.string("type") == "focus" })
    }

    @Test("grocery: the rotor speaks select, edit, delete; delete announces, then focus moves, both heard whole")
    func customActionsAndDelete() throws {
        #expect((0..<3).map { speak(after: "action-next", $0).first?.text } == ["Selecionar", "Editar", "Excluir"])
        let delete = run.afterKey("activate", occurrence: 1)
        #expect(delete.contains { $0.string("type") == "action" && $0.string("name") == "Excluir" && $0.string("id") == "list.weekly" })
        let said = Array(delete.filter { $0.string("op") == "speak" }.prefix(2))
        #expect(said.map { $0.string("text") } == ["Lista Feira da semana excluída", "Churrasco de domingo, 7 itens"])
        #expect(said[1].int("t")! - said[0].int("t")! == "Lista Feira da semana excluída".count * 60)
        #expect(!delete.contains { $0.string("op") == "cancel" })
        // The announcement flashes on the display, and the focus line returns after 4 s.
        let flash = try #require(delete.first { $0.string("ch") == "braille" && $0["flash"] != nil })
        #expect(flash.string("text") == "Lista Feira da semana excluída")
        let back = try #require(delete.first { $0.string("ch") == "braille" && $0.string("text") == "Churrasco de domingo, 7 itens ações" })
        #expect(back.int("t")! - flash.int("t")! == 4000)
    }

    @Test("grocery: escape closes the sheet and focus returns to the button that opened it")
    func escapeReturnsFocus() {
        let focus = run.afterKey("escape").first { $0.string("type") == "focus" }
        #expect(focus?.string("id") == "header.lists")
        #expect(focus?.string("reason") == "modal")
        #expect(speak(after: "escape", 0).first?.text == "Minhas listas, botão")
    }

    @Test("grocery: the loading indicator is focused, named, heard progressing and heard finishing")
    func loadingIndicator() {
        let checkout = run.afterKey("activate", occurrence: 2)
        let focus = checkout.first { $0.string("type") == "focus" }
        #expect(focus?.string("id") == "checkout.loading")
        let said = checkout.filter { $0.string("op") == "speak" }.map { ($0.string("text") ?? "", $0.string("prio") ?? "") }
        // 20% waited behind the focus speech and 40% took its place: what is heard is what the display shows.
        #expect(said.map(\.0) == ["Finalizando compra, 0%", "40%", "100%", "Pedido confirmado, cabeçalho"])
        #expect(said[2].1 == "message", "the last progress is spoken at message priority")
        #expect(checkout.filter { $0.string("icon") == "progress" }.count == 5, "a sound for every step")
        #expect(checkout.contains { $0.string("op") == "drop" && $0.string("reason") == "interval" })
        // On the display, progress updates at most once a second; the last step always shows, as a message.
        let progressFrames = checkout.filter { $0.string("ch") == "braille" && ($0.string("text") ?? "").hasPrefix("Finalizando") }
        let times = progressFrames.filter { $0["flash"] == nil }.compactMap { $0.int("t") }
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 1000 })
        #expect(progressFrames.last?.string("text") == "Finalizando compra, 100%" && progressFrames.last?["flash"] == .bool(true))
        #expect(checkout.contains { $0.string("type") == "screen" && $0.string("screen") == "confirmed" })
    }

    @Test("grocery: a hint follows its element after the pause, as a notification")
    func hintAfterPause() throws {
        let cell = try #require(run.speakLine("Banana, 1 kg, R$ 5,99, botão"))
        let hint = try #require(run.speakLine("Abre os detalhes do produto"))
        #expect(hint.string("prio") == "notification")
        #expect(hint.int("t")! - cell.int("t")! == "Banana, 1 kg, R$ 5,99, botão".count * 60 + 1000)
    }

    @Test("grocery: a long line pans across a 20-cell display, on to its hint and into the next element")
    func panningOnTwentyCells() throws {
        var profile = try ReplayHarness.profile()
        profile.brailleWidth = 20
        let r = try ReplayHarness.replay(catalog: "Examples/grocery/grocery.catalog.json",
                                         scenarioText: "wait 2000\nnext\nnext\nmagic-tap\nwait 500\npan-right\nwait 500\npan-right\nwait 500\npan-right\nwait 500\npan-right\nwait 500\npan-left\nwait 500\n",
                                         profile: profile)
        let frames = r.braille.filter { t in ["Banana", "Quantidade", "Abre"].contains { (t.string("text") ?? "").hasPrefix($0) } }
        // Past the line's end its hint ("Abre os detalhes do produto", two windows), then the next element.
        #expect(frames.map { "\($0.string("text")!.prefix(6)) \($0.string("window")!)" }
                == ["Banana 1/2", "Banana 2/2", "Abre o 1/2", "Abre o 2/2", "Quanti 1/3", "Banana 2/2"])
        #expect(frames.allSatisfy { ($0.string("cells") ?? "").count <= 20 })
    }
}

/// A transcript line's text, for short assertions.
struct TranscriptLineView {
    let line: TranscriptLine
    init(_ line: TranscriptLine) { self.line = line }
    var text: String? { line.string("text") }
}
