import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
@testable import TandemPresentation

/// How elements are phrased: VoiceOver's order of label, value and trait words, the hint after
/// a pause, braille with short role abbreviations, in en, pt-BR and ru.
@Suite("presenter")
struct PresenterTests {
    /// A one-screen catalog from element JSON, focused on `focus`.
    static func navigator(_ elements: String, language: String = "en", focus: String) throws -> Navigator {
        let json = """
        {"format": "tandem.catalog/1", "language": "\(language)", "screens": [
          {"id": "s", "focus": "\(focus)", "root": {"id": "root", "children": [\(elements)]}}]}
        """
        var decoder = CatalogDecoder(file: "test.catalog.json")
        var nav = Navigator(catalog: try decoder.decode(Array(json.utf8)))
        _ = nav.start()
        return nav
    }

    static func focusOutputs(_ nav: Navigator, verbosity: Verbosity = Verbosity()) -> (speech: Utterance?, braille: BrailleText?) {
        let p = Presenter(language: nav.language, verbosity: verbosity)
        let out = p.present(.focused(screen: "s", element: nav.focusedElement!.id, reason: .user), in: nav)
        var speech: Utterance?, braille: BrailleText?
        for o in out {
            if case .speak(let u) = o { speech = u }
            if case .focusLine(let b) = o { braille = b }
        }
        return (speech, braille)
    }

