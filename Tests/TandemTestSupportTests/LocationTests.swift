import Foundation
import Testing
import TandemTestSupport

/// Paths the tests find without the working directory.
@Suite("package paths and the tandem binary")
struct LocationTests {
    @Test("the package root is the checkout: it holds Package.swift and this test file")
    func packageRoot() {
        #expect(FileManager.default.fileExists(atPath: PackageRoot.path("Package.swift")))
        #expect(PackageRoot.path(String(#filePath.dropFirst(PackageRoot.path.count + 1))) == #filePath)
        #expect(PackageRoot.path("/etc/hosts") == "/etc/hosts", "an absolute path stays as it is")
    }

    @Test("fixture folders and samples name files that exist")
    func fixturesAndExamples() throws {
        #expect(FixtureFolder.model.catalogFiles().contains("everything.catalog.json"))
        #expect(FixtureFolder.model.catalogFiles() == FixtureFolder.model.catalogFiles().sorted())
        #expect(try FixtureFolder.navigator.catalog("controls.catalog.json").screens.isEmpty == false)
        let names = try Example.all().map(\.name)
        #expect(names == ["albums", "grocery", "jobs", "pizza"], "every sample, in order")
        #expect(FileManager.default.fileExists(atPath: Example("grocery").goldenPath))
    }

    @Test("the tandem binary is the one in this test run's build folder")
    func tandemBinary() throws {
        let path = try TandemBinary.path()
        #expect(URL(fileURLWithPath: path).deletingLastPathComponent().path == TandemBinary.buildDirectory.path)
        #expect(TandemBinary.buildDirectory.path.hasPrefix(PackageRoot.path + "/.build/"))
        let help = try ProcessRunner.run([path, "--help"])
        #expect(help.stdout.contains("USAGE"), "\(help.output)")
    }
}
