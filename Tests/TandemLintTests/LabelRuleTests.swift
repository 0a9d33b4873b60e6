import Testing
import TandemLint

@Suite("lint: labels — what VoiceOver says an element is")
struct LabelRuleTests {
    @Test("an icon button with no label is an error, a stepper with only a value too; a bare image is a warning")
    func missingLabel() throws {
        #expect(try LintFixtures.found(.missingLabel, in: "missing-label") == [
            "close.icon.unlabelled: error",
            "stepper.value.only: error",
            "decoration.image.unlabelled: warning",
        ])
    }

    @Test("the unlabelled button's message says VoiceOver can only say what it is")
    func missingLabelMessage() throws {
        let f = try #require(try LintFixtures.lint("missing-label").first { $0.element == "close.icon.unlabelled" })
        #expect(f.message == "\"close.icon.unlabelled\" (button, image) can be used but has no label; VoiceOver says only what it is, never what it does")
        #expect(f.description.hasPrefix("missing-label.catalog.json:9: screens[0].root.children[1]: error: "))
        #expect(f.description.hasSuffix(" [missing-label]"))
    }

    @Test("\"Close button\" on a button repeats its trait; the word in plain text without the trait does not")
    func labelRepeatsTraitEnglish() throws {
        #expect(try LintFixtures.found(.labelRepeatsTrait, in: "label-repeats-trait") == [
            "close.button.says.button: warning",
            "photo.image.says.photo: warning",
            "search.field.says.search.field: warning",
        ])
        let close = try #require(try LintFixtures.lint("label-repeats-trait").first { $0.element == "close.button.says.button" })
        #expect(close.message == "the label \"Close button\" of \"close.button.says.button\" says \"button\", which its button trait already says")
    }

    @Test("\"Fechar botão\" and \"Botao fechar\" repeat the trait in Portuguese, with or without the accent")
    func labelRepeatsTraitPortuguese() throws {
        #expect(try LintFixtures.found(.labelRepeatsTrait, in: "label-repeats-trait.pt-BR") == [
            "fechar.botao.after: warning",
            "botao.fechar.before.without.accent: warning",
            "foto.image.says.foto: warning",
        ])
    }

    @Test("Russian: кнопка and кнопку are both the button's word")
    func labelRepeatsTraitRussian() throws {
        #expect(try LintFixtures.found(.labelRepeatsTrait, in: "label-repeats-trait.ru") == [
            "knopka.zakryt.nominative: warning",
            "zakryt.knopku.accusative: warning",
        ])
    }
}

@Suite("lint: hints — said a second after the label")
struct HintRuleTests {
    @Test("a hint equal to the label, starting with it, or made of its words repeats it")
    func hintRepeatsLabel() throws {
        #expect(try LintFixtures.found(.hintRepeatsLabel, in: "hint-repeats-label") == [
            "buscar.hint.same.as.label: warning",
            "carrinho.hint.starts.with.label: warning",
            "listas.hint.mostly.label.words: warning",
        ])
    }

    @Test("\"Toque duas vezes\" and \"Double-tap\" name gestures; an adjustable's swipe hint is only a note; \"etapa\" is not \"tap\"")
    func hintNamesGesture() throws {
        #expect(try LintFixtures.found(.hintNamesGesture, in: "hint-names-gesture") == [
            "carrinho.hint.toque: warning",
            "listas.hint.english.tap: warning",
            "volume.adjustable.hint.deslize: info",
        ])
        let toque = try #require(try LintFixtures.lint("hint-names-gesture").first { $0.element == "carrinho.hint.toque" })
        #expect(toque.message == "the hint \"Toque duas vezes para abrir\" of \"carrinho.hint.toque\" names a gesture (\"toque\"); say what happens instead")
    }

    @Test("Russian gestures in any form: коснитесь, нажмите")
    func hintNamesGestureRussian() throws {
        #expect(try LintFixtures.found(.hintNamesGesture, in: "hint-names-gesture.ru") == [
            "korzina.hint.kosnites: warning",
            "korzina.hint.nazhmite: warning",
        ])
    }
}
