import Testing
import TandemSuites

@Suite("Shard: a stable split of a suite over CI runners")
struct ShardTests {
    @Test("FNV-1a 64 gives the published test vectors, so every machine hashes alike")
    func fnvVectors() {
        #expect(Shard.fnv1a64("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.fnv1a64("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test("for N from 1 to 7 the shards are disjoint and together hold every case")
    func disjointAndComplete() throws {
        let names = (0..<500).map { "Examples/app\($0 % 13)/screen\($0).scenario [default, \(["en", "pt-BR", "ru"][$0 % 3])]" }
        for n in 1...7 {
            let shards = (1...n).map { Shard(index: $0, count: n)! }
            for name in names {
                #expect(shards.filter { $0.contains(name) }.count == 1, "\(name) in \(n) shards")
            }
            // No shard is left empty by a broken hash on 500 names.
            #expect(shards.allSatisfy { s in names.contains(where: s.contains) })
        }
    }

    @Test("K/N parses; 3/2, 0/2, 2/0, 2 and a/b are errors that say what is wanted")
    func parsing() throws {
        #expect(try Shard.parse("2/4") == Shard(index: 2, count: 4))
        #expect(throws: Shard.ParseError.range("3/2")) { try Shard.parse("3/2") }
        #expect(throws: Shard.ParseError.range("0/2")) { try Shard.parse("0/2") }
        #expect(throws: Shard.ParseError.range("2/0")) { try Shard.parse("2/0") }
        #expect(throws: Shard.ParseError.format("2")) { try Shard.parse("2") }
        #expect(throws: Shard.ParseError.format("a/b")) { try Shard.parse("a/b") }
        #expect(Shard.ParseError.range("3/2").description == "--shard 3/2: K must be between 1 and N, and N at least 1")
    }
}

@Suite("SuitePath: names that are the same on every machine")
struct SuitePathTests {
    @Test("./, doubled and trailing slashes go; a path inside the current folder becomes relative")
    func display() {
        #expect(SuitePath.display("./Examples//grocery/", currentFolder: "/w") == "Examples/grocery")
        #expect(SuitePath.display("/home/ci/app/Examples/grocery/grocery.scenario", currentFolder: "/home/ci/app") == "Examples/grocery/grocery.scenario")
        #expect(SuitePath.display("/elsewhere/x.scenario", currentFolder: "/home/ci/app") == "/elsewhere/x.scenario")
        #expect(SuitePath.display("/home/ci/app", currentFolder: "/home/ci/app/") == ".")
        #expect(SuitePath.display("a/b/../c", currentFolder: "/") == "a/c")
    }

    @Test("join, folder and file")
    func parts() {
        #expect(SuitePath.join(".", "x") == "x")
        #expect(SuitePath.join("a/", "x") == "a/x")
        #expect(SuitePath.folder(of: "a/b/c.scenario") == "a/b")
        #expect(SuitePath.folder(of: "c.scenario") == ".")
        #expect(SuitePath.file(of: "a/b/c.scenario") == "c.scenario")
    }
}

@Suite("Case names and golden files")
struct CaseNameTests {
    @Test("a case is named by its scenario, with the profile and language only when the suite names them")
    func names() {
        #expect(TestCase(suite: 0, scenario: "E/g/g.scenario", profile: "default", language: nil).name == "E/g/g.scenario")
        #expect(TestCase(suite: 0, scenario: "E/g/g.scenario", profile: "braille-only", language: nil).name == "E/g/g.scenario [braille-only]")
        #expect(TestCase(suite: 0, scenario: "E/g/g.scenario", profile: "default", language: "ru").name == "E/g/g.scenario [default, ru]")
    }

    @Test("the golden file leaves out the default profile and the catalog's own language")
    func goldenNames() {
        func golden(_ profile: String, _ language: String?) -> String {
            TestCase(suite: 0, scenario: "E/g/grocery.scenario", profile: profile, language: language).goldenPath(catalogLanguage: "pt-BR")
        }
        #expect(golden("default", nil) == "E/g/grocery.golden.jsonl")
        #expect(golden("default", "pt-BR") == "E/g/grocery.golden.jsonl")
        #expect(golden("default", "ru") == "E/g/grocery.ru.golden.jsonl")
        #expect(golden("braille-only", nil) == "E/g/grocery.braille-only.golden.jsonl")
        #expect(golden("braille-only", "en") == "E/g/grocery.braille-only.en.golden.jsonl")
    }
}
