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
        let root: JSONNode
        do { root = try JSONParser.parse(bytes) } catch {
            throw Diagnostic(file: file, line: error.line, path: "", message: error.message)
        }
        func fail(_ n: JSONNode, _ path: String, _ m: String) -> Diagnostic { Diagnostic(file: file, line: n.line, path: path, message: m) }
        guard let members = root.members else { throw fail(root, "", "expected an object, found \(root.typeName)") }
        var manifest = SuiteManifest()
        var warnings: [Diagnostic] = []
        var sawFormat = false
        for m in members {
            switch m.key {
            case "format":
                sawFormat = true
                guard case .string(let f) = m.node.kind, f == format else {
                    throw fail(m.node, "format", "unsupported format (expected \"\(format)\")")
                }
            case "profiles":
                let names = try strings(m.node, "profiles", fail)
                for (i, name) in names.enumerated() where !profileExists(name) {
                    throw fail(m.node.items[i], "profiles[\(i)]", "no profile \"\(name)\"")
                }
                manifest.profiles = names
            case "languages":
                let tags = try strings(m.node, "languages", fail)
                for (i, tag) in tags.enumerated() where !isLanguageTag(tag) {
                    throw fail(m.node.items[i], "languages[\(i)]", "\"\(tag)\" is not a language tag (such as en, pt-BR, ru)")
                }
                manifest.languages = tags
            default:
                warnings.append(Diagnostic(file: file, line: m.keyLine, path: m.key, message: "unknown field \"\(m.key)\" ignored"))
            }
        }
        guard sawFormat else { throw fail(root, "", "missing field \"format\" (expected \"\(format)\")") }
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
