import TandemModel
import TandemTestSupport

/// The diagnostic that decoding inline JSON throws, as the CLI would print it (`nil` if it decodes).
func decodeError(_ json: String, file: String = "x.catalog.json") -> String? {
    do {
        _ = try decodeCatalog(json, file: file)
        return nil
    } catch {
        return error.description
    }
}

/// The syntax error for a document, as `LINE: message` (`nil` if it parses).
func parseError(_ text: String) -> String? {
    parseError(Array(text.utf8))
}

func parseError(_ bytes: [UInt8]) -> String? {
    do {
        _ = try JSONParser.parse(bytes)
        return nil
    } catch {
        return "\(error.line): \(error.message)"
    }
}