    @Test("selected comes first, then label, value, dimmed and the role")
    func speechOrder() throws {
        let nav = try Self.navigator(#"{"id": "cell", "label": "Banana", "value": "1 kg", "traits": ["button", "selected", "notEnabled"]}"#, focus: "cell")
        let (speech, braille) = Self.focusOutputs(nav)
        #expect(speech?.text == "selected, Banana, 1 kg, dimmed, button")
        #expect(speech?.source == .focus)
        #expect(braille == BrailleText(text: "sel Banana, 1 kg dim btn", cursor: 0))
    }

    @Test("without trait words only label and value are said and shown")
    func traitWordsOff() throws {
        let nav = try Self.navigator(#"{"id": "h", "label": "Groceries", "traits": ["header"]}"#, focus: "h")
        let (speech, braille) = Self.focusOutputs(nav, verbosity: Verbosity(traitWords: false))
        #expect(speech?.text == "Groceries")
        #expect(braille?.text == "Groceries")
    }

    @Test("the hint is a separate utterance: actions available, then the element's hint")
    func hintAfterActions() throws {
        let nav = try Self.navigator(#"{"id": "l", "label": "Weekly", "hint": "Opens the list", "actions": [{"name": "Delete"}]}"#, focus: "l")
        #expect(Self.focusOutputs(nav).speech?.hint == "Actions available. Opens the list")
        #expect(Self.focusOutputs(nav, verbosity: Verbosity(hints: false)).speech?.hint == "Actions available")
        #expect(Self.focusOutputs(nav, verbosity: Verbosity(hints: false, actionsAvailable: false)).speech?.hint == nil)
    }

    @Test("an adjustable gets VoiceOver's adjustable hint, and braille puts the cursor on its value")
    func adjustable() throws {
        let nav = try Self.navigator(#"{"id": "q", "label": "Quantity", "traits": ["adjustable"], "adjust": {"value": 2, "max": 9, "format": "%@ items"}}"#, focus: "q")
        let (speech, braille) = Self.focusOutputs(nav)
        #expect(speech?.text == "Quantity, 2 items, adjustable")
        #expect(speech?.hint == "Swipe up or down with one finger to adjust the value")
        // The hint travels with the line: the display shows it when the user pans past the line.
        #expect(braille == BrailleText(text: "Quantity, 2 items adj", cursor: 10, editing: true, hint: "Swipe up or down with one finger to adjust the value"))
    }

    @Test("braille keeps a comma between a label ending in a number and a value starting with one")
    func labelAndValueApart() throws {
        let nav = try Self.navigator(#"{"id": "q", "label": "Bread $5.99", "traits": ["adjustable"], "adjust": {"value": 0, "max": 9, "format": "%@ in cart"}}"#, focus: "q")
        let (speech, braille) = Self.focusOutputs(nav)
        #expect(speech?.text.hasPrefix("Bread $5.99, 0 in cart") == true)
        #expect(braille == BrailleText(text: "Bread $5.99, 0 in cart adj", cursor: 13, editing: true, hint: "Swipe up or down with one finger to adjust the value"))
        let unlabelled = try Self.navigator(#"{"id": "q", "traits": ["adjustable"], "adjust": {"value": 3, "max": 9}}"#, focus: "q")
        #expect(Self.focusOutputs(unlabelled).braille?.text.hasPrefix("3") == true, "no comma without a label")
    }

    @Test("Portuguese and Russian trait words, hints and percentages")
    func localized() throws {
        let pt = try Self.navigator(#"{"id": "b", "label": "Comprar", "traits": ["button"], "actions": [{"name": "Excluir"}]}"#, language: "pt-BR", focus: "b")
        #expect(Self.focusOutputs(pt).speech?.text == "Comprar, botão")
        #expect(Self.focusOutputs(pt).speech?.hint == "Ações disponíveis")
        #expect(Self.focusOutputs(pt).speech?.language == "pt-BR")
        let ru = try Self.navigator(#"{"id": "l", "progress": {"label": "Загрузка", "value": 0.4}}, {"id": "h", "label": "Меню", "traits": ["header"]}"#, language: "ru", focus: "l")
        #expect(Self.focusOutputs(ru).speech?.text == "Загрузка, 40 %")
        #expect(Self.focusOutputs(ru).braille?.text == "Загрузка, 40 %")
    }

    @Test("a loading indicator without a label is named by its progress label; indeterminate is in progress")
    func indicator() throws {
        let nav = try Self.navigator(#"{"id": "spin", "progress": {"label": "Loading"}}"#, focus: "spin")
        #expect(Self.focusOutputs(nav).speech?.text == "Loading, in progress")
    }

    @Test("a grouped cell with no label reads its children's labels in reading order")
    func joinedLabel() throws {
        let nav = try Self.navigator("""
            {"id": "cell", "accessible": true, "traits": ["button"], "children": [
              {"id": "artist", "label": "The Beatles", "frame": [0, 30, 100, 20]},
              {"id": "title", "label": "Abbey Road", "frame": [0, 0, 100, 20]},
              {"id": "cover", "accessible": false, "frame": [0, 60, 100, 100]}]}
            """, focus: "cell")
        #expect(Self.focusOutputs(nav).speech?.text == "Abbey Road, The Beatles, button")
    }

    @Test("an announcement is a message to say and a flash for the display; high is important")
    func announcement() throws {
        let nav = try Self.navigator(#"{"id": "b", "label": "Save"}"#, focus: "b")
        let p = Presenter(language: "en")
        let out = p.present(.announcement(text: "Saved", high: true), in: nav)
        #expect(out == [.speak(Utterance(text: "Saved", language: "en", source: .announcement, important: true)),
                        .flash(BrailleText(text: "Saved", cursor: nil))])
    }

    @Test("the rotor says the selected action, or Activate when back on the default")
    func rotor() throws {
        let nav = try Self.navigator(#"{"id": "l", "label": "Weekly", "actions": [{"name": "Delete"}]}"#, focus: "l")
        let p = Presenter(language: "en")
        #expect(p.present(.actionSelected(element: "l", name: "Delete"), in: nav).first == .speak(Utterance(text: "Delete", language: "en", source: .value)))
        #expect(p.present(.actionSelected(element: "l", name: nil), in: nav).first == .speak(Utterance(text: "Activate", language: "en", source: .value)))
    }

    @Test("progress steps say the percentage with their step, after a sound")
    func progress() throws {
        var nav = try Self.navigator(#"{"id": "b", "label": "Pay", "activate": [{"load": "spin", "ms": 1000, "steps": 4}]}, {"id": "spin", "hidden": true, "progress": {"label": "Paying", "value": 0}}"#, focus: "b")
        _ = nav.perform(.activate)
        _ = nav.fire(.loadStep(load: 0, step: 1))
        let out = Presenter(language: "en").present(.progress(element: "spin", step: 1, steps: 4, focused: true), in: nav)
        #expect(out.first == .sound(.progress))
        #expect(out.contains(.speak(Utterance(text: "25%", language: "en", source: .progress, progress: ProgressStep(step: 1, steps: 4, element: "spin")))))
    }

    @Test("an indicator without focus is not followed step by step; its end is said and shown with its name")
    func progressWithoutFocus() throws {
        var nav = try Self.navigator(#"{"id": "b", "label": "Pay", "activate": [{"load": "spin", "ms": 1000, "steps": 4}]}, {"id": "spin", "hidden": true, "progress": {"label": "Paying", "value": 0}}"#, focus: "b")
        _ = nav.perform(.activate)
        _ = nav.fire(.loadStep(load: 0, step: 2))
        let p = Presenter(language: "en")
        #expect(p.present(.progress(element: "spin", step: 2, steps: 4, focused: false), in: nav).isEmpty)
        let end = ProgressStep(step: 4, steps: 4, element: "spin")
        #expect(p.present(.progress(element: "spin", step: 4, steps: 4, focused: false), in: nav) == [
            .sound(.progress),
            .speak(Utterance(text: "Paying, 100%", language: "en", source: .progress, progress: end)),
            .flash(BrailleText(text: "Paying, 100%", cursor: nil)),
        ])
    }

    @Test("the last step is presented as it was when it happened, though its load's then already moved on")
    func lastStepAfterThen() throws {
        var nav = try Self.navigator(#"{"id": "b", "label": "Pay", "activate": [{"load": "spin", "ms": 1000, "steps": 2, "then": [{"set": "b", "value": "done"}]}]}, {"id": "spin", "hidden": true, "progress": {"label": "Paying", "value": 0}}"#, focus: "b")
        _ = nav.perform(.activate)
        _ = nav.fire(.loadStep(load: 0, step: 1))
        let events = nav.fire(.loadStep(load: 0, step: 2))
        try #require(events.first == .progress(element: "spin", step: 2, steps: 2, focused: true))
        #expect(nav.focusedElement?.id == "b", "focus went back before the step is presented")
        let out = Presenter(language: "en").present(events[0], in: nav)
        #expect(out.contains(.speak(Utterance(text: "100%", language: "en", source: .progress, progress: ProgressStep(step: 2, steps: 2, element: "spin")))))
        #expect(out.contains(.flash(BrailleText(text: "Paying, 100%", cursor: nil))))
        #expect(!out.contains { if case .focusLine = $0 { true } else { false } }, "not the opener's line as if it were the indicator's")
    }
}
