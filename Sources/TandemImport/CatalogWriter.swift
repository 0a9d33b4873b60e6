import TandemModel
import TandemNavigator
import TandemVocabulary

/// An imported catalog as `*.catalog.json` text (Docs/formats.md#catalog): one element a line,
/// nested as the tree is, each with its `source` (`FILE:LINE:COLUMN` of its XML start tag).
/// Writes the fields the importers set; `CatalogDecoder` reads the text back to the same values.
public enum CatalogWriter {
    public static func json(_ imported: ImportedCatalog) -> String {
        let c = imported.catalog
        var out = "{\n  \"format\": \(JSONText.quote(Catalog.format)),\n"
        if let name = c.name { out += "  \"name\": \(JSONText.quote(name)),\n" }
        out += "  \"language\": \(JSONText.quote(c.language)),\n"
        out += "  \"start\": \(JSONText.quote(c.start)),\n"
        out += "  \"screens\": [\n"
        for (s, screen) in c.screens.enumerated() {
            out += "    {\n      \"id\": \(JSONText.quote(screen.id)),\n"
            if let title = screen.title { out += "      \"title\": \(JSONText.quote(title)),\n" }
            out += "      \"root\": "
            element(0, of: screen, sources: imported.sources[s], indent: 6, into: &out)
            out += "\n    }" + (s + 1 < c.screens.count ? ",\n" : "\n")
        }
        out += "  ]\n}\n"
        return out
    }

    static func element(_ i: Int, of screen: Screen, sources: [SourceLocation], indent: Int, into out: inout String) {
        let e = screen.elements[i]
        var fields = ["\"id\": \(JSONText.quote(e.id))"]
        if case .plain(let l)? = e.label { fields.append("\"label\": \(JSONText.quote(l))") }
        if let v = e.value { fields.append("\"value\": \(JSONText.quote(v))") }
        if let h = e.hint { fields.append("\"hint\": \(JSONText.quote(h))") }
        if !e.traits.isEmpty { fields.append("\"traits\": [\(e.traits.names.map(JSONText.quote).joined(separator: ", "))]") }
        if let f = e.frame { fields.append("\"frame\": [\([f.x, f.y, f.width, f.height].map(number).joined(separator: ", "))]") }
        if let a = e.accessible { fields.append("\"accessible\": \(a)") }
        if e.hidden { fields.append("\"hidden\": true") }
        if e.modal { fields.append("\"modal\": true") }
        if let t = e.container { fields.append("\"container\": \(JSONText.quote(t.rawValue))") }
        if let a = e.activate, a.isEmpty { fields.append("\"activate\": []") }
        if let a = e.scrollUp, a.isEmpty { fields.append("\"scrollUp\": []") }
        if let a = e.scrollDown, a.isEmpty { fields.append("\"scrollDown\": []") }
        if let p = e.progress {
            var parts: [String] = []
            if let l = p.label { parts.append("\"label\": \(JSONText.quote(l))") }
            if let v = p.value { parts.append("\"value\": \(number(v))") }
            fields.append("\"progress\": {\(parts.joined(separator: ", "))}")
        }
        fields.append("\"source\": \(JSONText.quote(sources[i].description))")
        out += "{" + fields.joined(separator: ", ")
        if !e.children.isEmpty {
            let pad = String(repeating: " ", count: indent + 2)
            out += ", \"children\": [\n"
            for (k, c) in e.children.enumerated() {
                out += pad
                element(c, of: screen, sources: sources, indent: indent + 2, into: &out)
                out += k + 1 < e.children.count ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        }
        out += "}"
    }

    /// Whole numbers without a point; others as Swift prints a Double (shortest exact form).
    static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }
}

/// The scenario `tandem import --out` writes beside each catalog: the screen walked from its
/// first element to its last with `next`, then back to the first with `previous`, each step
/// heard out (Docs/import.md#walk).
public enum WalkScenario {
    /// Virtual milliseconds after each step: long enough for an element, its hint and the hint's pause.
    public static let pause = 6000

    public static func text(for screen: Screen, language: String, device: Device = .phone) -> String {
        let stops = ReadingOrder(screen: screen, language: language, rowThreshold: device.rowThreshold).elements.count
        var lines = [
            "# Written by tandem import: the screen from its first element to its last, then back (Docs/import.md#walk).",
            "first", "wait \(pause)",
        ]
        for _ in 0..<max(stops - 1, 0) { lines += ["next", "wait \(pause)"] }
        for _ in 0..<max(stops - 1, 0) { lines += ["previous", "wait \(pause)"] }
        return lines.joined(separator: "\n") + "\n"
    }
}
