import Foundation
import Testing
import TandemModel
import TandemTestSupport
import TandemImport

/// Bad page sources: a clear error naming the file, line and column (exit 2), or a documented
/// fallback with a warning; never a crash, never an empty catalog reported as success
/// (Docs/import.md#bad-input).
@Suite("tandem import: bad input")
struct BadInputTests {
    static func run(_ platform: String, _ name: String, _ extra: [String] = []) throws -> ProcessResult {
        try ImportSupport.tandem(["import", platform, ImportSupport.fixture(name)] + extra)
    }

    @Test("truncated XML: exit 2 with the line and column where it stopped, nothing on standard output")
    func truncated() throws {
        let r = try Self.run("ios", "bad/truncated.xml")
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("tandem: error: Tests/Fixtures/import/bad/truncated.xml:7:1: malformed XML: "), "\(r.stderr)")
    }

    @Test("a file that ends inside an element names the element still open")
    func endsInsideElement() throws {
        let xml = "<hierarchy rotation=\"0\">\n  <node class=\"android.widget.Button\" text=\"OK\" bounds=\"[0,0][10,10]\">\n"
        let r = try ImportSupport.tandem(["import", "android", "-"], input: Data(xml.utf8))
        #expect(r.status == 2)
        #expect(r.stderr.contains("<stdin>:"), "\(r.stderr)")
        #expect(r.stderr.contains("malformed XML"))
    }

    @Test("a document type declaration is refused before parsing: no file is read, no entity expanded")
    func entities() throws {
        let r = try Self.run("android", "bad/entities.xml")
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "tandem: error: Tests/Fixtures/import/bad/entities.xml:2:1: a document type declaration (<!DOCTYPE or <!ENTITY) is not read: page sources have none, and its entities could read other files or grow without bound\n")
        #expect(!r.stderr.contains("root:"), "the contents of /etc/passwd must never appear")
    }

    @Test("an undeclared entity is malformed XML on its line; the predefined ones are read")
    func undeclaredEntity() throws {
        let r = try Self.run("android", "bad/undeclared-entity.xml")
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("tandem: error: Tests/Fixtures/import/bad/undeclared-entity.xml:3:"))
        #expect(r.stderr.contains("an entity that is not declared"))
        let fine = "<hierarchy><node class=\"android.widget.TextView\" text=\"Fish &amp; chips &#8212; &lt;3\" bounds=\"[0,0][720,100]\"/></hierarchy>"
        let catalog = try PageSourceImporter(platform: .android)
            .importCatalog([PageSourceFile(name: "fine.xml", screenID: "fine", bytes: Array(fine.utf8))]).catalog
        #expect(catalog.screens[0]["fish-chips-3"]?.label == .plain("Fish & chips — <3"))
    }

    @Test("inverted bounds: a warning naming the line, the element taken as off screen; negative coordinates kept")
    func bounds() throws {
        let r = try Self.run("android", "bad/bounds.xml")
        #expect(r.status == 0)
        #expect(r.stderr == "tandem: warning: Tests/Fixtures/import/bad/bounds.xml:4:5: bounds \"[10,10][5,5]\" end before they start: the element is taken as not on screen\n")
        #expect(!r.stdout.contains("Upside down"))
        #expect(r.stdout.contains(#""label": "Half off screen", "traits": ["button"], "frame": [-50, 100, 200, 50]"#))
    }

    @Test("an iOS width or height below zero: a warning naming the line, the element taken as off screen, a container's children still read")
    func negativeSize() throws {
        let r = try Self.run("ios", "bad/negative-size.xml")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == """
            tandem: warning: Tests/Fixtures/import/bad/negative-size.xml:5:7: width 390 and height -44: a negative size, so the element is taken as not on screen
            tandem: warning: Tests/Fixtures/import/bad/negative-size.xml:8:7: width -80 and height 44: a negative size, so the element is taken as not on screen

            """)
        #expect(!r.stdout.contains("Backwards"))
        #expect(r.stdout.contains(#""label": "Shopping""#) && r.stdout.contains(#""label": "New note""#), "\(r.stdout)")
        #expect(!r.stdout.contains("-44") && !r.stdout.contains("-80"), "no frame below zero is written")
    }

    @Test("bounds that are not [x1,y1][x2,y2]: exit 2 naming the element's line and column")
    func malformedBounds() throws {
        let r = try Self.run("android", "bad/malformed-bounds.xml")
        #expect(r.status == 2)
        #expect(r.stderr == "tandem: error: Tests/Fixtures/import/bad/malformed-bounds.xml:3:3: bounds \"[0,0][720\" is not [x1,y1][x2,y2]\n")
    }

    @Test("a screen with nothing VoiceOver reaches is an error, not an empty catalog; --out writes nothing")
    func nothingReachable() throws {
        let r = try Self.run("ios", "bad/nothing-reachable.xml")
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("bad/nothing-reachable.xml:3:3: nothing on this screen is reachable by VoiceOver"))
        let out = try ImportSupport.temporaryFolder("nothing")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let both = try ImportSupport.tandem(["import", "ios", ImportSupport.fixture("ios/login.xml"), ImportSupport.fixture("bad/nothing-reachable.xml"),
                                             "--out", out])
        #expect(both.status == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty, "a bad file among good ones leaves the folder as it was")
    }

    @Test("the other platform's page source: exit 2 saying which command reads it")
    func wrongPlatform() throws {
        let r = try Self.run("ios", "android/settings.xml")
        #expect(r.status == 2)
        #expect(r.stderr.contains("not a WebDriverAgent page source: its root is <hierarchy>"))
        #expect(r.stderr.contains("tandem import android"))
        let a = try Self.run("android", "ios/login.xml")
        #expect(a.status == 2)
        #expect(a.stderr.contains("tandem import ios"))
    }

    @Test("usage: no platform or file is 64; --density must be a positive number, and only for android")
    func usage() throws {
        #expect(try ImportSupport.tandem(["import"]).status == 64)
        #expect(try ImportSupport.tandem(["import", "windows", "x.xml"]).status == 64)
        #expect(try ImportSupport.tandem(["import", "ios"]).status == 64)
        #expect(try Self.run("ios", "ios/login.xml", ["--density", "2"]).status == 64)
        let zero = try Self.run("android", "android/settings.xml", ["--density", "0"])
        #expect(zero.status == 2)
        #expect(zero.stderr.contains("--density"))
        #expect(try ImportSupport.tandem(["import", "ios", "Tests/Fixtures/import/none.xml"]).status == 2)
    }

    @Test("a 50 MB page source (generated here) imports: every row a stop, no crash, no limit hit")
    func fiftyMegabytes() throws {
        let rows = BigPageSource.android(bytes: 50 * 1024 * 1024)
        let bytes = Array(rows.text.utf8)
        #expect(bytes.count >= 50 * 1024 * 1024)
        let imported = try PageSourceImporter(platform: .android)
            .importCatalog([PageSourceFile(name: "big.xml", screenID: "big", bytes: bytes)])
        let screen = imported.catalog.screens[0]
        #expect(screen.elements.filter { $0.accessible == true }.count == rows.count)
        #expect(screen["item-\(rows.count)"]?.label == .plain("Item \(rows.count - 1)"))
        #expect(imported.sources[0].last?.line == rows.count + 1)
    }
}

/// A UiAutomator dump of `count` list rows, as large as asked.
enum BigPageSource {
    static func android(bytes: Int) -> (text: String, count: Int) {
        var out = #"<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0" width="1080" height="2400"><node index="0" class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">"# + "\n"
        var n = 0
        while out.utf8.count < bytes {
            out += #"<node index="\#(n)" text="Item \#(n)" resource-id="com.example:id/item" class="android.widget.TextView" package="com.example" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,\#(n * 10)][1080,\#(n * 10 + 10)]" />"# + "\n"
            n += 1
        }
        return (out + "</node></hierarchy>\n", n)
    }
}
