import Foundation
import TandemImport
import TandemModel

/// `tandem import ios|android FILE…`: page sources that mobile test runs save, as catalogs
/// (Docs/import.md). Without `--out`, one catalog with a screen a file on standard output; with
/// `--out DIR`, each file becomes `DIR/NAME/NAME.catalog.json` beside `DIR/NAME/walk.scenario`, a
/// suite `tandem test DIR --update` records goldens for. Nothing is written when a file fails.
enum ImportCommand {
    static func run(_ args: Arguments) throws(CLIError) -> Int32 {
        guard let first = args.positional.first else { throw .usage("expected ios or android, then at least one FILE") }
        guard let platform = Platform(rawValue: first) else {
            throw .usage("the first argument is ios or android, not \"\(first)\"")
        }
        let paths = Array(args.positional.dropFirst())
        guard !paths.isEmpty else { throw .usage("expected at least one page source FILE (or - for standard input)") }
        try args.oneStandardInput()
        var density: Double?
        if let d = args.options["--density"] {
            guard platform == .android else { throw .usage("--density is for android page sources (iOS writes points)") }
            guard let n = Double(d), n.isFinite, n > 0 else { throw .invalid("--density is a number of pixels a point above 0, not \"\(d)\"") }
            density = n
        }
        let language = args.options["--language"] ?? "en"
        guard !language.isEmpty, language.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw .invalid("--language is a BCP 47 tag (en, pt-BR), not \"\(language)\"")
        }
        let importer = PageSourceImporter(platform: platform, language: language, density: density)

        var files: [PageSourceFile] = []
        for path in paths {
            let name = InputFile.name(path)
            let base = path == "-" ? "screen" : URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            files.append(PageSourceFile(name: name, screenID: base, bytes: try InputFile.bytes(path)))
        }
        let tool = platform == .ios ? "WebDriverAgent" : "UiAutomator"
        guard let dir = args.options["--out"] else {
            let names = files.map(\.name).joined(separator: ", ")
            let imported = try load(importer, files, name: "Imported from \(names) (\(tool) page source)")
            print(CatalogWriter.json(imported), terminator: "")
            return 0
        }
        // Every file is read before anything is written: a bad one leaves the folder as it was.
        var suites: [(folder: String, imported: ImportedCatalog)] = []
        var seen: [String: String] = [:]
        for file in files {
            let imported = try load(importer, [file], name: "Imported from \(file.name) (\(tool) page source)")
            let id = imported.catalog.screens[0].id
            if let other = seen[id] {
                throw .invalid("\(file.name) and \(other) would both be written to \(dir)/\(id): rename one")
            }
            seen[id] = file.name
            suites.append(((dir as NSString).appendingPathComponent(id), imported))
        }
        for (folder, imported) in suites {
            let screen = imported.catalog.screens[0]
            let catalogPath = (folder as NSString).appendingPathComponent("\(screen.id).catalog.json")
            let scenarioPath = (folder as NSString).appendingPathComponent("walk.scenario")
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try Data(CatalogWriter.json(imported).utf8).write(to: URL(fileURLWithPath: catalogPath))
                try Data(WalkScenario.text(for: screen, language: imported.catalog.language).utf8).write(to: URL(fileURLWithPath: scenarioPath))
            } catch {
                throw .invalid("cannot write \(folder): \(error.localizedDescription)")
            }
            print("wrote \(catalogPath) and \(scenarioPath)")
        }
        return 0
    }

    /// Imports, prints the warnings, and checks the catalog reads back as any catalog would.
    static func load(_ importer: PageSourceImporter, _ files: [PageSourceFile], name: String) throws(CLIError) -> ImportedCatalog {
        let imported: ImportedCatalog
        do { imported = try importer.importCatalog(files, name: name) } catch { throw .invalid(error.description) }
        for w in imported.warnings { printErr("tandem: warning: \(w)") }
        var decoder = CatalogDecoder(file: "the imported catalog")
        do { _ = try decoder.decode(Array(CatalogWriter.json(imported).utf8)) } catch {
            throw .invalid("the catalog imported from \(files.map(\.name).joined(separator: ", ")) does not read back (a bug in tandem import): \(error)")
        }
        return imported
    }
}
