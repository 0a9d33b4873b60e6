import Testing
import TandemModel
import TandemSuites

@Suite("suite.json: the profiles and languages a folder's scenarios run in")
struct SuiteManifestTests {
    static func decode(_ json: String) throws(Diagnostic) -> (SuiteManifest, [Diagnostic]) {
        try SuiteManifest.decode(Array(json.utf8), file: "suite.json") { ["default", "braille-only"].contains($0) }
    }

    static func error(_ json: String) -> String? {
        do { _ = try decode(json); return nil } catch { return error.description }
    }

    @Test("profiles and languages, in order")
    func valid() throws {
        let (m, warnings) = try Self.decode(#"{"format": "tandem.suite/1", "profiles": ["default", "braille-only"], "languages": ["pt-BR", "en", "ru"]}"#)
        #expect(m.profiles == ["default", "braille-only"])
        #expect(m.languages == ["pt-BR", "en", "ru"])
        #expect(warnings.isEmpty)
    }

    @Test("only a format: the default profile, the catalog's language")
    func defaults() throws {
        let (m, _) = try Self.decode(#"{"format": "tandem.suite/1"}"#)
        #expect(m == SuiteManifest(profiles: ["default"], languages: nil))
    }

    @Test("errors name the file, line and path")
    func errors() {
        #expect(Self.error("{\n\"format\": \"tandem.suite/1\",\n\"profiles\": [\"default\", \"loud\"]\n}") == "suite.json:3: profiles[1]: no profile \"loud\"")
        #expect(Self.error("{\"format\": \"tandem.suite/1\",\n \"languages\": [\"english\"]}") == "suite.json:2: languages[0]: \"english\" is not a language tag (such as en, pt-BR, ru)")
        #expect(Self.error(#"{"format": "tandem.suite/1", "languages": []}"#) == "suite.json:1: languages: the list is empty")
        #expect(Self.error(#"{"format": "tandem.suite/1", "languages": ["ru", "ru"]}"#) == "suite.json:1: languages[1]: \"ru\" is listed twice")
        #expect(Self.error(#"{"profiles": ["default"]}"#) == "suite.json:1: missing field \"format\" (expected \"tandem.suite/1\")")
        #expect(Self.error("{\"format\": \"tandem.suite/1\",") != nil)
    }

    @Test("an unknown field is a warning with its line")
    func unknownField() throws {
        let (_, warnings) = try Self.decode("{\"format\": \"tandem.suite/1\",\n\"profile\": \"default\"}")
        #expect(warnings.map(\.description) == ["suite.json:2: profile: unknown field \"profile\" ignored"])
    }
}
