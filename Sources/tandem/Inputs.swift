import Foundation
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession

/// Everything a replay needs, loaded and checked before any output is written, so that bad
/// input never leaves a half-written transcript behind.
struct ReplayInputs {
    let replay: Replay

    init(catalogPath: String, scenarioPath: String, profileName: String?) throws(CLIError) {
        let store = ProfileStore()
        let profile = try Self.loadProfile(profileName, from: store)
        let catalog = try Self.loadCatalog(catalogPath)
        let text = try InputFile.text(scenarioPath)
        let scenario: Scenario
        do {
            scenario = try Scenario.parse(text, file: InputFile.name(scenarioPath), catalog: catalog, profileExists: store.exists)
        } catch { throw .input(error) }
        try Self.checkBrailleTables()
        replay = Replay(catalog: catalog, scenario: scenario, profile: profile, profiles: store, makeTranslator: Self.translator)
    }

    /// A profile by name (`default` when none), its warnings printed.
    static func loadProfile(_ name: String?, from store: ProfileStore) throws(CLIError) -> Profile {
        do {
            let (p, warnings) = try store.load(name ?? "default")
            for w in warnings { printErr("tandem: warning: \(w)") }
            return p
        } catch { throw .input(error) }
    }

    /// A catalog file (or `-`), loaded and validated, its warnings printed.
    static func loadCatalog(_ path: String) throws(CLIError) -> Catalog {
        if path == "-" { return try InputFile.catalog(path).catalog }
        do {
            let (c, warnings) = try CatalogLoader.load(path: path)
            for w in warnings { printErr("tandem: warning: \(w)") }
            return c
        } catch { throw .input(error) }
    }

    /// Stops a command before it starts when liblouis cannot load its tables: braille made
    /// without them is blank cells, which a reader would take for an empty screen.
    static func checkBrailleTables() throws(CLIError) {
        if let report = LouisTranslator().tableReport() { throw .unavailable(report) }
    }

    @Sendable static func translator(for p: Profile) -> any BrailleTranslator {
        LouisTranslator(contracted: p.contracted, computerBrailleAtCursor: p.computerBrailleAtCursor)
    }
}
