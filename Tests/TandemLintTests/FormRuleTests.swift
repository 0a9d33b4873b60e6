import Testing
import TandemLint

/// Lint that knows forms (#25): text, secure and search fields and switches are controls; a
/// placeholder is not a label; trait words per trait and language; off-screen elements; labels
/// that are not words; no knock-on findings; messages true to what Tandem says.
@Suite("lint: forms, placement and labels that are not words")
struct FormRuleTests {
    @Test("unlabelled text, secure and search fields and switches are errors, each a control")
    func fieldsAndSwitchesAreControls() throws {
        #expect(try LintFixtures.found(.missingLabel, in: "forms") == [
            "phone.placeholder.only: error",
            "password.unlabelled: error",
            "search.unlabelled: error",
            "notifications.switch.unlabelled: error",
            "help.hint.only: error",
        ])
    }

    @Test("a placeholder-only field and a hint-only button are told as Tandem speaks them")
    func messagesTrueToSpeech() throws {
        let findings = try LintFixtures.lint("forms").filter { $0.rule == "missing-label" }
        let byElement = Dictionary(uniqueKeysWithValues: findings.map { ($0.element ?? "", $0.message) })
        #expect(byElement["phone.placeholder.only"] == "\"phone.placeholder.only\" (textField) has no label; its only speech is its value \"Phone number\", a placeholder, gone as soon as the user types; give it a label")
        #expect(byElement["help.hint.only"] == "\"help.hint.only\" (button) can be used but has no label; VoiceOver says what it is and, only after a pause, its hint \"Opens the help page\"; the rotors and the braille line show nothing to name it")
        #expect(!findings.contains { $0.message.contains("accessible\": false") }, "no control is advised to be hidden")
    }

    @Test("trait words of text fields and switches: \"Email text field\", \"Remember me switch\"")
    func formTraitWords() throws {
        #expect(try LintFixtures.found(.labelRepeatsTrait, in: "forms") == [
            "email.label.says.text.field: warning",
            "remember.label.says.switch: warning",
        ])
    }

    @Test("elements reached by swiping but above the top or beside the screen are errors; below the bottom scrolls")
    func offScreen() throws {
        #expect(try LintFixtures.found(.offScreen, in: "off-screen") == [
            "toast.above.top: error",
            "drawer.beside.leading.edge: error",
            "panel.beside.trailing.edge: error",
        ])
    }

    @Test("resource names, file names, identifiers and symbols are not labels; words, versions and brands are")
    func labelNotWords() throws {
        #expect(try LintFixtures.found(.labelNotWords, in: "label-not-words") == [
            "resource.name.button: error",
            "file.name.image: warning",
            "symbols.only.button: error",
            "camel.case.button: error",
        ])
    }

    @Test("a non-modal overlay is one finding: what it covers is not reported again as covered-by-sibling")
    func noKnockOnFindings() throws {
        let findings = try LintFixtures.lint("overlay-not-modal")
        #expect(findings.filter { $0.rule == "overlay-not-modal" }.count == 3)
        #expect(findings.filter { $0.rule == "covered-by-sibling" }.isEmpty, "\(findings.filter { $0.rule == "covered-by-sibling" })")
        // A sibling that covers a button, with no overlay, is still found.
        #expect(try LintFixtures.found(.coveredBySibling, in: "covered-by-sibling").count == 3)
    }
}
