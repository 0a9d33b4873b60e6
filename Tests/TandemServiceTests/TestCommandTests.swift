import Foundation
import Testing

/// `tandem test` as CI runs it: one line a case, a closing count, exit statuses, reports that
/// are whole or absent, shards, golden updates.
@Suite("tandem test on the command line")
struct TestCommandTests {
    static func temporaryCopy(of samples: [String]) throws -> String {
        let root = CLITests.temporaryPath("suites")
        for s in samples {
            try FileManager.default.createDirectory(atPath: "\(root)/\(s)", withIntermediateDirectories: true)
            for f in try FileManager.default.contentsOfDirectory(atPath: CLITests.root.appendingPathComponent("Examples/\(s)").path) {
                try FileManager.default.copyItem(atPath: CLITests.root.appendingPathComponent("Examples/\(s)/\(f)").path, toPath: "\(root)/\(s)/\(f)")
            }
        }
        return root
    }

    @Test("tandem test Examples: the four samples pass, each also walked by a deaf-blind tester, one line each, then the count and the time")
    func samplesPass() throws {
        let r = try CLITests.tandem(["test", "Examples"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 9)
        // Each sample's braille-only walk (`NAME.deafblind.scenario`, `profile braille-only`) too.
        #expect(lines.dropLast().map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == [
            "ok Examples/albums/albums.deafblind.scenario", "ok Examples/albums/albums.scenario",
            "ok Examples/grocery/grocery.deafblind.scenario", "ok Examples/grocery/grocery.scenario",
            "ok Examples/jobs/jobs.deafblind.scenario", "ok Examples/jobs/jobs.scenario",
            "ok Examples/pizza/pizza.deafblind.scenario", "ok Examples/pizza/pizza.scenario",
        ])
        #expect(lines.last?.wholeMatch(of: /8 passed, 0 failed in \d+\.\d\d s/) != nil, "\(lines.last ?? "")")
    }

    @Test("a broken catalog among good suites: the others run, the broken one is reported with its line, exit 2")
    func brokenCatalog() throws {
        let r = try CLITests.tandem(["test", "Examples", "Tests/Fixtures/suites/broken", "-j", "2"])
        #expect(r.status == 2)
        #expect(r.stdout.contains("ERROR  Tests/Fixtures/suites/broken/broken.scenario\n       Tests/Fixtures/suites/broken/broken.catalog.json:4: screens[0].root: expected an object, found a string"))
        #expect(r.stdout.contains("ok     Examples/pizza/pizza.scenario"))
        let last = r.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.wholeMatch(of: /8 passed, 0 failed, 1 error in \d+\.\d\d s/) != nil, "\(last)")
    }

    @Test("with bad input the JUnit and HTML reports are still whole, with the bad case as an error")
    func reportsWithBadInput() throws {
        let out = CLITests.temporaryPath("reports")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try CLITests.tandem(["test", "Examples", "Tests/Fixtures/suites/broken", "--junit", out + "/junit.xml", "--html", out + "/html"])
        #expect(r.status == 2)
        let junit = try String(contentsOfFile: out + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("<testsuites name=\"tandem\" tests=\"9\" failures=\"0\" errors=\"1\""))
        #expect(junit.hasSuffix("</testsuites>\n"))
        let html = try String(contentsOfFile: out + "/html/index.html", encoding: .utf8)
        #expect(html.hasSuffix("</html>\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["html", "junit.xml"], "no temporary files left")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/html") == ["index.html"])
    }

    @Test("--shard 3/2 and -j 0 are bad input: a clear error, exit 2, and no report written at all")
    func badOptions() throws {
        let out = CLITests.temporaryPath("never")
        let shard = try CLITests.tandem(["test", "Examples", "--shard", "3/2", "--junit", out + "/junit.xml", "--html", out + "/html"])
        #expect(shard.status == 2)
        #expect(shard.stderr == "tandem: error: --shard 3/2: K must be between 1 and N, and N at least 1\n")
        #expect(shard.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out))
        let jobs = try CLITests.tandem(["test", "Examples", "-j", "0"])
        #expect(jobs.status == 2)
        #expect(jobs.stderr.contains("-j takes a number of threads"))
        let filter = try CLITests.tandem(["test", "Examples", "--filter", "(unclosed"])
        #expect(filter.status == 2)
        let missing = try CLITests.tandem(["test", "/nonexistent/suites"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "tandem: error: /nonexistent/suites: no such file or folder\n")
    }

    @Test("the shards of the samples are disjoint and together run every case")
    func shards() throws {
        var seen: [String] = []
        for k in 1...3 {
            let r = try CLITests.tandem(["test", "Examples", "--shard", "\(k)/3"])
            #expect(r.status == 0)
            #expect(r.stdout.contains("(shard \(k)/3)"))
            seen += r.stdout.split(separator: "\n").filter { $0.hasPrefix("ok ") }.map { String($0.split(separator: " ")[1]) }
        }
        #expect(seen.sorted() == ["albums", "grocery", "jobs", "pizza"].flatMap { ["Examples/\($0)/\($0).deafblind.scenario", "Examples/\($0)/\($0).scenario"] })
    }

    @Test("a missing golden fails and says how to record it; --update records it and lists it; then the case passes")
    func recordGolden() throws {
        let root = try Self.temporaryCopy(of: ["jobs"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.removeItem(atPath: root + "/jobs/jobs.golden.jsonl")
        let first = try CLITests.tandem(["test", root])
        #expect(first.status == 1)
        #expect(first.stdout.contains("FAIL   \(root)/jobs/jobs.scenario"))
        #expect(first.stdout.contains("no golden file \(root)/jobs/jobs.golden.jsonl; record it with: tandem test --update \(root)/jobs/jobs.scenario"))
        let update = try CLITests.tandem(["test", root, "--update"])
        #expect(update.status == 0)
        #expect(update.stdout.contains("1 golden file written:\n  recorded \(root)/jobs/jobs.golden.jsonl\n"))
        let recorded = try String(contentsOfFile: root + "/jobs/jobs.golden.jsonl", encoding: .utf8)
        let sample = try String(contentsOfFile: CLITests.root.appendingPathComponent("Examples/jobs/jobs.golden.jsonl").path, encoding: .utf8)
        #expect(recorded == sample, "the recorded golden is the sample's, byte for byte")
        #expect(try CLITests.tandem(["test", root]).status == 0)
    }

    @Test("with --diff json a failure prints the same diff tandem check prints")
    func failurePrintsCheckDiff() throws {
        let root = try Self.temporaryCopy(of: ["grocery"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let golden = root + "/grocery/grocery.golden.jsonl"
        let text = try String(contentsOfFile: golden, encoding: .utf8)
        try text.replacingOccurrences(of: "Buscar, botão", with: "Buscar, link").write(toFile: golden, atomically: true, encoding: .utf8)
        let test = try CLITests.tandem(["test", root, "--diff", "json"])
        let check = try CLITests.tandem(["check", root + "/grocery/grocery.catalog.json", root + "/grocery/grocery.scenario", golden])
        #expect(test.status == 1 && check.status == 1)
        let diff = check.stderr.split(separator: "\n").dropFirst().map { "       " + $0 }.joined(separator: "\n")
        #expect(!diff.isEmpty)
        #expect(test.stdout.contains(diff))
    }

    @Test("--filter runs only the cases whose name matches")
    func filter() throws {
        let r = try CLITests.tandem(["test", "Examples", "--filter", "p[iy]zza\\.scenario|jobs\\.scenario"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Examples/pizza/pizza.scenario") && r.stdout.contains("Examples/jobs/jobs.scenario"))
        #expect(!r.stdout.contains("grocery"))
        #expect(r.stdout.contains("2 passed, 0 failed"))
    }

    @Test("- reads the paths from standard input")
    func pathsFromStandardInput() throws {
        let r = try CLITests.tandem(["test", "-"], input: Data("Examples/albums\nExamples/jobs/jobs.scenario\n".utf8))
        #expect(r.status == 0)
        #expect(r.stdout.contains("3 passed, 0 failed"), "albums' two scenarios and jobs': \(r.stdout)")
    }

    @Test("check reads the golden from standard input with -")
    func checkGoldenFromStandardInput() throws {
        let golden = try Data(contentsOf: CLITests.root.appendingPathComponent("Examples/jobs/jobs.golden.jsonl"))
        let r = try CLITests.tandem(["check", "Examples/jobs/jobs.catalog.json", "Examples/jobs/jobs.scenario", "-"], input: golden)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "<stdin>: ok (85 lines)\n")
        let two = try CLITests.tandem(["check", "-", "Examples/jobs/jobs.scenario", "-"])
        #expect(two.status == 64)
    }

    @Test("replay reads the catalog from standard input with -, and names it <stdin> in errors")
    func replayCatalogFromStandardInput() throws {
        let catalog = try Data(contentsOf: CLITests.root.appendingPathComponent("Examples/jobs/jobs.catalog.json"))
        let r = try CLITests.tandem(["replay", "-", "Examples/jobs/jobs.scenario"], input: catalog)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == (try String(contentsOf: CLITests.root.appendingPathComponent("Examples/jobs/jobs.golden.jsonl"), encoding: .utf8)))
        let bad = try CLITests.tandem(["replay", "-", "Examples/jobs/jobs.scenario"], input: Data("{".utf8))
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("tandem: error: <stdin>:1: "))
        let run = try CLITests.tandem(["run", "-"])
        #expect(run.status == 64)
    }

    @Test("the man page and --help cover every subcommand")
    func everySubcommandDocumented() throws {
        let man = try String(contentsOf: CLITests.root.appendingPathComponent("Docs/tandem.1"), encoding: .utf8)
        let help = try CLITests.tandem(["--help"]).stdout
        for sub in ["replay", "check", "view", "run", "test", "lint"] {
            #expect(man.contains(".B tandem \(sub)"), "tandem.1 lacks \(sub)")
            #expect(help.contains("  \(sub) "), "--help lacks \(sub)")
            let own = try CLITests.tandem([sub, "--help"])
            #expect(own.status == 0 && own.stdout.contains("USAGE: tandem \(sub)"))
        }
    }
}
