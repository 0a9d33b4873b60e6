import Foundation
import TandemImport
import TandemModel
import TandemTestSupport

/// Running `tandem` from the package's root, reading fixtures, and what a walk says.
enum ImportSupport {
    static func fixture(_ name: String) -> String { "Tests/Fixtures/import/\(name)" }

    static func tandem(_ args: [String], input: Data? = nil, directory: String = PackageRoot.path) throws -> ProcessResult {
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = "/nonexistent-tandem-test"
        return try ProcessRunner.run([try TandemBinary.path()] + args, environment: env, directory: directory, input: input)
    }

    static func temporaryFolder(_ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-import-\(UUID().uuidString)-\(name)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Imports one fixture in-process.
    static func importFixture(_ name: String, platform: Platform, density: Double? = nil) throws -> ImportedCatalog {
        let bytes = Array(try Data(contentsOf: PackageRoot.url(fixture(name))))
        let base = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
        return try PageSourceImporter(platform: platform, density: density)
            .importCatalog([PageSourceFile(name: fixture(name), screenID: base, bytes: bytes)])
    }

    /// `tandem import --out` then `tandem replay` of the walk it wrote: the focus speech, in order.
    static func walk(_ name: String, platform: String, extra: [String] = []) throws -> [String] {
        let out = try temporaryFolder("walk")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let imported = try tandem(["import", platform, fixture(name), "--out", out] + extra)
        guard imported.status == 0 else { throw TestSupportError("import failed: \(imported.stderr)") }
        let base = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
        let replay = try tandem(["replay", "\(out)/\(base)/\(base).catalog.json", "\(out)/\(base)/walk.scenario"])
        guard replay.status == 0 else { throw TestSupportError("replay failed: \(replay.stderr)") }
        return focusSpeech(replay.stdout)
    }

    /// The `speak` lines whose source is the focus, as text.
    static func focusSpeech(_ transcript: String) -> [String] {
        transcript.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["ch"] as? String == "speech", object["op"] as? String == "speak", object["src"] as? String == "focus"
            else { return nil }
            return object["text"] as? String
        }
    }

    /// The walk a catalog's stops make: the start, `first`, forward to the last, back to the first.
    static func walked(_ stops: [String]) -> [String] {
        [stops[0], stops[0]] + stops.dropFirst() + stops.dropLast().reversed()
    }
}
