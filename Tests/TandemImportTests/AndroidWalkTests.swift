import Testing
import TandemModel
@testable import TandemImport

/// The Android rules' shortcuts that must change nothing (Docs/import.md#speed): bounds whose
/// digits are read as one word where they are in the page, and ids made from a resource id's
/// bytes.
@Suite("tandem import android: bounds read in place and ids from the page's bytes, as the long way makes them")
struct AndroidWalkTests {
    /// The numbers of `[x1,y1][x2,y2]` and their signs (`-0` is not `0`), or nil.
    static func values(_ p: (Double, Double, Double, Double)?) -> [String]? {
        p.map { [$0.0, $0.1, $0.2, $0.3].map { "\($0.sign == .minus ? "-" : "+")\($0.magnitude)" } }
    }

    @Test("bounds read in the page, digits as one word, are what the general reader reads, at the page's end too")
    func boundsInPlace() throws {
        var random = SystemRandomNumberGenerator()
        func number() -> String {
            let digits = Int.random(in: 0...17, using: &random)
            var s = Bool.random(using: &random) && Int.random(in: 0..<4, using: &random) == 0 ? "-" : ""
            for k in 0..<digits { s += String(k == 0 && digits > 1 && Int.random(in: 0..<3, using: &random) > 0 ? Int.random(in: 1...9, using: &random) : Int.random(in: 0...9, using: &random)) }
            switch Int.random(in: 0..<20, using: &random) {
            case 0: s += ".5"
            case 1: s = " " + s
            case 2: s += "x"
            default: break
            }
            return s
        }
        for _ in 0..<3_000 {
            let bounds = "[\(number()),\(number())][\(number()),\(number())]"
            // The value right before the end of the page (fewer than eight bytes after some
            // numbers), and with a long attribute after it.
            for tail in ["/></hierarchy>", " z=\"\(String(repeating: "9", count: 20))\"/></hierarchy>"] {
                let xml = "<hierarchy><node bounds=\"\(bounds)\"\(tail)"
                let tree = try PageTree(Array(xml.utf8), file: "t.xml")
                let span = try #require(tree.span(1, named: "bounds"))
                let inPlace = tree.bytes.withUnsafeBufferPointer { AndroidRules.pixels(tree, span, $0) }
                var s = bounds
                let general = s.withUTF8 { AndroidRules.anyPixels($0) }
                #expect(Self.values(inPlace) == Self.values(general), "\(bounds)")
            }
        }
    }

