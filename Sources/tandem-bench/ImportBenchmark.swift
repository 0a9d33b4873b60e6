import Foundation
import TandemImport
import TandemModel
import TandemPOSIX

/// `tandem-bench import`: importing a generated page source of 5,000 XML elements (iOS and
/// Android), against loading the catalog it produces (Docs/benchmarks.md#import).
enum ImportBenchmark {
    static let nodes = 5_000
    /// 200 (30 runs' medians put the Android ratio anywhere in 0.93–1.02 here, 200 in
    /// 0.95–0.99); `TANDEM_BENCH_IMPORT_RUNS` sets another count (callgrind counts
    /// instructions alike in 3).
    static let runs = ProcessInfo.processInfo.environment["TANDEM_BENCH_IMPORT_RUNS"].flatMap { Int($0) }.map { max($0, 1) } ?? 200

    static func run(only name: String? = nil) throws -> String {
        let only = try name.map { n in
            guard let p = Platform(rawValue: n) else { throw BenchError("import takes ios or android, not \(n)") }
            return p
        }
        var out = "import: a generated page source of \(nodes) XML elements, \(runs) runs each (median, p99)\n"
        for platform in Platform.allCases where only == nil || only == platform {
            let xml = Array(pageSource(platform, nodes: nodes).utf8)
            let file = PageSourceFile(name: "bench.xml", screenID: "bench", bytes: xml)
            let importer = PageSourceImporter(platform: platform)
            var imported = try importer.importCatalog([file])
            var parseTimes: [UInt64] = []
            var importTimes: [UInt64] = []
            var writeTimes: [UInt64] = []
            var loadTimes: [UInt64] = []
            var json: [UInt8] = []
            for _ in 0..<runs {
                let (_, p) = try Monotonic.measure { () throws(ImportError) in try PageSourceReader.readTable(xml, file: "bench.xml") }
                parseTimes.append(p)
                let (i, t) = try Monotonic.measure { () throws(ImportError) in try importer.importCatalog([file]) }
                imported = i
                importTimes.append(t)
                let (text, w) = Monotonic.measure { CatalogWriter.json(imported) }
                writeTimes.append(w)
                json = Array(text.utf8)
                let (_, l) = try Monotonic.measure { () throws(Diagnostic) in
                    var decoder = CatalogDecoder(file: "bench.catalog.json")
                    return try decoder.decode(json)
                }
                loadTimes.append(l)
            }
            let stops = imported.catalog.screens[0].elements.filter { $0.accessible == true }.count
            out += "  \(platform.rawValue): \(xml.count / 1024) KiB of XML → \(imported.catalog.screens[0].elements.count) elements (\(stops) stops), \(json.count / 1024) KiB of catalog\n"
            out += line("XML → tree alone", parseTimes, bytes: xml.count)
            out += line("import (parse + rules)", importTimes, bytes: xml.count)
            out += line("write the catalog", writeTimes, bytes: json.count)
            out += line("load the catalog", loadTimes, bytes: json.count)
            let ratio = Summary(nanoseconds: importTimes).median / Summary(nanoseconds: loadTimes).median
            out += "    import / load: \(String(format: "%.2f", ratio))×\n"
        }
        return out
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func line(_ what: String, _ times: [UInt64], bytes: Int) -> String {
        let s = Summary(nanoseconds: times)
        let mbs = Double(bytes) / (s.median / 1e9) / 1_000_000
        return "    \(what.padding(toLength: 24, withPad: " ", startingAt: 0)) \(String(format: "%8.2f", s.median / 1e6)) ms  \(String(format: "%8.2f", s.p99 / 1e6)) ms  \(String(format: "%7.1f", mbs)) MB/s\n"
    }

    /// A screen as WebDriverAgent or UiAutomator2 writes it: a navigation bar or toolbar, then
    /// list rows of a title, a subtitle and a switch or a button, inside wrapper views.
    static func pageSource(_ platform: Platform, nodes: Int) -> String {
        var out = ""
        var count = 0
        switch platform {
        case .ios:
            out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<AppiumAUT>\n"
            out += "  <XCUIElementTypeApplication type=\"XCUIElementTypeApplication\" name=\"Bench\" label=\"Bench\" enabled=\"true\" visible=\"true\" accessible=\"false\" x=\"0\" y=\"0\" width=\"390\" height=\"844\" index=\"0\">\n"
            out += "    <XCUIElementTypeTable type=\"XCUIElementTypeTable\" enabled=\"true\" visible=\"true\" accessible=\"false\" x=\"0\" y=\"0\" width=\"390\" height=\"844\" index=\"0\">\n"
            count = 2
            var row = 0
            while count + 5 <= nodes {
                let y = row * 60
                out += "      <XCUIElementTypeCell type=\"XCUIElementTypeCell\" name=\"row_\(row)\" enabled=\"true\" visible=\"true\" accessible=\"false\" x=\"0\" y=\"\(y)\" width=\"390\" height=\"60\" index=\"\(row)\">\n"
                out += "        <XCUIElementTypeOther type=\"XCUIElementTypeOther\" enabled=\"true\" visible=\"true\" accessible=\"false\" x=\"0\" y=\"\(y)\" width=\"390\" height=\"60\" index=\"0\">\n"
                out += "          <XCUIElementTypeStaticText type=\"XCUIElementTypeStaticText\" value=\"Item \(row)\" name=\"Item \(row)\" label=\"Item \(row)\" enabled=\"true\" visible=\"true\" accessible=\"true\" x=\"16\" y=\"\(y + 6)\" width=\"250\" height=\"22\" index=\"0\"/>\n"
                out += "          <XCUIElementTypeStaticText type=\"XCUIElementTypeStaticText\" value=\"Detail of item \(row)\" name=\"Detail of item \(row)\" label=\"Detail of item \(row)\" enabled=\"true\" visible=\"true\" accessible=\"true\" x=\"16\" y=\"\(y + 30)\" width=\"250\" height=\"22\" index=\"1\"/>\n"
                if row % 2 == 0 {
                    out += "          <XCUIElementTypeSwitch type=\"XCUIElementTypeSwitch\" value=\"\(row % 4 == 0 ? 1 : 0)\" name=\"toggle_\(row)\" label=\"Enable item \(row)\" enabled=\"true\" visible=\"true\" accessible=\"true\" x=\"320\" y=\"\(y + 12)\" width=\"51\" height=\"31\" index=\"2\"/>\n"
                } else {
                    out += "          <XCUIElementTypeButton type=\"XCUIElementTypeButton\" name=\"more_\(row)\" label=\"More\" enabled=\"true\" visible=\"true\" accessible=\"true\" x=\"330\" y=\"\(y + 8)\" width=\"44\" height=\"44\" index=\"2\"/>\n"
                }
                out += "        </XCUIElementTypeOther>\n      </XCUIElementTypeCell>\n"
                count += 5
                row += 1
            }
            out += "    </XCUIElementTypeTable>\n  </XCUIElementTypeApplication>\n</AppiumAUT>\n"
        case .android:
            let common = "package=\"com.example.bench\" enabled=\"true\" focused=\"false\" scrollable=\"false\" long-clickable=\"false\" password=\"false\" selected=\"false\" displayed=\"true\""
            out += "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<hierarchy index=\"0\" class=\"hierarchy\" rotation=\"0\" width=\"1080\" height=\"2400\">\n"
            out += "  <androidx.recyclerview.widget.RecyclerView index=\"0\" class=\"androidx.recyclerview.widget.RecyclerView\" text=\"\" resource-id=\"com.example.bench:id/list\" content-desc=\"\" checkable=\"false\" checked=\"false\" clickable=\"false\" focusable=\"true\" \(common) bounds=\"[0,0][1080,2400]\">\n"
            count = 2
            var row = 0
            while count + 4 <= nodes {
                let y = row * 180
                out += "    <android.widget.LinearLayout index=\"\(row)\" class=\"android.widget.LinearLayout\" text=\"\" resource-id=\"com.example.bench:id/row\" content-desc=\"\" checkable=\"false\" checked=\"false\" clickable=\"true\" focusable=\"true\" \(common) bounds=\"[0,\(y)][1080,\(y + 180)]\">\n"
                out += "      <android.widget.TextView index=\"0\" class=\"android.widget.TextView\" text=\"Item \(row)\" resource-id=\"android:id/title\" content-desc=\"\" checkable=\"false\" checked=\"false\" clickable=\"false\" focusable=\"false\" \(common) bounds=\"[48,\(y + 24)][700,\(y + 90)]\"/>\n"
                out += "      <android.widget.TextView index=\"1\" class=\"android.widget.TextView\" text=\"Detail of item \(row)\" resource-id=\"android:id/summary\" content-desc=\"\" checkable=\"false\" checked=\"false\" clickable=\"false\" focusable=\"false\" \(common) bounds=\"[48,\(y + 96)][700,\(y + 156)]\"/>\n"
                out += "      <android.widget.Switch index=\"2\" class=\"android.widget.Switch\" text=\"\" resource-id=\"android:id/switch_widget\" content-desc=\"\" checkable=\"true\" checked=\"\(row % 2 == 0)\" clickable=\"false\" focusable=\"false\" \(common) bounds=\"[900,\(y + 54)][1032,\(y + 126)]\"/>\n"
                out += "    </android.widget.LinearLayout>\n"
                count += 4
                row += 1
            }
            out += "  </androidx.recyclerview.widget.RecyclerView>\n</hierarchy>\n"
        }
        return out
    }
}
