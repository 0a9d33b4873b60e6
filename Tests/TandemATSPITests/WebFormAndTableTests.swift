import Foundation
import TandemClient
import TandemTestSupport
import Testing

/// A web page's text field without EditableText (typed into with synthesized keys), a
/// paragraph that holds a field, and a data table's cells (Docs/atspi.md#fields, #actions),
/// against a real Chromium on Tests/Fixtures/atspi/form.html. Same rig as LiveBridgeTests.
@Suite(.serialized) struct WebFormAndTableTests {
    typealias Run = LiveBridgeTests.Run
    typealias Snapshot = SnapshotTests.Snapshot

    static func page(_ rig: AtspiRig, _ pid: Int32) throws -> Snapshot {
        try Snapshot(try rig.tandemAtspi(["--snapshot", "--pid", String(pid)]).stdout)
    }

    @Test func aParagraphKeepsItsFieldAndATableItsCells() throws {
        let rig = try AtspiRig.get()
        let profile = try temporaryDirectory(prefix: "tandem-chromium")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let browser = try rig.chromium(profile: profile, page: AtspiRig.formPage, title: "Sign Up")
        defer { browser.stop() }
        let s = try Self.page(rig, browser.pid)
        // <p><label>Your name</label> <input> as it should be printed.</p>: the label, the
        // field and the words after it, each a stop of its own, in the page's order
        let labels = s.elements.compactMap { $0["label"] as? String }
        let field = try #require(s.elements.first { ($0["traits"] as? [String])?.contains("textField") == true })
        #expect(field["label"] as? String == "Your name")
        #expect(s.elements.contains { $0["label"] as? String == "Your name" && $0["traits"] as? [String] == ["staticText"] })
        let words = try #require(labels.firstIndex { $0.contains("as it should be printed.") })
        let name = try #require(labels.firstIndex { $0 == "Your name" })
        #expect(name < words)
        #expect(!labels.contains { $0.contains("Your name, ") }, "\(labels)")
        // the table's cells say where they are; its header row's cells head their columns
        let table = try #require(s.element("Loaf prices"))
        #expect(table["container"] as? String == "dataTable")
        func cell(_ label: String) -> [String: String]? {
            (s.elements.first { $0["label"] as? String == label }?["cell"] as? [String: Any])?.mapValues { "\($0)" }
        }
        #expect(cell("Loaf") == ["row": "0", "column": "0", "header": "column"])
        #expect(cell("Price") == ["row": "0", "column": "1", "header": "column"])
        #expect(cell("Rye") == ["row": "1", "column": "0"])
        #expect(cell("3 euros") == ["row": "1", "column": "1"])
        #expect(cell("Spelt") == ["row": "2", "column": "0"])
        #expect(cell("Done") == nil)
        // a snapshot with cells is a catalog `tandem lint` takes
        let dir = try temporaryDirectory(prefix: "tandem-form")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = dir + "/form.catalog.json"
        try rig.tandemAtspi(["--snapshot", "--pid", String(browser.pid)]).stdout.write(toFile: catalog, atomically: true, encoding: .utf8)
        let lint = try rig.tandem(["lint", "--disable", "small-target", catalog])
        #expect(lint.status == 0, "\(lint.output)")
    }

    /// Waits until speech says exactly `text`; what was said meanwhile.
    static func hearExactly(_ run: Run, _ text: String, timeout: Duration = .seconds(10)) -> (heard: Bool, said: [String]) {
        var said: [String] = []
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            guard let line = try? run.controller.nextTranscriptLine(timeout: end - ContinuousClock.now) else { break }
            if let s = line.spoken {
                said.append(s)
                if s == text { return (true, said) }
            }
        }
        return (false, said)
    }

    @Test func typingIntoAWebFieldAndReadingATable() throws {
        // A desktop of its own: the keys typed go to the window with X's keyboard focus, and a
        // GTK window another test opens on the shared desktop took it (stop 25: a BackSpace and
        // "ey" lost while the bridge had found the field focused within Chromium).
        let desktop = try AtspiRig.fresh()
        defer { desktop.stop() }
        let profile = try temporaryDirectory(prefix: "tandem-chromium")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let run = try Run(chromiumProfile: profile, page: AtspiRig.formPage, title: "Sign Up", rig: desktop)
        defer { run.stop() }
        try run.press("first")
        #expect(try run.nextUntil("Your name, text field"))
        // Chromium's field has no EditableText: the bridge focuses it and types the keys
        try run.press("type hi")
        let typed = Self.hearExactly(run, "hi")
        #expect(typed.heard, "said: \(typed.said); the bridge: \(run.bridge.standardError.suffix(2000))")
        // the field's value as a fresh snapshot reads it; the last one read, for the failure's message
        var last: String?? = .none
        func value() -> String? {
            let v = (try? Self.page(run.rig, run.app.pid))?.elements.first { ($0["traits"] as? [String])?.contains("textField") == true }?["value"] as? String
            last = .some(v)
            return v
        }
        #expect(waitUntil(timeout: .seconds(10)) { value() == "hi" }, "last read: \(String(describing: last))")
        try run.press("delete")
        #expect(waitUntil(timeout: .seconds(10)) { value() == "h" }, "last read: \(String(describing: last))")
        try run.press("type ey")
        #expect(Self.hearExactly(run, "hey").heard)
        try run.press("clear")
        #expect(waitUntil(timeout: .seconds(10)) { value() == nil }, "last read: \(String(describing: last)); the bridge: \(run.bridge.standardError.suffix(2000))")
        #expect(!run.bridge.standardError.contains("did not do it"), "\(run.bridge.standardError)")
        // the table: a cell says its column header (not the one above a row's first cell), its
        // row when it starts one, and its column
        let rye = try #require(try Self.nextUntilLine(run, containing: "Rye"))
        #expect(rye.contains("row 2") && rye.contains("column 1") && !rye.contains("Loaf"), "\(rye)")
        try run.press("next")
        let price = Self.hearExactly(run, "Price, 3 euros, column 2")
        #expect(price.heard, "said: \(price.said)")
    }

    /// `next` until a spoken line contains `text`; that line.
    static func nextUntilLine(_ run: Run, containing text: String, limit: Int = 15) throws -> String? {
        for _ in 0..<limit {
            try run.press("next")
            if let line = run.hear(text, timeout: .seconds(1)).said.last, line.contains(text) { return line }
        }
        return nil
    }
}