    @Test("frames to two places as (v × 100).rounded() / 100 rounds them: halves away from zero, -0, the large and the odd")
    func roundingAsRounded() {
        var random = SystemRandomNumberGenerator()
        var cases: [Double] = [0, -0.0, 0.005, -0.005, 0.004999, 1.125, -1.125, 2.675, 0.015, 1e13, -1e13, 4.5e13, 4.6e13, 1e300, -1e300,
                               .infinity, -.infinity, .nan, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 45035996273704.96, 45035996273704.97]
        for _ in 0..<20_000 {
            cases.append(Double(Int.random(in: -5_000_000...5_000_000, using: &random)) / Double([1, 2, 3, 7, 1000, 2.625, 3.5][Int.random(in: 0..<7, using: &random)]))
            cases.append(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &random)))
        }
        for v in cases {
            let expected = (v * 100).rounded() / 100
            let got = AndroidRules.round(v)
            #expect(got.bitPattern == expected.bitPattern || (got.isNaN && expected.isNaN), "\(v): \(got) against \(expected)")
        }
    }

    @Test("one pass over the nodes: bounds warnings before unknown classes, each in document order; density from the widest bounds without a width")
    func onePass() throws {
        let xml = """
        <hierarchy rotation="0">
          <node class="com.example.Badge" text="New" bounds="[0,0][720,100]"/>
          <node class="android.widget.TextView" text="Backwards" bounds="[10,10][5,5]"/>
          <node class="com.example.Other" text="Other" bounds="[0,100][360,200]"/>
          <node class="android.widget.Button" text="Wide" clickable="true" bounds="[0,200][1440,300]"/>
          <node class="android.widget.TextView" text="Inverted too" bounds="[0,400][0,300]"/>
        </hierarchy>
        """
        let file = PageSourceFile(name: "p.xml", screenID: "p", bytes: Array(xml.utf8))
        let imported = try PageSourceImporter(platform: .android).importCatalog([file])
        #expect(imported.warnings.map { "\($0.line ?? 0) " + $0.message.split(separator: " ").prefix(3).joined(separator: " ") } == [
            "3 bounds \"[10,10][5,5]\" end", "6 bounds \"[0,400][0,300]\" end", "2 unknown class com.example.Badge:", "4 unknown class com.example.Other:"])
        // No width on the root and no --density: the widest bounds (1440 pixels) are 360 points.
        let screen = imported.catalog.screens[0]
        #expect(screen.elements.compactMap(\.frame).contains(Frame(x: 0, y: 50, width: 360, height: 25)))
        #expect(screen.elements.compactMap(\.frame).contains(Frame(x: 0, y: 0, width: 180, height: 25)))
        // With --density the same page's frames follow it.
        let dense = try PageSourceImporter(platform: .android, density: 2).importCatalog([file])
        #expect(dense.catalog.screens[0].elements.compactMap(\.frame).contains(Frame(x: 0, y: 100, width: 720, height: 50)))
    }

    @Test("under a stop the walk goes only where a node inside is actionable: a button two levels in is a stop, a list inside with none is no container")
    func insideAStop() throws {
        let xml = """
        <hierarchy rotation="0" width="1080" height="2400">
          <node class="android.widget.LinearLayout" resource-id="a:id/row" clickable="true" bounds="[0,0][1080,300]">
            <node class="android.widget.TextView" text="Row" bounds="[0,0][500,100]"/>
            <node class="android.widget.FrameLayout" bounds="[600,0][1080,300]">
              <node class="android.widget.FrameLayout" bounds="[600,0][1080,300]">
                <node class="android.widget.ImageButton" resource-id="a:id/more" content-desc="More" clickable="true" bounds="[900,0][1080,300]"/>
              </node>
            </node>
          </node>
          <node class="android.widget.LinearLayout" resource-id="a:id/plain" clickable="true" bounds="[0,300][1080,600]">
            <node class="android.widget.TextView" text="Plain" bounds="[0,300][500,400]"/>
            <node class="androidx.recyclerview.widget.RecyclerView" resource-id="a:id/inner" bounds="[0,400][1080,600]">
              <node class="android.widget.TextView" text="Inside a list" bounds="[0,400][500,500]"/>
            </node>
          </node>
        </hierarchy>
        """
        let screen = try PageSourceImporter(platform: .android)
            .importCatalog([PageSourceFile(name: "inside.xml", screenID: "inside", bytes: Array(xml.utf8))]).catalog.screens[0]
        #expect(screen.elements.map(\.id) == ["app", "row", "more", "plain"])
        #expect(screen["more"]?.accessible == true && screen["more"]?.traits == .button)
        #expect(screen["row"]?.label == .plain("Row"))
        #expect(screen["plain"]?.label == .plain("Plain, Inside a list"))
    }

    @Test("ids from resource ids: the name after the first :id/, from the bytes, decoded or over ASCII as before")
    func resourceIDs() throws {
        let ids = [("com.example:id/save", "save"), ("save_button", "save-button"), ("com.ex:id/a:id/b", "a-id-b"),
                   ("com.example:id/", "element"), (":id/x", "x"), ("id/x", "id-x"), ("com.example:id/Ünï", "ünï"),
                   ("a&amp;b:id/c", "c"), ("com.example:id/with space", "with-space"), ("com.example:id/UPPER_case", "upper-case"),
                   ("com.example:id/save", "save-2"), ("com:id/x&#10;y", "x-y"),
                   // One after another (a list's rows: the name found again by its bytes), the
                   // same length with other bytes, over ASCII twice, decoded again.
                   ("com.example:id/save", "save-3"), ("com.example:id/save", "save-4"), ("com.example:id/sbve", "sbve"),
                   ("com.example:id/Ünï", "ünï-2"), ("com.example:id/Ünï", "ünï-3"), ("com:id/x&#10;y", "x-y-2"), ("com.example:id/sbve", "sbve-2"),
                   // The same length as the one before, with its name elsewhere or in ASCII.
                   ("com.example:id/Ünï", "ünï-4"), ("com.example:id/abcde", "abcde"), ("xy:id/abc", "abc"), ("a:id/bcde", "bcde")]
        var xml = "<hierarchy width=\"1080\" height=\"2400\">"
        for (k, (id, _)) in ids.enumerated() {
            xml += "<node class=\"android.widget.Button\" text=\"B\(k)\" resource-id=\"\(id)\" clickable=\"true\" bounds=\"[0,\(k * 10)][100,\(k * 10 + 10)]\"/>"
        }
        xml += "</hierarchy>"
        let imported = try PageSourceImporter(platform: .android).importCatalog([PageSourceFile(name: "t.xml", screenID: "t", bytes: Array(xml.utf8))])
        let elements = imported.catalog.screens[0].elements
        #expect(elements.map(\.id) == ["app"] + ids.map(\.1))
    }
}
