import TandemModel

/// What a suite's JSON files (an app case's `NAME.app.json`, a folder's `suite.json`) begin
/// with, written once: the bytes parsed, the top value an object, its `format` field the one
/// expected, and each field the file does not know named by its JSON path as a warning. Errors
/// name the file, line and JSON path.
struct SuiteJSONFile {
    let file: String

    /// An error about `node`, at `path` in the file.
    func fail(_ node: JSONNode, _ path: String, _ message: String) -> Diagnostic {
        Diagnostic(file: file, line: node.line, path: path, message: message)
    }

    /// Parses `bytes` as an object whose `format` is `format`, handing every other field to
    /// `field` in the file's order; `field` returns false for a field it does not know, which is
    /// then a warning (`unknown field "x" ignored`). Returns the top object, for errors about
    /// fields missing from it, and the warnings.
    func object(_ bytes: [UInt8], format: String,
                field: (JSONNode.Member) throws(Diagnostic) -> Bool) throws(Diagnostic) -> (root: JSONNode, warnings: [Diagnostic]) {
        let root: JSONNode
        do { root = try JSONParser.parse(bytes) } catch {
            throw Diagnostic(file: file, line: error.line, path: "", message: error.message)
        }
        guard let members = root.members else { throw fail(root, "", "expected an object, found \(root.typeName)") }
        var warnings: [Diagnostic] = []
        var sawFormat = false
        for m in members {
            if m.key == "format" {
                sawFormat = true
                guard case .string(let f) = m.node.kind, f == format else {
                    throw fail(m.node, "format", "unsupported format (expected \"\(format)\")")
                }
            } else if try !field(m) {
                warnings.append(Diagnostic(file: file, line: m.keyLine, path: m.key, message: "unknown field \"\(m.key)\" ignored"))
            }
        }
        guard sawFormat else { throw fail(root, "", "missing field \"format\" (expected \"\(format)\")") }
        return (root, warnings)
    }
}
