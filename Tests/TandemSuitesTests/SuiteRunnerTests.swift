import Foundation
import Testing
import TandemModel
import TandemService
import TandemSession
import TandemSuites
import Synchronization

@Suite("SuiteRunner: cases replayed, compared, recorded")
struct SuiteRunnerTests {
    /// The grocery sample as a suite in three languages, its pt-BR golden the sample's own.
    /// The scenario loses its `expect` lines, which are written in Portuguese (they add
    /// nothing to the transcript when they hold).
    static func groceryInThreeLanguages() throws -> String {
        let root = try SuiteFixtures.folder("grocery")
        for f in ["grocery.catalog.json", "grocery.golden.jsonl"] { try SuiteFixtures.copySample("grocery", f, to: root) }
        let scenario = try String(contentsOfFile: SuiteFixtures.packageRoot.appendingPathComponent("Examples/grocery/grocery.scenario").path, encoding: .utf8)
        try scenario.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("expect ") }
            .joined(separator: "\n").write(toFile: root + "/grocery.scenario", atomically: true, encoding: .utf8)
        try SuiteFixtures.write(#"{"format": "tandem.suite/1", "languages": ["pt-BR", "en", "ru"]}"#, root + "/suite.json")
        return root
    }

    @Test("--update records the missing languages' goldens; the catalog's own language uses the existing golden")
    func updateRecordsNewGoldens() throws {
        let root = try Self.groceryInThreeLanguages()
        defer { SuiteFixtures.remove(root) }
        let first = SuiteFixtures.runner().run(try SuiteFixtures.plan([root]))
        #expect(SuiteFixtures.outcomes(first) == ["grocery.scenario [default, pt-BR]: passed", "grocery.scenario [default, en]: failed", "grocery.scenario [default, ru]: failed"])
        guard case .failed(let f) = first.results[1].outcome, case .missingGolden(let g) = f[0] else { Issue.record("no missing golden"); return }
        #expect(g == root + "/grocery.en.golden.jsonl")
        #expect(f[0].summary(scenario: first.results[1].file) == "no golden file \(g); record it with: tandem test --update \(root)/grocery.scenario")

        let update = SuiteFixtures.runner(update: true).run(try SuiteFixtures.plan([root]))
        #expect(update.written == [.recorded(root + "/grocery.en.golden.jsonl"), .recorded(root + "/grocery.ru.golden.jsonl")])
        #expect(update.failed == 0)
        let second = SuiteFixtures.runner().run(try SuiteFixtures.plan([root]))
        #expect(second.passed == 3 && second.failed == 0)

        // The language is the suite's: English and Russian trait words.
        let en = try String(contentsOfFile: root + "/grocery.en.golden.jsonl", encoding: .utf8)
        let ru = try String(contentsOfFile: root + "/grocery.ru.golden.jsonl", encoding: .utf8)
        #expect(en.contains(#""text":"Mercado, heading","lang":"en""#))
        #expect(ru.contains(#""text":"Mercado, заголовок","lang":"ru""#))
        // The file is what `tandem replay --out` writes: one line each, ending with a newline.
        #expect(en.hasSuffix("}\n"))
    }

    @Test("a changed golden fails with the diff check prints; --update rewrites it and lists it")
    func changedGolden() throws {
        let root = try SuiteFixtures.folder("grocery")
        defer { SuiteFixtures.remove(root) }
        for f in ["grocery.catalog.json", "grocery.scenario", "grocery.golden.jsonl"] { try SuiteFixtures.copySample("grocery", f, to: root) }
        let golden = root + "/grocery.golden.jsonl"
        let original = try String(contentsOfFile: golden, encoding: .utf8)
        try original.replacingOccurrences(of: "Buscar, botão", with: "Buscar, link").write(toFile: golden, atomically: true, encoding: .utf8)
        let run = SuiteFixtures.runner().run(try SuiteFixtures.plan([root]))
        guard case .failed(let failures) = run.results[0].outcome, case .differs(_, let changes, _) = failures[0] else {
            Issue.record("expected a difference"); return
        }
        #expect(failures[0].details(.json) == TranscriptDiff.render(changes))
        #expect(failures[0].details(.json)?.contains("- expected line") == true)
        let update = SuiteFixtures.runner(update: true).run(try SuiteFixtures.plan([root]))
        #expect(update.written == [.updated(golden, changedLines: changes.count)])
        #expect(try String(contentsOfFile: golden, encoding: .utf8) == original)
    }

