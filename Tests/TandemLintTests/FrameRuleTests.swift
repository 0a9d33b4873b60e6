import Testing
import TandemLint

@Suite("lint: frames — what touch finds and what a finger can hit")
struct FrameRuleTests {
    @Test("a title declared after the header's buttons lies over them: errors for the buttons, a warning for covered text")
    func coveredBySibling() throws {
        #expect(try LintFixtures.found(.coveredBySibling, in: "covered-by-sibling") == [
            "header.back.button: error",
            "header.cart.button: error",
            "note.text.under.banner: warning",
        ])
    }

    @Test("the same header with its title declared first passes, and the covering element is named")
    func coveredBySiblingNamesTheCover() throws {
        let findings = try LintFixtures.lint("covered-by-sibling").filter { $0.rule == "covered-by-sibling" }
        #expect(!findings.contains { $0.screen == "fixed" })
        #expect(findings[0].message == "\"header.back.button\" lies under \"header.title.declared.last\", declared after it and covering its centre; touch exploration finds \"header.title.declared.last\" instead")
    }

    @Test("under 24 pt is an error, under 44 pt a warning; links, text and frameless controls are not judged")
    func smallTarget() throws {
        #expect(try LintFixtures.found(.smallTarget, in: "small-target") == [
            "tiny.button.20: error",
            "icon.button.32: warning",
            "wide.but.short.field.36: warning",
        ])
        let f = try #require(try LintFixtures.lint("small-target").first { $0.element == "wide.but.short.field.36" })
        #expect(f.message == "\"wide.but.short.field.36\" is 358×36 pt; make it at least 44×44 pt")
    }

    @Test("a full-screen sheet an activation shows is an error, a partial one a warning, a visible one too; a modal sheet passes")
    func overlayNotModal() throws {
        let findings = try LintFixtures.lint("overlay-not-modal").filter { $0.rule == "overlay-not-modal" }
        #expect(findings.map { "\($0.element!): \($0.severity.rawValue)" } == [
            "fullscreen.sheet.not.modal: error",
            "partial.sheet.not.modal: warning",
            "dialog.overlay.visible.not.modal: error",
        ])
        #expect(findings[0].context == "after activating \"page.order.1\"")
        #expect(findings[0].message == "\"fullscreen.sheet.not.modal\" covers 100% of the screen and 5 elements behind it but is not modal; swiping walks out of it into the page behind")
        #expect(findings[1].context == "after activating \"page.order.2\"")
        #expect(findings[1].message.contains("covers 34% of the screen and 2 elements"))
        #expect(findings[2].context == nil)
    }
}
