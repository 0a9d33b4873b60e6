import Testing
@testable import TandemPresentation

/// Hints as VoiceOver composes them: the element's own, then the adjust or toggle instruction;
/// a text field's instead; the hint as the label when there is nothing else to say.
@Suite("hints")
struct HintTests {
    @Test("an adjustable element's own hint is followed by the adjust instruction, one period between")
    func adjustableOwnHint() throws {
        let got = try Described.element(#""label": "Quantity", "hint": "Sets how many.", "traits": ["adjustable"]"#)
        #expect(got.hint == "Sets how many. Swipe up or down with one finger to adjust the value")
        let ru = try Described.element(#""label": "Количество", "hint": "Сколько штук", "traits": ["adjustable"]"#, language: "ru")
        #expect(ru.hint == "Сколько штук. Смахните вверх или вниз одним пальцем, чтобы настроить значение")
    }

    @Test("an element with no label and no value says its hint in their place, and not again after the pause")
    func hintAsLabel() throws {
        let got = try Described.element(#""hint": "Opens settings", "traits": ["button"]"#)
        #expect(got == Described(speech: "Opens settings, button", hint: nil, braille: "Opens settings btn"))
        let adjustable = try Described.element(#""hint": "Hint", "traits": ["adjustable"]"#)
        #expect(adjustable == Described(speech: "Hint, adjustable", hint: nil, braille: "Hint adj"), "no adjust instruction either")
    }

    @Test("a value or a selected state keeps the hint after the pause")
    func hintStaysWithValue() throws {
        #expect(try Described.element(#""value": "3", "hint": "Items in cart""#).hint == "Items in cart")
        #expect(try Described.element(#""hint": "Current size", "traits": ["selected"]"#)
            == Described(speech: "selected", hint: "Current size", braille: "sel"))
    }

    @Test("a switch's own hint comes before the toggle instruction; a switch gets no adjust instruction")
    func switchHint() throws {
        let got = try Described.element(#""label": "Wi-Fi", "value": "1", "hint": "Joins networks", "traits": ["button", "switchButton", "adjustable"]"#)
        #expect(got.hint == "Joins networks. Double tap to toggle setting")
    }

    @Test("a dimmed element gets no default hint, but keeps its own")
    func dimmedHints() throws {
        #expect(try Described.element(#""label": "Wi-Fi", "value": "1", "traits": ["button", "switchButton", "notEnabled"]"#).hint == nil)
        #expect(try Described.element(#""label": "Q", "hint": "Locked", "traits": ["adjustable", "notEnabled"]"#).hint == "Locked")
        #expect(try Described.element(#""label": "Name", "traits": ["textField", "notEnabled"]"#).hint == nil)
    }

    @Test("custom actions are announced after the pause, before the hint")
    func actionsThenHint() throws {
        let got = try Described.element(#""label": "Weekly", "hint": "Opens the list", "actions": [{"name": "Delete"}]"#)
        #expect(got.hint == "Actions available. Opens the list")
        let pt = try Described.element(#""label": "Quantidade", "traits": ["adjustable"], "actions": [{"name": "Zerar"}]"#, language: "pt-BR")
        #expect(pt.hint == "Ações disponíveis. Passe o dedo para cima ou para baixo com um dedo para ajustar o valor")
    }
}
