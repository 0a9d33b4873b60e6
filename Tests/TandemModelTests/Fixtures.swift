import Foundation
import TandemModel

/// Catalogs under `Tests/Fixtures/model/`, found from this file's path so the tests run from
/// any working directory.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TandemModelTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static func url(_ name: String) -> URL {
        packageRoot.appendingPathComponent("Tests/Fixtures/model/\(name)")
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url(name)))
    }

    /// Decodes a fixture, naming it in diagnostics by its file name alone.
    static func decode(_ name: String) throws -> (catalog: Catalog, warnings: [Diagnostic]) {
        var decoder = CatalogDecoder(file: name)
        let catalog = try decoder.decode(try bytes(name))
        return (catalog, decoder.diagnostics.warnings)
    }
}

/// Decodes inline catalog JSON as the file `x.catalog.json`.
func decode(_ json: String, file: String = "x.catalog.json") throws(Diagnostic) -> Catalog {
    var decoder = CatalogDecoder(file: file)
    return try decoder.decode(Array(json.utf8))
}

/// The diagnostic that decoding inline JSON throws, as the CLI would print it (`nil` if it decodes).
func decodeError(_ json: String, file: String = "x.catalog.json") -> String? {
    do {
        _ = try decode(json, file: file)
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
