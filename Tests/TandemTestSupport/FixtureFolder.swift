import Foundation
import TandemModel

/// A folder of test inputs under `Tests/Fixtures/`, one for each module's tests.
public struct FixtureFolder: Sendable {
    public static let model = FixtureFolder("model")
    public static let navigator = FixtureFolder("navigator")
    public static let service = FixtureFolder("service")
    public static let cli = FixtureFolder("cli")

    /// The folder's name under `Tests/Fixtures/`.
    public let name: String

    public init(_ name: String) { self.name = name }

    public var url: URL { PackageRoot.url("Tests/Fixtures/\(name)") }

    public func url(_ file: String) -> URL { url.appendingPathComponent(file) }

    public func path(_ file: String) -> String { url(file).path }

    public func bytes(_ file: String) throws -> [UInt8] { Array(try Data(contentsOf: url(file))) }

    /// Decodes a fixture catalog, naming it in diagnostics by its file name alone.
    public func decode(_ file: String) throws -> (catalog: Catalog, warnings: [Diagnostic]) {
        var decoder = CatalogDecoder(file: file)
        let catalog = try decoder.decode(try bytes(file))
        return (catalog, decoder.diagnostics.warnings)
    }

    public func catalog(_ file: String) throws -> Catalog { try decode(file).catalog }

    /// The names of the folder's `*.catalog.json` files, sorted (not in directory order).
    public func catalogFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix(".catalog.json") }.sorted()
    }
}

/// Decodes catalog JSON written in a test, as the file `file` (the name diagnostics give).
public func decodeCatalog(_ json: String, file: String = "inline.catalog.json") throws(Diagnostic) -> Catalog {
    var decoder = CatalogDecoder(file: file)
    return try decoder.decode(Array(json.utf8))
}
