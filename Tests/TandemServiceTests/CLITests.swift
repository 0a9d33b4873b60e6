import Foundation
import Testing
import TandemTestSupport

/// The `tandem` executable, run as a user would: exit statuses, one-line errors that name the
/// file and line, no half-written transcripts, and `check` diffs a tester can read.
@Suite("tandem command line")
struct CLITests {
    static let root = URL(fileURLWithPath: PackageRoot.path)

    /// Runs `tandem` from the package root, with no user profiles, and waits for it.
    static func tandem(_ args: [String], environment: [String: String] = [:], input: Data? = nil) throws -> ProcessResult {
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = "/nonexistent-tandem-test"
        env.merge(environment) { _, new in new }
        return try ProcessRunner.run([try TandemBinary.path()] + args, environment: env, directory: PackageRoot.path, input: input)
    }

    static func fixture(_ name: String) -> String { FixtureFolder.cli.path(name) }

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tandem-cli-\(UUID().uuidString)-\(name)").path
    }

    @Test("a replay prints the transcript: the title first, then the button, then the announcement")
    func replayPrintsTranscript() throws {
        let r = try Self.tandem(["replay", Self.fixture("tiny.catalog.json"), Self.fixture("tiny.scenario")])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let spoken = lines.filter { $0.contains("\"op\":\"speak\"") }
        #expect(spoken.first == #"{"t":0,"ch":"speech","op":"speak","prio":"text","text":"Groceries, heading","lang":"en","src":"focus"}"#)
        #expect(spoken.contains { $0.contains(#""prio":"message","text":"Added""#) })
        #expect(lines.contains(#"{"t":0,"ch":"braille","text":"Groceries hdr","cells":"⠠⠛⠗⠕⠉⠑⠗⠊⠑⠎⠀⠓⠙⠗","cursor":0,"window":"1/1"}"#))
    }

    @Test("two replays of the same input are byte-identical")
    func replayIsDeterministic() throws {
        let a = try Self.tandem(["replay", "Examples/grocery/grocery.catalog.json", "Examples/grocery/grocery.scenario"])
        let b = try Self.tandem(["replay", "Examples/grocery/grocery.catalog.json", "Examples/grocery/grocery.scenario"])
        #expect(a.status == 0)
        #expect(!a.stdout.isEmpty)
        #expect(a.stdout == b.stdout)
    }

    @Test("check passes on every sample's golden transcript")
    func checkPassesOnSamples() throws {
        let examples = PackageRoot.url("Examples")
        let folders = try FileManager.default.contentsOfDirectory(atPath: examples.path).sorted()
        var checked: [String] = []
        for folder in folders {
            let dir = examples.appendingPathComponent(folder)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            for golden in files where golden.hasSuffix(".golden.jsonl") {
                let stem = String(golden.dropLast(".golden.jsonl".count))
                guard let catalog = files.first(where: { $0.hasSuffix(".catalog.json") }),
                      files.contains(stem + ".scenario") else { continue }
                let r = try Self.tandem(["check", dir.appendingPathComponent(catalog).path,
                                         dir.appendingPathComponent(stem + ".scenario").path, dir.appendingPathComponent(golden).path])
                #expect(r.status == 0, "\(folder)/\(golden): \(r.stderr)")
                checked.append(folder)
            }
        }
        #expect(checked == ["albums", "albums", "grocery", "grocery", "jobs", "jobs", "pizza", "pizza"],
                "every sample's golden files were checked, its deaf-blind walk's too")
    }

    @Test("check fails on an edited golden file with a diff naming the line, expected and got")
    func checkShowsReadableDiff() throws {
        let golden = try Example("grocery").golden()
        var lines = golden.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let target = try #require(lines.firstIndex { $0.contains("\"text\":\"Buscar, botão\"") && $0.contains("\"op\":\"speak\"") })
        let original = lines[target]
        lines[target] = original.replacingOccurrences(of: "Buscar, botão", with: "Buscar, link")
        let edited = Self.temporaryPath("edited.golden.jsonl")
        try lines.joined(separator: "\n").write(toFile: edited, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: edited) }
        let r = try Self.tandem(["check", "Examples/grocery/grocery.catalog.json", "Examples/grocery/grocery.scenario", edited])
        #expect(r.status == 1)
        #expect(r.stderr.contains("- expected line \(target + 1): \(lines[target])"))
        #expect(r.stderr.contains("+ got line \(target + 1):      \(original)"))
    }

    @Test("an order entry naming a missing element is reported with file, line and JSON path")
    func missingOrderEntry() throws {
        let out = Self.temporaryPath("never.jsonl")
        let r = try Self.tandem(["replay", Self.fixture("broken-order.catalog.json"), Self.fixture("tiny.scenario"), "--out", out])
        #expect(r.status == 2)
        #expect(r.stderr == "tandem: error: \(Self.fixture("broken-order.catalog.json")):13: screens[0].root.children[2].order[1]: no element \"catalog.nothere\"\n")
        #expect(!FileManager.default.fileExists(atPath: out), "no partial transcript is left behind")
    }

    @Test("a duplicate id names both places")
    func duplicateID() throws {
        let r = try Self.tandem(["replay", Self.fixture("duplicate.catalog.json"), Self.fixture("tiny.scenario")])
        #expect(r.status == 2)
        #expect(r.stderr.contains(":6: screens[0].root.children[1].id: duplicate id \"twice\" (first defined at line 5"))
        #expect(r.stdout.isEmpty)
    }

    @Test("invalid JSON and a wrong type are one-line errors with the line")
    func invalidJSONAndWrongType() throws {
        let a = try Self.tandem(["replay", Self.fixture("invalid.catalog.json"), Self.fixture("tiny.scenario")])
        #expect(a.status == 2)
        #expect(a.stderr.hasPrefix("tandem: error: \(Self.fixture("invalid.catalog.json")):4: "))
        #expect(a.stderr.split(separator: "\n").count == 1)
        let b = try Self.tandem(["replay", Self.fixture("wrongtype.catalog.json"), Self.fixture("tiny.scenario")])
        #expect(b.status == 2)
        #expect(b.stderr.contains(":5: screens[0].root.children[0].traits: expected an array, found a string"))
    }

    @Test("an unknown scenario command names the scenario file and line")
    func unknownScenarioCommand() throws {
        let r = try Self.tandem(["replay", Self.fixture("tiny.catalog.json"), Self.fixture("unknown-command.scenario")])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("tandem: error: \(Self.fixture("unknown-command.scenario")):3: unknown command \"jump-around\""))
    }

    @Test("a missing file is bad input, not a crash")
    func missingFile() throws {
        let r = try Self.tandem(["replay", "/nonexistent/x.catalog.json", Self.fixture("tiny.scenario")])
        #expect(r.status == 2)
        #expect(r.stderr == "tandem: error: /nonexistent/x.catalog.json: no such file\n")
    }

    @Test("a failed expect exits 1 and names the line, the transcript is still complete")
    func failedExpect() throws {
        let r = try Self.tandem(["replay", Self.fixture("tiny.catalog.json"), Self.fixture("failing-expect.scenario")])
        #expect(r.status == 1)
        #expect(r.stderr.contains("failing-expect.scenario:3: expect failed: \"Remove\" not in the last focus speech \"Add, button\""))
        #expect(r.stdout.contains(#""type":"expect-failed","line":"3""#))
    }

    @Test("unknown options are usage errors")
    func usageErrors() throws {
        let r = try Self.tandem(["replay", "--bogus"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("unknown option --bogus"))
        #expect(r.stderr.contains("USAGE: tandem replay"))
    }

    @Test("a user profile in XDG_CONFIG_HOME overrides the shipped one")
    func userProfileOverrides() throws {
        let home = Self.temporaryPath("xdg")
        try FileManager.default.createDirectory(atPath: home + "/tandem/profiles", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        try #"{"format": "tandem.profile/1", "braille": {"enabled": false}, "verbosity": {"traitWords": false}}"#
            .write(toFile: home + "/tandem/profiles/headless.json", atomically: true, encoding: .utf8)
        let r = try Self.tandem(["replay", Self.fixture("tiny.catalog.json"), Self.fixture("plain.scenario"), "--profile", "headless"],
                                environment: ["XDG_CONFIG_HOME": home])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.contains("\"ch\":\"braille\""))
        #expect(r.stdout.contains(#""text":"Groceries","lang":"en""#))
    }
}