/// A whole read is served from libatspi's cache (Docs/atspi.md#speed) and reads the same as one
/// that asks the application for every field (`ATSPI_NO_CACHE=1`, libatspi's own switch).
@Suite(.serialized) struct CachedReadTests {
    @Test func aCachedReadIsTheApplicationsTree() throws {
        let rig = try AtspiRig.get()
        let profile = try temporaryDirectory(prefix: "tandem-chromium")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let browser = try rig.chromium(profile: profile)
        defer { browser.stop() }
        let name = SnapshotTests.unique("pantry")
        let pantry = try rig.pantry(name: name)
        defer { pantry.stop() }
        for query in [["--pid", String(browser.pid)], ["--app", name]] {
            var traced = rig.environment
            traced["TANDEM_ATSPI_TRACE"] = "1"
            let cached = try ProcessRunner.run([try TandemBinary.path(), "atspi", "--snapshot"] + query, environment: traced)
            #expect(cached.status == 0)
            // the application's cache came in one GetItems before the read
            #expect(cached.stderr.contains("the application's cache arrived"), "\(cached.stderr)")
            var uncached = rig.environment
            uncached["ATSPI_NO_CACHE"] = "1"
            let asked = try ProcessRunner.run([try TandemBinary.path(), "atspi", "--snapshot"] + query, environment: uncached)
            #expect(asked.status == 0)
            #expect(cached.stdout == asked.stdout, "\(query): the cached read differs from the application's own answers")
        }
    }
}

/// Firefox (ESR) on the same page: the same roles map the same way; its cache is not used
/// (Docs/atspi.md#speed), and a stop's text comes from its own Text (Firefox has no text
/// objects under it).
@Suite(.serialized) struct FirefoxTests {
    @Test func aPageInFirefox() throws {
        let rig = try AtspiRig.get()
        let profile = try temporaryDirectory(prefix: "tandem-firefox")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let browser = try rig.firefox(profile: profile, page: AtspiRig.formPage, title: "Sign Up")
        defer { browser.stop() }
        let read = try rig.tandemAtspi(["--snapshot", "--pid", String(browser.pid)])
        #expect(read.status == 0, "\(read.stderr)")
        let s = try SnapshotTests.Snapshot(read.stdout)
        // the page is the screen; Firefox's own toolbars are left out
        #expect(s.screen["id"] as? String == "page")
        #expect(s.element("Back") == nil)
        #expect(s.traits("Sign up") == ["header"])
        let field = try #require(s.elements.first { ($0["traits"] as? [String])?.contains("textField") == true })
        #expect(field["label"] as? String == "Your name")
        #expect(s.element("Loaf prices")?["container"] as? String == "dataTable")
        #expect((s.element("3 euros")?["cell"] as? [String: Any]).map { "\($0["row"] ?? "")/\($0["column"] ?? "")" } == "1/1")
        // the caption's text is its own Text
        #expect(s.elements.contains { $0["label"] as? String == "Loaf prices" && $0["traits"] as? [String] == ["staticText"] })
        // read field by field: the same as libatspi asking for every field itself
        var uncached = rig.environment
        uncached["ATSPI_NO_CACHE"] = "1"
        let asked = try ProcessRunner.run([try TandemBinary.path(), "atspi", "--snapshot", "--pid", String(browser.pid)], environment: uncached)
        #expect(read.stdout == asked.stdout)
    }
}

/// The store page in Firefox (ESR) through the live bridge: read in order, a spin button
/// adjusted, a button pressed and the polite live region heard (Firefox's page is read field by
/// field, Docs/atspi.md#speed).
@Suite(.serialized) struct FirefoxLiveTests {
    @Test func aPageInFirefoxLive() throws {
        let profile = try temporaryDirectory(prefix: "tandem-firefox")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let run = try LiveBridgeTests.Run(chromiumProfile: profile, firefox: true)
        defer { run.stop() }
        try LiveBridgeTests.storeOrderIsHeard(run, spinButton: "Loaves, 1, adjustable")
        // Firefox writes a list item's bullet into its text: left out, as Chromium's marker object is
        try run.press("first")
        #expect(run.hear("Corner Store, heading").heard)
        var said: [String] = []
        for _ in 0..<8 {
            try run.press("next")
            said += run.hear("Oat milk", timeout: .seconds(1)).said
            if said.contains(where: { $0.contains("Oat milk") }) { break }
        }
        #expect(said.contains { $0.hasPrefix("Rye bread") } && said.contains { $0.hasPrefix("Oat milk") }, "said: \(said)")
        #expect(!said.contains { $0.contains("•") }, "said: \(said)")
    }

    @Test func aModalDialogInFirefox() throws {
        let profile = try temporaryDirectory(prefix: "tandem-firefox")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let run = try LiveBridgeTests.Run(chromiumProfile: profile, firefox: true)
        defer { run.stop() }
        try LiveBridgeTests.storeDialogIsScoped(run)
    }
}

