import Foundation
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession

/// A sample under `Examples/NAME/`: `NAME.catalog.json`, `NAME.scenario` and, where the
/// sample has one, its golden transcript `NAME.golden.jsonl`.
public struct Example: Sendable, Hashable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) { self.name = name }

    /// Every sample that has both a catalog and a scenario, by name. Throws when `Examples/`
    /// cannot be read or holds none, so that a test over the samples fails instead of running
    /// no case at all.
    public static func all() throws -> [Example] {
        let folder = PackageRoot.path("Examples")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        let samples = names.sorted().map(Example.init).filter {
            FileManager.default.fileExists(atPath: $0.catalogPath) && FileManager.default.fileExists(atPath: $0.scenarioPath)
        }
        guard !samples.isEmpty else { throw MissingSamples(folder: folder) }
        return samples
    }

    /// `Examples/` holds no sample.
    public struct MissingSamples: Error, CustomStringConvertible {
        public let folder: String
        public var description: String { "no sample (NAME/NAME.catalog.json and NAME.scenario) under \(folder)" }
    }

    public var directory: String { PackageRoot.path("Examples/\(name)") }
    public var catalogPath: String { directory + "/\(name).catalog.json" }
    public var scenarioPath: String { directory + "/\(name).scenario" }
    public var goldenPath: String { directory + "/\(name).golden.jsonl" }

    public func catalog() throws -> Catalog { try CatalogLoader.load(path: catalogPath).catalog }

    /// The scenario, its ids checked against `catalog` and its profile names against `profiles`.
    public func scenario(for catalog: Catalog, profiles: ProfileStore = .shipped) throws -> Scenario {
        let text = try String(contentsOfFile: scenarioPath, encoding: .utf8)
        return try Scenario.parse(text, file: "\(name).scenario", catalog: catalog, profileExists: profiles.exists)
    }

    /// The golden transcript, as stored.
    public func golden() throws -> String { try String(contentsOfFile: goldenPath, encoding: .utf8) }

    public var description: String { name }
}

extension ProfileStore {
    /// The package's own `Profiles/` folder and nothing else (no `$XDG_CONFIG_HOME`), so a run
    /// does not depend on the machine; `default` is `Profiles/default.json`, as the CLI reads
    /// it from a checkout.
    public static var shipped: ProfileStore { ProfileStore(searchPath: [PackageRoot.path("Profiles")]) }
}

/// The braille translator the CLI makes for a profile: liblouis with the profile's
/// contraction settings. (`LouisTranslator` serialises every call on one process-wide lock,
/// so tests running in parallel may each have their own.)
@Sendable public func louisTranslator(for profile: Profile) -> any BrailleTranslator {
    LouisTranslator(contracted: profile.contracted, computerBrailleAtCursor: profile.computerBrailleAtCursor)
}
