import Foundation
import Testing
import TandemTestSupport

/// Docs/ci.md#recordings as a CI engineer follows it: a session recorded from `tandem serve`,
/// kept as a `tandem test` case with its golden file, passing until what the tester heard
/// changes; and `tandem check` on a recording.
@Suite("Docs/ci.md#recordings, run as written")
struct RecordingRecipeTests {
    /// The recipe run in a scratch app repository (the bank suite under `accessibility/`), with
    /// no speech-dispatcher or BRLTTY answering.
    static func runRecipe() throws -> (root: String, result: ProcessResult) {
        let recipe = try DocBlock.first("Docs/ci.md", language: "sh", after: "<a id=\"recordings\"></a>")
        let root = try CIRecipeTests.repository()
        let runtime = root + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let r = try CIRecipeTests.sh(recipe, in: root, [
            "XDG_RUNTIME_DIR": runtime,
            "SPEECHD_ADDRESS": "unix_socket:\(runtime)/no-speechd.sock",
            "BRLAPI_HOST": "127.0.0.1:4996",
        ])
        return (root, r)
    }

    @Test("the recorded session becomes a passing case beside the suites, and fails when what the tester heard changes")
    func recordedSessionIsATest() throws {
        let (root, r) = try Self.runRecipe()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let recording = root + "/accessibility/bank/tester.session.record"
        let golden = root + "/accessibility/bank/tester.session.golden.jsonl"
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("recorded accessibility/bank/tester.session.golden.jsonl"), "\(r.stdout)")
        #expect(r.stdout.contains("ok     accessibility/bank/tester.session.record"), "\(r.stdout)")
        #expect(r.stdout.contains("ok     accessibility/bank/bank.scenario"), "the suites beside it run too: \(r.stdout)")
        let recorded = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(recorded.contains(#"\"command\":\"activate\""#) && recorded.contains(#""stop":true"#), "\(recorded)")
        // What the tester heard, kept: the keys' speech and the announcement the button made.
        let kept = try String(contentsOfFile: golden, encoding: .utf8)
        for said in ["Accounts, heading", "Save changes, button", "Saved"] {
            #expect(kept.contains(#""text":"\#(said)""#), "\(said)")
        }

        // `tandem check` takes the recording and its golden file.
        let check = try CIRecipeTests.tandem(["check", "accessibility/bank/tester.session.record", "accessibility/bank/tester.session.golden.jsonl"], in: root)
        #expect(check.status == 0 && check.stdout.contains("tester.session.golden.jsonl: ok"), "\(check.stdout)\(check.stderr)")

        // The app (here the catalog) now says something else: the case fails, told in words.
        try CIRecipeTests.edit(root + "/accessibility/bank/bank.catalog.json") { $0.replacingOccurrences(of: "\"Save changes\"", with: "\"Save\"") }
        let after = try CIRecipeTests.tandem(["test", "accessibility/bank/tester.session.record"], in: root)
        #expect(after.status == 1, "\(after.stdout)\(after.stderr)")
        #expect(after.stdout.hasPrefix("FAIL   accessibility/bank/tester.session.record"), "\(after.stdout)")
        #expect(after.stdout.contains("heard «Save, button» — was «Save changes, button»"), "\(after.stdout)")
        let checkAfter = try CIRecipeTests.tandem(["check", "accessibility/bank/tester.session.record", "accessibility/bank/tester.session.golden.jsonl"], in: root)
        #expect(checkAfter.status == 1 && checkAfter.stderr.contains("differs from the golden file"), "\(checkAfter.stderr)")
    }

    @Test("a recording moved to another checkout finds its catalog beside it")
    func movedRecording() throws {
        let (root, r) = try Self.runRecipe()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        // Another machine's checkout: the recorded absolute path is not there.
        let elsewhere = root + "-elsewhere"
        try FileManager.default.moveItem(atPath: root, toPath: elsewhere)
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        let moved = try CIRecipeTests.tandem(["test", "accessibility/bank/tester.session.record"], in: elsewhere)
        #expect(moved.status == 0, "\(moved.stdout)\(moved.stderr)")
    }

    @Test("a recording without its golden file fails and says how to record it; a broken one is bad input naming its line")
    func missingGoldenAndBadInput() throws {
        let folder = CLITests.temporaryPath("recordings")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            {"t":0,"start":{"profile":"headless","speechNotices":true}}
            {"t":0,"open":true}
            {"t":500,"key":"next"}
            {"t":900,"stop":true}

            """.write(toFile: folder + "/quiet.session.record", atomically: true, encoding: .utf8)
        let missing = try CIRecipeTests.tandem(["test", "."], in: folder)
        #expect(missing.status == 1, "\(missing.stdout)\(missing.stderr)")
        #expect(missing.stdout.contains("FAIL   quiet.session.record") && missing.stdout.contains("quiet.session.golden.jsonl"), "\(missing.stdout)")

        try #"{"t":0,"start":{"profile":"headless"}}"# .appending("\n" + #"{"t":5,"speechd":"paused","id":1}"# + "\n")
            .write(toFile: folder + "/broken.session.record", atomically: true, encoding: .utf8)
        let broken = try CIRecipeTests.tandem(["test", "broken.session.record"], in: folder)
        #expect(broken.status == 2, "\(broken.stdout)\(broken.stderr)")
        #expect(broken.stdout.contains("broken.session.record:2") && broken.stdout.contains(#"unknown notice "paused""#), "\(broken.stdout)")
    }
}
