import TandemModel

/// A folder's optional `suite.json`: the profiles and languages every scenario of the folder's
/// suites runs in (each scenario × profile × language is one case).
///
/// ```json
/// { "format": "tandem.suite/1", "profiles": ["default", "braille-only"], "languages": ["pt-BR", "en", "ru"] }
/// ```
public struct SuiteManifest: Sendable, Hashable {
    public static let format = "tandem.suite/1"
    public static let fileName = "suite.json"

    /// Profile names, in order; `["default"]` when not given.
    public var profiles: [String] = ["default"]
    /// Languages, in order; `nil`: the catalog's own only.
    public var languages: [String]?

    public init(profiles: [String] = ["default"], languages: [String]? = nil) {
        self.profiles = profiles; self.languages = languages
    }

    /// Reads a `suite.json`; errors name the file, line and path. `profileExists` checks names.
    public static func decode(_ bytes: [UInt8], file: String, profileExists: (String) -> Bool) throws(Diagnostic) -> (SuiteManifest, [Diagnostic]) {
        let json = SuiteJSONFile(file: file)
        var manifest = SuiteManifest()
        let (_, warnings) = try json.object(bytes, format: format) { (m: JSONNode.Member) throws(Diagnostic) -> Bool in
            switch m.key {
            case "profiles":
                let names = try strings(m.node, "profiles", json.fail)
                for (i, name) in names.enumerated() where !profileExists(name) {
                    throw json.fail(m.node.items[i], "profiles[\(i)]", "no profile \"\(name)\"")
                }
                manifest.profiles = names
            case "languages":
                let tags = try strings(m.node, "languages", json.fail)
                for (i, tag) in tags.enumerated() where !isLanguageTag(tag) {
                    throw json.fail(m.node.items[i], "languages[\(i)]", "\"\(tag)\" is not a language tag (such as en, pt-BR, ru)")
                }
                manifest.languages = tags
            default:
                return false
            }
            return true
        }
        return (manifest, warnings)
    }

    /// A non-empty array of distinct strings.
    static func strings(_ node: JSONNode, _ path: String, _ fail: (JSONNode, String, String) -> Diagnostic) throws(Diagnostic) -> [String] {
        guard case .array(let items) = node.kind else { throw fail(node, path, "expected an array of names, found \(node.typeName)") }
        guard !items.isEmpty else { throw fail(node, path, "the list is empty") }
        var out: [String] = []
        for (i, item) in items.enumerated() {
            guard case .string(let s) = item.kind else { throw fail(item, "\(path)[\(i)]", "expected a string, found \(item.typeName)") }
            if out.contains(s) { throw fail(item, "\(path)[\(i)]", "\"\(s)\" is listed twice") }
            out.append(s)
        }
        return out
    }

    /// BCP 47 in the shape Tandem uses: a 2–3 letter language, then `-` subtags of letters
    /// and digits (`en`, `pt-BR`, `zh-Hant-TW`).
    static func isLanguageTag(_ s: String) -> Bool {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}

extension JSONNode {
    /// An array's items (empty for anything else).
    var items: [JSONNode] {
        if case .array(let a) = kind { return a }
        return []
    }
}
