import Foundation
import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
@testable import TandemPresentation

/// The language files under `Sources/TandemPresentation/Languages/`: complete, well formed,
/// with matching placeholders, each one registered, English as the fallback.
@Suite("language tables")
struct LanguageTableTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/TandemPresentation/Languages")

    static let languages = LanguageTables.embedded.map(\.language)
    static var english: StringsFile { LanguageTables.files["en"]! }

    @Test("every file in Languages/ is embedded and listed, and nothing else is")
    func everyFileRegistered() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".strings") }
        #expect(Set(files.map { String($0.dropLast(".strings".count)) }) == Set(Self.languages))
        for (language, bytes) in LanguageTables.embedded {
            let onDisk = try Data(contentsOf: Self.folder.appendingPathComponent(language + ".strings"))
            #expect(Array(onDisk) == bytes, "\(language).strings embedded as it is on disk")
        }
    }

    @Test("every file parses without a problem", arguments: languages)
    func parsesCleanly(language: String) {
        #expect(LanguageTables.files[language]!.problems.isEmpty, "\(LanguageTables.files[language]!.problems)")
    }

    @Test("every language has exactly English's keys", arguments: languages)
    func sameKeys(language: String) {
        let keys = Set(LanguageTables.files[language]!.entries.map(\.key))
        let english = Set(Self.english.entries.map(\.key))
        #expect(english.subtracting(keys).sorted() == [], "missing in \(language)")
        #expect(keys.subtracting(english).sorted() == [], "in \(language) but not in English")
    }

    /// The argument positions a format uses: `%@` in order, `%n$@` by number.
    static func placeholders(_ format: String) -> [Int] {
        var out: [Int] = []
        var next = 1
        var chars = Array(format)[...]
        while let c = chars.first {
            chars = chars.dropFirst()
            guard c == "%" else { continue }
            if chars.first == "%" { chars = chars.dropFirst(); continue }
            if chars.first == "@" { out.append(next); next += 1; chars = chars.dropFirst(); continue }
            let digits = chars.prefix { $0.isNumber }
            if let n = Int(String(digits)), chars.dropFirst(digits.count).starts(with: "$@") {
                out.append(n)
                chars = chars.dropFirst(digits.count + 2)
            } else {
                out.append(-1)  // a placeholder Tandem does not fill: never right
            }
        }
        return out.sorted()
    }

    @Test("every phrase has the same placeholders as its English", arguments: languages)
    func placeholdersAgree(language: String) {
        let table = LanguageTables.files[language]!.table
        for entry in Self.english.entries {
            guard let own = table[entry.key] else { continue }
            #expect(Self.placeholders(own) == Self.placeholders(entry.value), "\(language) \(entry.key): \"\(own)\" vs \"\(entry.value)\"")
            #expect(!Self.placeholders(entry.value).contains(-1), "en \(entry.key)")
        }
    }

    @Test("the placeholder check tells positional from sequential and catches a stray %")
    func placeholderCheck() {
        #expect(Self.placeholders("%1$@ of %2$@") == [1, 2])
        #expect(Self.placeholders("%2$@ из %1$@") == [1, 2])
        #expect(Self.placeholders("%@%%") == [1], "%% is a percent sign")
        #expect(Self.placeholders("%@%") == [-1, 1], "a lone % is not")
        #expect(Self.placeholders("%d items") == [-1])
        #expect(Self.placeholders("spans %@ rows") != Self.placeholders("spans rows"))
    }

    @Test("every English entry has a comment saying what it is, for translators")
    func englishIsCommented() {
        for entry in Self.english.entries { #expect(!entry.comment.isEmpty, "\(entry.key) at line \(entry.line)") }
    }

    @Test("no Russian word mixes Latin look-alike letters into Cyrillic")
    func russianHasNoHomoglyphs() {
        for entry in LanguageTables.files["ru"]!.entries {
            for word in entry.value.split(whereSeparator: { !$0.isLetter }) {
                let cyrillic = word.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) }
                let latin = word.unicodeScalars.contains { $0.isASCII && $0.properties.isAlphabetic }
                #expect(!(cyrillic && latin), "\(entry.key): \"\(word)\"")
            }
        }
    }

    @Test("a key a language leaves out is said in English")
    func fallsBackToEnglish() {
        let partial = Phrases(language: "xx", entries: ["trait.button": "Knopf"], fallback: Self.english.table)
        #expect(partial.text("trait.button") == "Knopf")
        #expect(partial.text("trait.header") == "heading")
        #expect(partial.format("context.position", "1", "3") == "1 of 3")
        #expect(partial.text("no.such.key") == "no.such.key")
    }

    @Test("a session language finds its table: the tag, then its base language, then English")
    func matching() {
        #expect(Phrases.forLanguage("pt-BR").language == "pt-BR")
        #expect(Phrases.forLanguage("pt").language == "pt-BR")
        #expect(Phrases.forLanguage("pt-PT").language == "pt-BR")
        #expect(Phrases.forLanguage("RU-ru").language == "ru")
        #expect(Phrases.forLanguage("en-GB").language == "en")
        #expect(Phrases.forLanguage("de").language == "en")
        #expect(Phrases.forLanguage("de").text("trait.button") == "button")
    }

    @Test("every command the help key names has a summary in every language", arguments: languages)
    func commandSummaries(language: String) {
        let phrases = Phrases.forLanguage(language)
        for command in Command.table {
            let summary = phrases.commandSummary(command.name)
            #expect(summary != nil && summary != "", "\(language): \(command.name)")
        }
        #expect(Phrases.forLanguage("pt-BR").commandSummary("next") == "ir para o próximo elemento")
        #expect(Phrases.forLanguage("ru").commandSummary("route 3") == "клавиша маршрутизации над ячейкой N: активировать то, что под ней")
    }

    @Test("the trait word lists name every trait VoiceOver says, in its order, in each language")
    func traitWordLists() {
        #expect(Phrases.english.traitWords.map(\.word) == ["dimmed", "button", "back button", "switch button", "text field",
            "secure text field", "is editing", "heading", "link", "adjustable", "image", "search field"])
        #expect(Phrases.russian.traitWords.first { $0.trait == .button }?.word == "кнопка")
        #expect(Phrases.portuguese.abbreviations.first { $0.trait == .header }?.abbreviation == "cab")
    }

    @Test("the phrases other modules use are translated, not English, in pt-BR and ru")
    func tandemPhrasesTranslated() {
        let en = Phrases.english
        for phrases in [Phrases.portuguese, Phrases.russian] {
            for key in ["session.helpHint", "session.markRecorded", "session.catalogError", "hint.actionsAvailable", "rotor.activate",
                        "status.speechUnavailable", "hint.adjustable", "hint.textField", "hint.switchButton"] {
                #expect(phrases.text(key) != en.text(key), "\(phrases.language) \(key)")
            }
        }
        #expect(Phrases.portuguese.helpHint == "Pressione ponto de interrogação para ajuda")
    }
}
