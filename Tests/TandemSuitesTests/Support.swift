import Foundation
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession
import TandemSuites

/// Temporary suite folders built from the samples, and a runner as the CLI makes it.
enum SuiteFixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var profiles: ProfileStore {
        ProfileStore(searchPath: [packageRoot.appendingPathComponent("Profiles").path])
    }

    /// A new empty folder under the temporary folder; removed by `remove`.
    static func folder(_ name: String = "suite") throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-suites-\(UUID().uuidString)/\(name)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: SuitePath.folder(of: path))
    }

    /// Copies `Examples/<sample>/<file>` to `folder/<as>`.
    static func copySample(_ sample: String, _ file: String, to folder: String, as name: String? = nil) throws {
        try FileManager.default.copyItem(atPath: packageRoot.appendingPathComponent("Examples/\(sample)/\(file)").path,
                                         toPath: folder + "/" + (name ?? file))
    }

    static func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(atPath: SuitePath.folder(of: path), withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func runner(jobs: Int = 2, update: Bool = false, keepTranscripts: Bool = false) -> SuiteRunner {
        var r = SuiteRunner(jobs: jobs, profiles: profiles) { p in
            LouisTranslator(contracted: p.contracted, computerBrailleAtCursor: p.computerBrailleAtCursor)
        }
        r.update = update
        r.keepTranscripts = keepTranscripts
        return r
    }

    static func plan(_ paths: [String]) throws -> TestPlan {
        let store = profiles
        return try SuiteFinder(profileExists: store.exists).plan(paths)
    }

    /// `name: passed | failed | error` for each result.
    static func outcomes(_ s: RunSummary) -> [String] {
        s.results.map { r in
            switch r.outcome {
            case .passed: "\(SuitePath.file(of: r.name)): passed"
            case .failed: "\(SuitePath.file(of: r.name)): failed"
            case .error: "\(SuitePath.file(of: r.name)): error"
            }
        }
    }
}
