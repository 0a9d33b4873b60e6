import Foundation
import Testing
import TandemTestSupport

/// Docs/ci.md#apps as a CI engineer follows it: the page's case file and commands, word for
/// word, in a scratch app repository whose app is the repository's Python grocery app.
@Suite("Docs/ci.md#apps, run as written")
struct AppRecipeTests {
    @Test("the app case is recorded, passes beside the suites, and fails when the app changes what the user hears")
    func appCaseRecipe() throws {
        let caseFile = try DocBlock.first("Docs/ci.md", language: "json", after: "<a id=\"apps\"></a>")
        let recipe = try DocBlock.first("Docs/ci.md", language: "sh", after: "<a id=\"apps\"></a>")
        let root = try CIRecipeTests.repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // The app, where the case file's command names it (from the case's folder).
        try FileManager.default.createDirectory(atPath: root + "/app", withIntermediateDirectories: true)
        for f in ["grocery_app.py", "tandem_client.py"] {
            try FileManager.default.copyItem(atPath: PackageRoot.path("Examples/clients/" + f), toPath: root + "/app/" + f)
        }
        try FileManager.default.createDirectory(atPath: root + "/accessibility/groceries", withIntermediateDirectories: true)
        try caseFile.write(toFile: root + "/accessibility/groceries/checkout.app.json", atomically: true, encoding: .utf8)

        let r = try CIRecipeTests.sh(recipe, in: root, ["XDG_RUNTIME_DIR": "/nonexistent-tandem-runtime"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("recorded accessibility/groceries/checkout.app.golden.jsonl"), "\(r.stdout)")
        #expect(r.stdout.contains("ok     accessibility/groceries/checkout.app.json"), "\(r.stdout)")
        #expect(r.stdout.contains("ok     accessibility/bank/bank.scenario"), "the suites beside it run too: \(r.stdout)")
        let golden = try String(contentsOfFile: root + "/accessibility/groceries/checkout.app.golden.jsonl", encoding: .utf8)
        for said in ["Groceries, heading", "2 in cart", "Placing order", "Order confirmed, heading"] {
            #expect(golden.contains(said), "\(said) in \(golden)")
        }

        // The app now says the banana's size differently: the case fails, told in words.
        try CIRecipeTests.edit(root + "/app/grocery_app.py") { $0.replacingOccurrences(of: "\"1 kg\"", with: "\"2 kg\"") }
        let after = try CIRecipeTests.tandem(["test", "accessibility/groceries"], in: root)
        #expect(after.status == 1, "\(after.stdout)\(after.stderr)")
        #expect(after.stdout.hasPrefix("FAIL   accessibility/groceries/checkout.app.json"), "\(after.stdout)")
        #expect(after.stdout.contains("heard «Banana, 2 kg, $1.99» — was «Banana, 1 kg, $1.99»"), "\(after.stdout)")

        // An app that is gone fails with a sentence naming it, and the run ends.
        try FileManager.default.removeItem(atPath: root + "/app/grocery_app.py")
        let gone = try CIRecipeTests.tandem(["test", "accessibility/groceries"], in: root)
        #expect(gone.status == 1, "\(gone.stdout)\(gone.stderr)")
        #expect(gone.stdout.contains("the app python3 ../../app/grocery_app.py exited with status 2 before it connected to the service"), "\(gone.stdout)")
    }

    @Test("tandem test --help and the manual page describe app cases")
    func documented() throws {
        let help = try CIRecipeTests.tandem(["test", "--help"], in: "/")
        #expect(help.stdout.contains("NAME.app.json") && help.stdout.contains("$XDG_RUNTIME_DIR/tandem/control.sock"), "\(help.stdout)")
        let man = try String(contentsOfFile: PackageRoot.path("Docs/tandem.1"), encoding: .utf8)
        #expect(man.contains("NAME.app.json") && man.contains("NAME.app.golden.jsonl"))
    }
}
