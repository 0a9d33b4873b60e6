import Foundation
import Testing
import TandemLint
import TandemModel
import TandemTestSupport
import TandemImport

/// `tandem lint` on imported screens reports their real defects, pointing into the XML; the
/// catalog text reads back to the values imported.
@Suite("imported catalogs: lint, sources, round trip")
struct ImportedLintTests {
    /// Imports into a temporary folder and lints the catalog written there.
    static func lint(_ platform: String, _ name: String) throws -> ProcessResult {
        let out = try ImportSupport.temporaryFolder("lint")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let base = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
        let imported = try ImportSupport.tandem(["import", platform, ImportSupport.fixture(name), "--out", out])
        guard imported.status == 0 else { throw TestSupportError(imported.stderr) }
        let catalog = "\(out)/\(base)/\(base).catalog.json"
        var r = try ImportSupport.tandem(["lint", catalog])
        r.stdout = r.stdout.replacingOccurrences(of: catalog, with: "CATALOG")
        return r
    }

    @Test("iOS: the unlabelled image button and the switch with no text are errors naming their XML line")
    func iosDefects() throws {
        let r = try Self.lint("ios", "ios/login.xml")
        #expect(r.status == 1)
        let missing = r.stdout.split(separator: "\n").filter { $0.contains("[missing-label]") }.map(String.init)
        #expect(missing.count == 2, "\(r.stdout)")
        #expect(missing.contains { $0.contains("error: \"ic-help-24\" (button) can be used but has no label") && $0.hasSuffix("(from Tests/Fixtures/import/ios/login.xml:9:11)") })
        #expect(missing.contains { $0.contains("error: \"toggle-offline\" (button, switchButton) can be used but has no label") && $0.hasSuffix("(from Tests/Fixtures/import/ios/login.xml:16:9)") })
    }

    @Test("Android: the ImageButton without content-desc and the Switch with no text anywhere are errors")
    func androidDefects() throws {
        let r = try Self.lint("android", "android/settings.xml")
        #expect(r.status == 1)
        let missing = r.stdout.split(separator: "\n").filter { $0.contains("[missing-label]") }.map(String.init)
        #expect(missing.count == 2, "\(r.stdout)")
        #expect(missing.contains { $0.contains("\"share\" (button) can be used but has no label") && $0.hasSuffix("(from Tests/Fixtures/import/android/settings.xml:18:7)") })
        #expect(missing.contains { $0.contains("\"airplane\" (button, switchButton) can be used but has no label") && $0.hasSuffix("(from Tests/Fixtures/import/android/settings.xml:19:7)") })
    }

