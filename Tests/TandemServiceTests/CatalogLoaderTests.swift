import Testing
import TandemModel
@testable import TandemService
@testable import TandemSession
import TandemTestSupport

/// Reading catalogs from disk (the model module itself does no I/O).
@Suite("catalog loader")
struct CatalogLoaderTests {
    @Test("the loader reads a catalog from disk and returns its warnings, naming the path as given")
    func loaderReadsFixture() throws {
        let path = FixtureFolder.model.path("unknown-fields.catalog.json")
        let (catalog, warnings) = try CatalogLoader.load(path: path)
        #expect(catalog.screens.count == 1)
        #expect(warnings.count == 4)
        #expect(warnings.allSatisfy { $0.file == path })
    }

    @Test("the loader reports a missing file by its path, as given")
    func loaderMissingFile() {
        #expect(throws: Diagnostic(file: "/nonexistent/dir/a.catalog.json", line: nil, path: "", message: "no such file")) {
            try CatalogLoader.load(path: "/nonexistent/dir/a.catalog.json")
        }
    }
}
