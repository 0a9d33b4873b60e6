import Foundation
import TandemVocabulary
import Testing
import TandemTestSupport
import TandemModel
@testable import TandemImport

/// WebDriverAgent page sources: what VoiceOver reaches, in its order, said in its words
/// (Docs/import.md#ios). Expected lists are worked out from the rules and the fixtures' frames.
@Suite("tandem import ios")
struct IOSImportTests {
    @Test("login.xml: the walk reaches exactly VoiceOver's stops, with their traits, values and states")
    func loginWalk() throws {
        let stops = [
            "back button",                               // NavigationBar's first button; its label is only "Back"
            "Sign in, heading",                           // the bar's title, a StaticText whose value repeats its label
            "button",                                     // ic_help_24 is an identifier, not a label
            "Welcome back",
            "Email, text field",                          // the value is the placeholder: an empty field
            "Password, ••••••••, secure text field",
            "Remember me, switch button, on",
            "switch button, off",                         // toggle_offline, label=""
            "Sign in, dimmed, button",                    // enabled="false"; its StaticText child is not reached
            "Forgot password?, link",
            "Text size, 50%, adjustable",
            "Terms, link", "Privacy, link",               // the "footer" Other only wraps them
            "selected, Home, tab, 1 of 3",                // value "1" in a tab bar: the selected tab
            "Search, tab, 2 of 3",
            "Profile, tab, 3 of 3",
        ]                                                 // not reached: hero_banner (accessible=false), debug_menu (visible=false), Saved (zero size)
        #expect(try ImportSupport.walk("ios/login.xml", platform: "ios") == ImportSupport.walked(stops))
    }

    @Test("saved without accessible: a labelled cell holding only texts and images is one stop; with a control inside, or no label, it passes through")
    func noAccessibleAttribute() throws {
        let stops = [
            "Preferences, heading",
            "Dana Ortiz, Account, Payment and Subscriptions",   // the cell's label and value; its texts and avatar are inside it
            "Notifications",                                    // the cell; its "bell" image is not reached
            "Dark Mode",                                        // a switch inside: the cell passes through to its text …
            "Dark Mode, switch button, off",                    // … and its switch
            "Version 4.2",                                      // a cell with no label passes through
        ]
        #expect(try ImportSupport.walk("ios/no-accessible.xml", platform: "ios") == ImportSupport.walked(stops))
    }

    @Test("x, y, width and height read as Double(String) reads them, on the fast path and off it")
    func numbers() {
        let written = ["0", "390", "-12", "20.5", "0.1", "844.333333333333", "1.", ".5", "-0", "", ".", "-", "+5", "1e3", " 5", "12px",
                       "1234567890.123456789", "0.30000000000000004", "nan", "1.2.3"]
        for w in written {
            let node = SourceNode(tag: "XCUIElementTypeOther", attributes: ["x": w], line: 1, column: 1)
            let ours = IOSRules.number(node, "x")
            let theirs = Double(w)
            #expect(ours == theirs || (ours?.isNaN == true && theirs?.isNaN == true), "\(w)")
            #expect(ours?.sign == theirs?.sign, "\(w)")
        }
    }

    @Test("alert.xml: an Alert is modal; only its elements are reached")
    func alertIsModal() throws {
        let stops = ["Empty the basket?", "3 items will be removed.", "Cancel, button", "Empty, button"]
        #expect(try ImportSupport.walk("ios/alert.xml", platform: "ios") == ImportSupport.walked(stops))
        let imported = try ImportSupport.importFixture("ios/alert.xml", platform: .ios)
        let screen = imported.catalog.screens[0]
        #expect(screen.modals.map { screen.elements[$0].id } == ["empty-the-basket"])
    }

    @Test("list.xml: an accessible Cell is one stop saying its texts; a Cell that is not passes through; invisible cells are not reached")
    func cells() throws {
        let stops = ["Abbey Road, The Beatles", "Rumours", "Play Rumours, button", "Loading albums, in progress"]
        #expect(try ImportSupport.walk("ios/list.xml", platform: "ios") == ImportSupport.walked(stops))
        let screen = try ImportSupport.importFixture("ios/list.xml", platform: .ios).catalog.screens[0]
        #expect(screen["album-cell-0"]?.label == .plain("Abbey Road, The Beatles"))
        #expect(screen["album-cell-0"]?.accessible == true)
        #expect(screen["album-cell-1"] == nil, "a pass-through cell is not in the catalog")
        #expect(screen["loading-albums"]?.progress == Progress(label: nil, value: nil))
    }

    @Test("a type from a newer Xcode: a plain element and one warning naming its line")
    func newerXcodeType() throws {
        let imported = try ImportSupport.importFixture("ios/newer-xcode.xml", platform: .ios)
        #expect(imported.warnings.map(\.description) == [
            "Tests/Fixtures/import/ios/newer-xcode.xml:6:7: unknown element type XCUIElementTypeGlassEffectView: imported as a plain element (Docs/import.md#unknown-types)",
        ])
        let screen = imported.catalog.screens[0]
        // Accessible with a label: a stop with no traits. Wrapping a button: passes through.
        #expect(screen["share-note"]?.accessible == true)
        #expect(screen["share-note"]?.traits == [])
        #expect(screen["new-note"]?.traits == [.button])
        #expect(try ImportSupport.walk("ios/newer-xcode.xml", platform: "ios") == ImportSupport.walked(["Notes", "Share note", "New note, button"]))
        let cli = try ImportSupport.tandem(["import", "ios", ImportSupport.fixture("ios/newer-xcode.xml")])
        #expect(cli.status == 0)
        #expect(cli.stderr.contains("tandem: warning: Tests/Fixtures/import/ios/newer-xcode.xml:6:7: unknown element type XCUIElementTypeGlassEffectView"))
    }

    @Test("label over name; a name is a label only when it is not an identifier")
    func labelOverName() throws {
        #expect(["ic_close_24", "login.email", "closeButton", "settings/back", "a:b"].allSatisfy(IOSRules.looksLikeIdentifier))
        #expect(!["Sign in", "Settings", "OK", "Wi-Fi"].contains(where: IOSRules.looksLikeIdentifier))
        let rules = IOSRules(file: "t.xml")
        func node(_ attributes: [String: String]) -> SourceNode { SourceNode(tag: "XCUIElementTypeButton", attributes: attributes, line: 1, column: 1) }
        #expect(rules.label(node(["name": "close_button", "label": "Close"])) == "Close")
        #expect(rules.label(node(["name": "Settings"])) == "Settings")
        #expect(rules.label(node(["name": "ic_close_24"])) == nil)
        #expect(rules.label(node(["name": "Settings", "label": ""])) == nil, "an empty label is no label: WebDriverAgent's name is then the identifier")
    }

    @Test("each element keeps the line and column of its start tag")
    func sourceLines() throws {
        let imported = try ImportSupport.importFixture("ios/login.xml", platform: .ios)
        let screen = imported.catalog.screens[0]
        let text = try String(contentsOf: PackageRoot.url(ImportSupport.fixture("ios/login.xml")), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for id in ["ic-help-24", "toggle-offline", "privacy", "home"] {
            let i = try #require(screen.index[id])
            let at = imported.sources[0][i]
            let line = lines[at.line - 1]
            // The column is where "<" of the element's start tag is.
            let tag = line.dropFirst(at.column - 1)
            #expect(tag.hasPrefix("<XCUIElementType"), "\(id) at \(at)")
        }
        #expect(imported.sources[0][try #require(screen.index["ic-help-24"])].description == "Tests/Fixtures/import/ios/login.xml:9:11")
    }
}