    @Test("Android Settings' list runs under the search bar drawn over it: a scroll view, not an overlay (overlay-not-modal)")
    func scrollContainerIsNoOverlay() throws {
        let r = try Self.lint("android", "android/settings-home.xml")
        #expect(!r.stdout.contains("[overlay-not-modal]"), "\(r.stdout)")
        #expect(!r.stdout.contains("[covered-by-sibling]"), "\(r.stdout)")
        // The scrolling containers say they scroll; the walk is what TalkBack reaches.
        let screen = try ImportSupport.importFixture("android/settings-home.xml", platform: .android).catalog.screens[0]
        let list = try #require(screen["main-content-scrollable-container"])
        #expect(list.scrollUp == [] && list.scrollDown == [])
        #expect(list.accessible == false)
        #expect(try ImportSupport.walk("android/settings-home.xml", platform: "android") == ImportSupport.walked([
            "Settings", "Search settings",   // the bar's text merged into it (TalkBack's merge)
            "Network & internet, Mobile, Wi‑Fi, hotspot", "Connected devices, Bluetooth, pairing",
            "Apps, Recent apps, default apps", "Notifications, Notification history, conversations",
            "Battery, 100%", "Storage, 34% used - 84.12 GB free",
        ]))
    }

    @Test("overlay-not-modal: a full-screen container over the page is still an overlay; one that scrolls is not")
    func scrollViewIsNoOverlay() throws {
        func catalog(_ scroll: String) -> String {
            """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "root", "frame": [0, 0, 390, 844], "children": [
              {"id": "search", "label": "Search", "traits": ["searchField"], "frame": [16, 50, 358, 44]},
              {"id": "list", "accessible": false, "frame": [0, 0, 390, 800]\(scroll), "children": [
                {"id": "row", "label": "Wi-Fi", "traits": ["button"], "frame": [0, 120, 390, 60]}
              ]}
            ]}}]}
            """
        }
        func overlays(_ json: String) throws -> [String] {
            var decoder = CatalogDecoder(file: "t.json")
            let c = try decoder.decode(Array(json.utf8))
            return try Linter().lint(c, lines: decoder.lines, file: "t.json").filter { $0.rule == "overlay-not-modal" }.compactMap(\.element)
        }
        #expect(try overlays(catalog("")) == ["list"])
        #expect(try overlays(catalog(#", "scrollDown": []"#)) == [])
        #expect(try overlays(catalog(#", "scrollUp": [], "scrollDown": []"#)) == [])
    }

    @Test("lint --format json carries each finding's source")
    func jsonSource() throws {
        let out = try ImportSupport.temporaryFolder("json")
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(try ImportSupport.tandem(["import", "ios", ImportSupport.fixture("ios/login.xml"), "--out", out]).status == 0)
        let r = try ImportSupport.tandem(["lint", "--format", "json", "\(out)/login/login.catalog.json"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let findings = try #require(doc["findings"] as? [[String: Any]])
        let help = try #require(findings.first { $0["element"] as? String == "ic-help-24" && $0["rule"] as? String == "missing-label" })
        #expect(help["source"] as? String == "Tests/Fixtures/import/ios/login.xml:9:11")
    }

    @Test("an unlabelled text field or switch is a control: missing-label is an error, not a warning (#23, #25 item 6)")
    func textFieldsAndSwitchesAreControls() throws {
        let json = """
        {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "root", "children": [
          {"id": "title", "label": "Sign in", "traits": ["header"]},
          {"id": "field", "traits": ["textField"]},
          {"id": "secret", "traits": ["secureTextField"]},
          {"id": "toggle", "traits": ["switchButton"], "value": "0"}
        ]}}]}
        """
        var decoder = CatalogDecoder(file: "t.json")
        let catalog = try decoder.decode(Array(json.utf8))
        let findings = try Linter().lint(catalog, lines: decoder.lines, file: "t.json").filter { $0.rule == "missing-label" }
        #expect(findings.map(\.element) == ["field", "secret", "toggle"])
        #expect(findings.allSatisfy { $0.severity == .error })
    }

    @Test("the catalog text reads back to the imported values, sources included")
    func roundTrip() throws {
        for (name, platform) in [("ios/login.xml", Platform.ios), ("ios/list.xml", .ios), ("ios/alert.xml", .ios),
                                 ("android/settings.xml", .android), ("android/dialer-dump.xml", .android)] {
            let imported = try ImportSupport.importFixture(name, platform: platform)
            var decoder = CatalogDecoder(file: "t.json")
            let back = try decoder.decode(Array(CatalogWriter.json(imported).utf8))
            #expect(decoder.diagnostics.warnings.isEmpty, "\(name): \(decoder.diagnostics.warnings)")
            #expect(back.screens == imported.catalog.screens, "\(name)")
            #expect(decoder.lines.sources[0] == Dictionary(uniqueKeysWithValues: imported.sources[0].enumerated().map { ($0.offset, $0.element.description) }))
        }
    }

    @Test("several files make one catalog with a screen each, ids unique across it")
    func severalFiles() throws {
        let r = try ImportSupport.tandem(["import", "ios", ImportSupport.fixture("ios/login.xml"), ImportSupport.fixture("ios/alert.xml"), "--language", "pt-BR"])
        #expect(r.status == 0, "\(r.stderr)")
        var decoder = CatalogDecoder(file: "t.json")
        let catalog = try decoder.decode(Array(r.stdout.utf8))
        #expect(catalog.screens.map(\.id) == ["login", "alert"])
        #expect(catalog.language == "pt-BR")
        #expect(catalog.screens[1]["app-2"] != nil, "the second screen's root is app-2: ids are unique in a catalog")
    }

    @Test("- reads the page source from standard input, named <stdin> in sources")
    func standardInput() throws {
        let data = try Data(contentsOf: PackageRoot.url(ImportSupport.fixture("ios/alert.xml")))
        let r = try ImportSupport.tandem(["import", "ios", "-"], input: data)
        #expect(r.status == 0)
        #expect(r.stdout.contains(#""id": "screen""#))
        #expect(r.stdout.contains(#""source": "<stdin>:13:11""#))
    }
}
