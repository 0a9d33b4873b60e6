import Foundation
import Testing
import TandemModel
import TandemService
import TandemSuites

/// App cases of `tandem test` (Docs/ci.md#apps): the repository's Python grocery app
/// (`Examples/clients/grocery_app.py`) started against a private service on the virtual
/// clock, driven by the case's steps, compared with its golden transcript.
@Suite("app cases: an app's own script against a private service")
struct AppCaseTests {
    static let clients = SuiteFixtures.packageRoot.appendingPathComponent("Examples/clients").path

    /// A case file for `command` with `steps`, in a new folder.
    static func write(_ name: String = "groceries", command: [String], steps: [String], timeout: Double? = nil,
                      in folder: String? = nil) throws -> String {
        let root = try folder ?? SuiteFixtures.folder("apps")
        let quoted = { (s: String) in "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n") + "\"" }
        var text = "{\n  \"format\": \"tandem.app/1\",\n  \"command\": [\(command.map(quoted).joined(separator: ", "))],\n  \"steps\": [\n"
        text += steps.map { "    " + quoted($0) }.joined(separator: ",\n") + "\n  ]"
        if let timeout { text += ",\n  \"timeout\": \(timeout)" }
        text += "\n}\n"
        try SuiteFixtures.write(text, root + "/\(name).app.json")
        return root + "/\(name).app.json"
    }

    /// The grocery app: two items' quantities raised, one row deleted, then the checkout
    /// (whose progress steps the app sends 0.4 s apart in real time), and the virtual time
    /// its speech takes.
    static let groceryCommand = ["python3", clients + "/grocery_app.py"]
    static let grocerySteps = [
        "next", "next", "increment", "increment", "expect Banana quantity",
        "previous", "action-next", "activate", "wait 3000",
        "last", "activate", "wait 5000", "expect Order confirmed",
    ]

    static func run(_ path: String, update: Bool = false) throws -> CaseResult {
        let summary = SuiteFixtures.runner(jobs: 1, update: update).run(try SuiteFixtures.plan([path]))
        try #require(summary.results.count == 1)
        return summary.results[0]
    }

    static func failures(_ r: CaseResult) -> [CaseResult.Failure] {
        if case .failed(let f) = r.outcome { return f }
        return []
    }

    @Test("found by its name, recorded with --update, then passing; what the golden holds is what the app made the user hear")
    func recordsAndPasses() throws {
        let path = try Self.write(command: Self.groceryCommand, steps: Self.grocerySteps)
        defer { SuiteFixtures.remove(SuitePath.folder(of: path)) }
        let plan = try SuiteFixtures.plan([SuitePath.folder(of: path)])
        #expect(plan.cases.map(\.name) == [path])
        #expect(plan.cases.map(\.isApp) == [true])
        #expect(plan.cases[0].goldenPath(catalogLanguage: "en") == SuitePath.folder(of: path) + "/groceries.app.golden.jsonl")

        let missing = try Self.run(path)
        guard case .missingGolden? = Self.failures(missing).first else { Issue.record("\(missing.outcome)"); return }

        let recorded = try Self.run(path, update: true)
        #expect(recorded.passed, "\(recorded.outcome)")
        #expect(recorded.written == .recorded(AppCase.goldenPath(forCase: path)))
        let golden = try String(contentsOfFile: AppCase.goldenPath(forCase: path), encoding: .utf8)
        // The app's screen, the stepper's values as the user's own changes, the deletion's
        // announcement and the row after it, the checkout's progress and the new screen.
        for said in ["Groceries, heading", "1 in cart", "2 in cart", "Banana deleted", "Coffee, 500 g, $8.49", "Order confirmed, heading"] {
            #expect(golden.contains(#""text":"\#(said)"#), "\(said) in \(golden)")
        }
        #expect(!golden.contains("expect-failed"))

        let again = try Self.run(path)
        #expect(again.passed, "\(again.outcome)")
    }

    @Test("two runs give byte-identical transcripts, however long the app's own sleeps take")
    func deterministic() throws {
        let first = try Self.write(command: Self.groceryCommand, steps: Self.grocerySteps)
        let second = try Self.write(command: Self.groceryCommand, steps: Self.grocerySteps)
        defer { SuiteFixtures.remove(SuitePath.folder(of: first)); SuiteFixtures.remove(SuitePath.folder(of: second)) }
        #expect(try Self.run(first, update: true).passed)
        #expect(try Self.run(second, update: true).passed)
        let a = try Data(contentsOf: URL(fileURLWithPath: AppCase.goldenPath(forCase: first)))
        let b = try Data(contentsOf: URL(fileURLWithPath: AppCase.goldenPath(forCase: second)))
        #expect(!a.isEmpty && a == b)
        // The checkout's five progress steps were sent 0.4 s apart in real time: all of them
        // land at the time of the `activate` that started them, none after the clock moved on.
        let lines = String(decoding: a, as: UTF8.self).split(separator: "\n")
        let confirmed = try #require(lines.first { $0.contains(#""text":"Order confirmed, heading""#) })
        let placing = lines.filter { $0.contains("Placing order") }
        #expect(!placing.isEmpty)
        let time = { (line: Substring) in line.firstMatch(of: /"t":(\d+)/).map { Int($0.1)! } ?? -1 }
        // Speech at that one time; the display's frame of the same instant is held to the next
        // millisecond (a live session writes braille at most once a millisecond,
        // Docs/reliability.md#round-bound).
        let spoken = placing.filter { $0.contains(#""ch":"speech""#) }
        let shown = placing.filter { $0.contains(#""ch":"braille""#) }
        #expect(!spoken.isEmpty && Set(spoken.map(time)).count == 1 && time(spoken[0]) <= time(confirmed), "\(placing)")
        #expect(shown.allSatisfy { time($0) == time(spoken[0]) || time($0) == time(spoken[0]) + 1 }, "\(placing)")
    }

    @Test("when the app says something else, the case fails with the difference in words, after the step that caused it")
    func changedApp() throws {
        let folder = try SuiteFixtures.folder("apps")
        defer { SuiteFixtures.remove(folder) }
        // A copy of the example app beside the case, with its client.
        for f in ["grocery_app.py", "tandem_client.py"] { try FileManager.default.copyItem(atPath: Self.clients + "/" + f, toPath: folder + "/" + f) }
        let path = try Self.write(command: ["python3", "grocery_app.py"], steps: ["next", "next", "next"], in: folder)
        #expect(try Self.run(path, update: true).passed)
        let app = folder + "/grocery_app.py"
        try String(contentsOfFile: app, encoding: .utf8).replacingOccurrences(of: "\"1 kg\"", with: "\"2 kg\"")
            .write(toFile: app, atomically: true, encoding: .utf8)
        let r = try Self.run(path)
        guard case .differs(let golden, _, let heard)? = Self.failures(r).first else { Issue.record("\(r.outcome)"); return }
        #expect(golden == AppCase.goldenPath(forCase: path))
        let words = heard.render()
        #expect(words.contains("after `next` at line 5:"), "\(words)")
        #expect(words.contains("heard «Banana, 2 kg, $1.99» — was «Banana, 1 kg, $1.99»"), "\(words)")
        #expect(Self.failures(r).first?.scenarioLine == 5)
    }

    @Test("an app that exits at once fails the case with a sentence naming it, and writes no golden")
    func exitsAtOnce() throws {
        let path = try Self.write(command: ["python3", "-c", "print('no service for me'); raise SystemExit(3)"], steps: ["next"])
        defer { SuiteFixtures.remove(SuitePath.folder(of: path)) }
        let r = try Self.run(path, update: true)
        guard case .appFailed(let d)? = Self.failures(r).first else { Issue.record("\(r.outcome)"); return }
        #expect(d.message.hasPrefix("the app python3 -c 'print('no service for me'); raise SystemExit(3)' exited with status 3 before it connected to the service"), "\(d)")
        #expect(d.message.contains("«no service for me»"), "its last output: \(d)")
        #expect(!FileManager.default.fileExists(atPath: AppCase.goldenPath(forCase: path)))
    }

    @Test("an app that never connects fails once its timeout has passed, naming the socket it should have found")
    func neverConnects() throws {
        let path = try Self.write(command: ["python3", "-c", "import time; time.sleep(600)"], steps: ["next"], timeout: 1)
        defer { SuiteFixtures.remove(SuitePath.folder(of: path)) }
        let r = try Self.run(path)
        guard case .appFailed(let d)? = Self.failures(r).first else { Issue.record("\(r.outcome)"); return }
        #expect(d.message.contains("did not connect to the service within 1 s"), "\(d)")
        #expect(d.message.contains("$XDG_RUNTIME_DIR/tandem/control.sock"), "\(d)")
    }

    @Test("an app that stays busy after a step fails naming the step; one that exits midway fails naming it too")
    func busyAndExited() throws {
        // Connects, publishes its screen, then spins on the first action it is sent.
        let spin = """
            import sys; sys.path.insert(0, \(String(reflecting: Self.clients)))
            import tandem_client as t
            app = t.App("Spin")
            app.screen({"id": "s", "title": "Spin", "focus": "a", "root": {"id": "r", "children": [{"id": "a", "label": "Go", "traits": ["button"], "frame": [0, 0, 100, 40]}]}})
            for m in app.messages():
                if m["type"] == "action":
                    while True: pass
            """
        // 5 s: time enough to start Python and connect on a loaded machine, and the cost of the test.
        let path = try Self.write(command: ["python3", "-c", spin], steps: ["next", "activate", "next"], timeout: 5)
        defer { SuiteFixtures.remove(SuitePath.folder(of: path)) }
        let r = try Self.run(path)
        guard case .appFailed(let d)? = Self.failures(r).first else { Issue.record("\(r.outcome)"); return }
        #expect(d.line == 6 && d.message.contains("was still busy 5 s after `activate` at line 6"), "\(d)")

        let quit = spin.replacingOccurrences(of: "while True: pass", with: "raise SystemExit(0)")
        let exits = try Self.write("quits", command: ["python3", "-c", quit], steps: ["next", "activate", "next"], in: SuitePath.folder(of: path))
        let e = try Self.run(exits)
        guard case .appFailed(let x)? = Self.failures(e).first else { Issue.record("\(e.outcome)"); return }
        #expect(x.line == 6 && x.message.contains("exited with status 0 after `activate` at line 6"), "\(x)")
    }

    @Test("a case file's mistakes are bad input naming the line and field")
    func badInput() throws {
        let exists = SuiteFixtures.profiles.exists
        func error(_ text: String) -> String {
            do { _ = try AppCase.decode(Array(text.utf8), file: "a.app.json", profileExists: exists); return "no error" } catch { return error.description }
        }
        #expect(error(#"{"format": "tandem.app/1", "steps": []}"#).contains("missing field \"command\""))
        #expect(error(#"{"format": "tandem.app/1", "command": [], "steps": []}"#).contains("expected the app's command"))
        #expect(error("{\"format\": \"tandem.app/1\", \"command\": [\"x\"],\n \"steps\": [\"next\",\n \"screen list\"]}") .contains("a.app.json:3"))
        #expect(error("{\"format\": \"tandem.app/1\", \"command\": [\"x\"],\n \"steps\": [\"next\",\n \"screen list\"]}").contains("the app shows its own screens"))
        #expect(error("{\"format\": \"tandem.app/1\", \"command\": [\"x\"],\n \"steps\": [\n \"nxet\"]}").contains("a.app.json:3: steps[0]: unknown command \"nxet\""))
        #expect(error(#"{"format": "tandem.app/1", "command": ["x"], "steps": [], "profile": "loud"}"#).contains("no profile \"loud\""))
        #expect(error(#"{"format": "tandem.app/2", "command": ["x"], "steps": []}"#).contains("unsupported format"))
        let (ok, warnings) = try AppCase.decode(Array(#"{"format": "tandem.app/1", "command": ["x"], "steps": ["next"], "colour": 1}"#.utf8),
                                                file: "a.app.json", profileExists: exists)
        #expect(ok.command == ["x"] && ok.scenario.lines.count == 1 && ok.timeout == AppCase.defaultTimeout)
        #expect(warnings.map(\.message) == ["unknown field \"colour\" ignored"])
    }
}

@Suite("app cases in a change list")
struct AppCaseChangeTests {
    @Test("a changed case file or golden selects the app case; a deleted case file is noted")
    func changed() throws {
        let path = try AppCaseTests.write(command: ["python3", "app.py"], steps: ["next"])
        let folder = SuitePath.folder(of: path)
        defer { SuiteFixtures.remove(folder) }
        let finder = SuiteFinder(profileExists: SuiteFixtures.profiles.exists)
        #expect(finder.plan(changed: [path]).cases.map(\.name) == [path])
        #expect(finder.plan(changed: [folder + "/groceries.app.golden.jsonl"]).cases.map(\.name) == [path])
        let gone = finder.plan(changed: [folder + "/other.app.json"])
        #expect(gone.cases.isEmpty && gone.ignoredChanges.map(\.path) == [folder + "/other.app.json"])
        #expect(gone.ignoredChanges.map(\.reason) == [.deleted])
    }
}
