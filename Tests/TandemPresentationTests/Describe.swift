import TandemModel
import TandemNavigator
@testable import TandemPresentation

/// What one element says and shows when focused: a one-screen catalog from element JSON.
struct Described: Equatable, CustomStringConvertible {
    var speech: String
    var hint: String?
    var braille: String

    var description: String { "speech \"\(speech)\", hint \(hint.map { "\"\($0)\"" } ?? "none"), braille \"\(braille)\"" }

    /// `elements`: the root's children; `focus`: the id to describe (reached by the navigator).
    static func of(_ elements: String, focus: String, language: String = "en", verbosity: Verbosity = Verbosity()) throws -> Described {
        let json = """
        {"format": "tandem.catalog/1", "language": "\(language)", "screens": [
          {"id": "s", "focus": "\(focus)", "root": {"id": "root", "children": [\(elements)]}}]}
        """
        var decoder = CatalogDecoder(file: "test.catalog.json")
        var nav = Navigator(catalog: try decoder.decode(Array(json.utf8)))
        _ = nav.start()
        let p = Presenter(language: language, verbosity: verbosity)
        var out = Described(speech: "", hint: nil, braille: "")
        for o in p.present(.focused(screen: "s", element: focus, reason: .user), in: nav) {
            if case .speak(let u) = o { out.speech = u.text; out.hint = u.hint }
            if case .focusLine(let b) = o { out.braille = b.text }
        }
        return out
    }

    /// A single element with `fields` (JSON members after the id).
    static func element(_ fields: String, language: String = "en") throws -> Described {
        try of(#"{"id": "e", \#(fields)}"#, focus: "e", language: language)
    }
}
