import TandemSession
import Foundation
import TandemModel

/// Reads a catalog file from disk.
public enum CatalogLoader {
    /// Loads and validates `path`; the file name in diagnostics is the path as given.
    public static func load(path: String) throws(Diagnostic) -> (catalog: Catalog, warnings: [Diagnostic]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Diagnostic(file: path, line: nil, path: "", message: FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file")
        }
        var decoder = CatalogDecoder(file: path)
        let catalog = try decoder.decode(Array(data))
        return (catalog, decoder.diagnostics.warnings)
    }
}