    @Test("a broken catalog is reported for each of its cases with its line; the other suites still run")
    func brokenCatalogAmongOthers() throws {
        let root = try SuiteFixtures.folder("all")
        defer { SuiteFixtures.remove(root) }
        try FileManager.default.createDirectory(atPath: root + "/jobs", withIntermediateDirectories: true)
        for f in ["jobs.catalog.json", "jobs.scenario", "jobs.golden.jsonl"] { try SuiteFixtures.copySample("jobs", f, to: root + "/jobs") }
        try SuiteFixtures.write("{\n  \"format\": \"tandem.catalog/1\",\n  \"screens\": [ { \"id\": 5, \"root\": { \"id\": \"r\" } } ]\n}\n", root + "/broken/broken.catalog.json")
        try SuiteFixtures.write("next\n", root + "/broken/broken.scenario")
        let run = SuiteFixtures.runner().run(try SuiteFixtures.plan([root]))
        #expect(SuiteFixtures.outcomes(run) == ["broken.scenario: error", "jobs.scenario: passed"])
        guard case .error(let d) = run.results[0].outcome else { return }
        #expect(d.description == "\(root)/broken/broken.catalog.json:3: screens[0].id: expected a string, found a number")
    }

    @Test("a golden that cannot be read, or is not UTF-8, is bad input, not a missing golden")
    func unreadableGolden() throws {
        let root = try SuiteFixtures.folder("jobs")
        defer { SuiteFixtures.remove(root) }
        for f in ["jobs.catalog.json", "jobs.scenario"] { try SuiteFixtures.copySample("jobs", f, to: root) }
        try SuiteFixtures.copySample("jobs", "jobs.scenario", to: root, as: "jobs.second.scenario")
        try FileManager.default.createDirectory(atPath: root + "/jobs.golden.jsonl", withIntermediateDirectories: false)
        try Data([0x7B, 0xFF, 0xFE, 0x7D, 0x0A]).write(to: URL(fileURLWithPath: root + "/jobs.second.golden.jsonl"))
        let run = SuiteFixtures.runner().run(try SuiteFixtures.plan([root]))
        let messages = run.results.map { r -> String in
            if case .error(let d) = r.outcome { return d.message }
            return "not an error"
        }
        #expect(messages == ["cannot read the golden file", "the golden file is not valid UTF-8"])
        #expect(run.errors == 2)
    }

    @Test("four threads give the very transcripts one thread gives, results in plan order")
    func parallelIsDeterministic() throws {
        let root = try SuiteFixtures.folder("samples")
        defer { SuiteFixtures.remove(root) }
        for s in ["grocery", "pizza", "albums", "jobs"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(s)", withIntermediateDirectories: true)
            for f in ["\(s).catalog.json", "\(s).scenario"] { try SuiteFixtures.copySample(s, f, to: "\(root)/\(s)") }
            try SuiteFixtures.write(#"{"format": "tandem.suite/1", "profiles": ["default", "braille-only", "contracted"], "languages": ["en", "ru"]}"#, "\(root)/\(s)/suite.json")
        }
        let plan = try SuiteFixtures.plan([root])
        #expect(plan.cases.count == 24)
        let one = SuiteFixtures.runner(jobs: 1, keepTranscripts: true).run(plan)
        let four = SuiteFixtures.runner(jobs: 4, keepTranscripts: true).run(plan)
        #expect(one.results.map(\.name) == plan.cases.map(\.name))
        #expect(four.results.map(\.name) == plan.cases.map(\.name))
        #expect(one.results.map(\.transcript) == four.results.map(\.transcript))
        #expect(one.results.allSatisfy { ($0.transcript?.count ?? 0) > 10 })
    }

    @Test("results reach progress in plan order, each once")
    func progressInOrder() throws {
        let root = try SuiteFixtures.folder("samples")
        defer { SuiteFixtures.remove(root) }
        for s in ["pizza", "albums", "jobs"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(s)", withIntermediateDirectories: true)
            for f in ["\(s).catalog.json", "\(s).scenario", "\(s).golden.jsonl"] { try SuiteFixtures.copySample(s, f, to: "\(root)/\(s)") }
        }
        let seen = Seen()
        let plan = try SuiteFixtures.plan([root])
        _ = SuiteFixtures.runner(jobs: 3).run(plan) { seen.add($0.name) }
        #expect(seen.names == plan.cases.map(\.name))
    }
}

/// Names collected from the runner's threads.
final class Seen: Sendable {
    private let list = Mutex<[String]>([])
    func add(_ s: String) { list.withLock { $0.append(s) } }
    var names: [String] { list.withLock { $0 } }
}
