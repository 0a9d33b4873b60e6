import Testing
import TandemModel
import TandemTestSupport

@Suite("Localized labels and StringFormat")
struct LocalizedLabelTests {
    /// The fixture's labels resolved in `language`, by element id.
    func labels(in language: String) throws -> [String: String] {
        let catalog = try FixtureFolder.model.decode("localized.catalog.json").catalog
        var out: [String: String] = [:]
        for e in catalog.screens[0].elements { if let l = e.label { out[e.id] = catalog.resolve(l, language: language) } }
        return out
    }

    @Test("positional %1$@ and %2$@ take their arguments by number, in any order")
    func positional() throws {
        let pt = try labels(in: "pt-BR"), en = try labels(in: "en")
        #expect(pt["job.positional"] == "Designer na Acme")
        #expect(en["job.positional"] == "Designer at Acme")
        #expect(pt["job.positional.reversed"] == "Acme: Designer")
    }

    @Test("plain %@ takes the arguments in order, and %% is a percent sign")
    func sequential() throws {
        let pt = try labels(in: "pt-BR"), en = try labels(in: "en")
        #expect(pt["basket.line"] == nil)
        #expect(pt["basket.sequential"] == "2 kg de banana")
        #expect(en["basket.sequential"] == "2 kg of banana")
        #expect(pt["percent.literal"] == "40% pronto")
        #expect(en["percent.literal"] == "40% done")
    }

    @Test("a key missing in the active language falls back to the catalog's language")
    func fallbackToCatalogLanguage() throws {
        #expect(try labels(in: "en")["fallback.to.catalog.language"] == "Só em português")
    }

    @Test("a language with no strings at all uses the catalog's language")
    func unknownLanguage() throws {
        #expect(try labels(in: "ru")["job.positional"] == "Designer na Acme")
    }

    @Test("a key defined nowhere renders as the key itself, and plain text as it is")
    func unresolvable() throws {
        let catalog = try FixtureFolder.model.decode("localized.catalog.json").catalog
        #expect(catalog.resolve(.localized(key: "no.such.key", args: []), language: "en") == "no.such.key")
        #expect(catalog.resolve(.plain("%1$@ stays"), language: "en") == "%1$@ stays")
    }

    @Test("render substitutes placeholders and leaves anything else alone")
    func render() {
        #expect(StringFormat.render("%1$@ at %2$@", ["Designer", "Acme"]) == "Designer at Acme")
        #expect(StringFormat.render("%2$@ %1$@ %2$@", ["a", "b"]) == "b a b")
        #expect(StringFormat.render("%@ and %@", ["x", "y"]) == "x and y")
        #expect(StringFormat.render("100%%", []) == "100%")
        #expect(StringFormat.render("%d %s % %", ["x"]) == "%d %s % %")
        #expect(StringFormat.render("%0$@", ["x"]) == "%0$@")
        #expect(StringFormat.render("%3$@|", ["x"]) == "|", "a placeholder with no argument renders empty")
        #expect(StringFormat.render("%@ %@", ["x"]) == "x ")
        #expect(StringFormat.render("trailing %", []) == "trailing %")
        #expect(StringFormat.render("", ["x"]) == "")
    }

    @Test("argumentCount is the highest position used, or the number of %@")
    func argumentCount() {
        #expect(StringFormat.argumentCount("%1$@ at %2$@") == 2)
        #expect(StringFormat.argumentCount("%2$@ only") == 2)
        #expect(StringFormat.argumentCount("%@ of %@") == 2)
        #expect(StringFormat.argumentCount("%%@ is literal") == 0)
        #expect(StringFormat.argumentCount("no placeholders") == 0)
        #expect(StringFormat.argumentCount("%1$@ %1$@") == 1)
    }
}
