import Foundation
import Testing
import TandemTestSupport

/// The repository stands alone: its code and docs cite only what is in it.
@Suite("the repository cites only itself")
struct RepositoryRulesTests {
    /// Every file under `folder` whose name ends in one of `suffixes`, relative to the package.
    static func files(under folder: String, _ suffixes: [String]) -> [String] {
        let root = PackageRoot.path(folder)
        let all = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return all.filter { f in suffixes.contains { f.hasSuffix($0) } }.map { folder + "/" + $0 }
    }

    @Test("no source cites the first shared specification (SPEC §N): its promises are in Docs/")
    func noSpecSections() throws {
        let offenders = try Self.files(under: "Sources", [".swift", ".h"]).filter {
            try String(contentsOfFile: PackageRoot.path($0), encoding: .utf8).contains("SPEC §")
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }

    @Test("no source, doc, script or example points at a folder beside the repository (../shared)")
    func noSharedFolder() throws {
        var offenders: [String] = []
        for folder in ["Sources", "Docs", "Examples", "scripts"] {
            for f in Self.files(under: folder, [".swift", ".md", ".py", ".sh", ".json", ".1", ".toml"])
            where try String(contentsOfFile: PackageRoot.path(f), encoding: .utf8).contains("../shared") {
                offenders.append(f)
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }
}
