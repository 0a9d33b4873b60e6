import Testing
import TandemLint

@Suite("lint: controls — steppers, loading indicators, custom actions")
struct ControlRuleTests {
    @Test("a stepper with neither value nor adjust, or whose format drops the number, has no value to say")
    func adjustableNoValue() throws {
        #expect(try LintFixtures.found(.adjustableNoValue, in: "adjustable-no-value") == [
            "quantity.stepper.no.value: error",
            "quantity.stepper.format.without.number: error",
        ])
    }

    @Test("a loading indicator with no label is an error, whether visible or shown by a load")
    func progressNoLabel() throws {
        let findings = try LintFixtures.lint("progress-no-label").filter { $0.rule == "progress-no-label" }
        #expect(findings.map { "\($0.element!): \($0.severity.rawValue)" } == [
            "spinner.visible.unlabelled: error",
            "loading.unlabelled.shown.by.load: error",
        ])
        #expect(findings[1].context == "after activating \"pay.button\"")
    }

    @Test("two custom actions named Delete and delete, and one with a blank name, cannot be told apart")
    func duplicateActionName() throws {
        let findings = try LintFixtures.lint("duplicate-action-name").filter { $0.rule == "duplicate-action-name" }
        #expect(findings.map(\.message) == [
            "\"list.two.deletes\" has two custom actions named \"delete\"; the actions rotor cannot tell them apart",
            "custom action 1 of \"list.unnamed.action\" has no name",
        ])
    }

    @Test("a stepper inside an accessible cell is out of reach; the same pair in a group is fine")
    func nestedAccessible() throws {
        #expect(try LintFixtures.found(.nestedAccessible, in: "nested-accessible") == [
            "cell.stepper.out.of.reach: error",
        ])
    }
}

@Suite("lint: screens — how a screen opens and what its order reaches")
struct ScreenRuleTests {
    @Test("a screen opening on Back, on text that is not a heading but equals the title passes, on a search field, or with no title")
    func firstFocusNotTitle() throws {
        let findings = try LintFixtures.lint("first-focus-not-title").filter { $0.rule == "first-focus-not-title" }
        #expect(findings.map(\.screen) == ["opens.on.back.button", "opens.on.search.field.no.focus.given", "no.title.opens.on.text"])
        #expect(findings.allSatisfy { $0.severity == .warning && $0.element == nil })
        #expect(findings[0].message == "screen \"opens.on.back.button\" opens on \"orders.back\" (\"Back\"), not on its title \"Orders\" or a heading; VoiceOver says that first when the screen appears")
        #expect(findings[0].path == "screens[0]")
        #expect(findings[2].message == "screen \"no.title.opens.on.text\" has no title and opens on \"untitled.text\" (\"Welcome back\"), not on a heading; VoiceOver says that first when the screen appears")
    }

    @Test("no heading: a warning on a list, only a note on a two-stop alert")
    func noHeading() throws {
        #expect(try LintFixtures.found(.noHeading, in: "no-heading") == [
            "list.without.heading: warning",
            "alert.with.two.stops: info",
        ])
    }

    @Test("an order that leaves out a button is an error, text a warning; hidden elements and named groups are not omitted")
    func orderOmits() throws {
        let findings = try LintFixtures.lint("order-omits").filter { $0.rule == "order-omits" }
        #expect(findings.map { "\($0.element!): \($0.severity.rawValue)" } == [
            "toolbar.caption.omitted.text: warning",
            "toolbar.share.omitted.button: error",
        ])
        #expect(findings[1].message == "the order of \"toolbar.order.leaves.out.two\" leaves out \"toolbar.share.omitted.button\"; VoiceOver can never reach it")
    }

    @Test("three \"Adicionar\" buttons that add different things are one warning; two Close buttons that do the same are fine")
    func sameLabelDifferentAction() throws {
        let findings = try LintFixtures.lint("same-label-different-action").filter { $0.rule == "same-label-different-action" }
        #expect(findings.count == 1)
        #expect(findings.first?.element == "add.banana.says.adicionar")
        #expect(findings.first?.message == "\"Adicionar\" names 3 controls on \"produtos\" that do different things (add.banana.says.adicionar, add.cafe.says.adicionar, add.leite.says.adicionar); say which one each is")
    }
}
