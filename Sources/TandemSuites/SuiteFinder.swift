import Foundation
import TandemModel
import TandemService

/// Finds suites under paths (`Docs/formats.md`, "Suites"):
///
/// - a folder holds suites: each `NAME.catalog.json` with the `*.scenario` files of the same
///   folder that belong to it — `NAME.scenario` or `NAME.anything.scenario`, or any scenario
///   when the folder has one catalog; folders are searched recursively (hidden ones skipped);
/// - a folder's optional `suite.json` lists the profiles and languages its scenarios run in;
/// - a path may also name one catalog (its suite) or one scenario (that scenario alone);
/// - a recorded `tandem serve` session, `NAME.session.record`, is a case of its own, compared
///   with `NAME.session.golden.jsonl` beside it (Docs/ci.md#recordings);
/// - so is an app case, `NAME.app.json`: an app's command and the user's steps, compared with
///   `NAME.app.golden.jsonl` (Docs/ci.md#apps).
public struct SuiteFinder {
    public var profileExists: (String) -> Bool
    public var currentFolder: String

    public init(profileExists: @escaping (String) -> Bool, currentFolder: String = FileManager.default.currentDirectoryPath) {
        self.profileExists = profileExists
        self.currentFolder = currentFolder
    }

    /// What to run in one folder: everything, or only some catalogs and scenarios.
    struct Selection {
        var all = false
        var catalogs: Set<String> = []
        var scenarios: Set<String> = []
        var recordings: Set<String> = []
        var apps: Set<String> = []
    }

    /// The plan for `paths`. Throws for a path that is missing or is neither a folder, a
    /// catalog nor a scenario.
    public func plan(_ paths: [String]) throws(Diagnostic) -> TestPlan {
        var folders: [String: Selection] = [:]
        var visited: Set<String> = []
        var skipped: [String] = []
        for raw in paths {
            let path = SuitePath.display(raw, currentFolder: currentFolder)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw Diagnostic(file: path, line: nil, path: "", message: "no such file or folder")
            }
            if isFolder.boolValue {
                for f in walk(path, visited: &visited, skipped: &skipped) { folders[f, default: Selection()].all = true }
            } else if path.hasSuffix(".catalog.json") {
                folders[SuitePath.folder(of: path), default: Selection()].catalogs.insert(SuitePath.file(of: path))
            } else if path.hasSuffix(".scenario") {
                folders[SuitePath.folder(of: path), default: Selection()].scenarios.insert(SuitePath.file(of: path))
            } else if path.hasSuffix(SessionReplay.recordingSuffix) {
                folders[SuitePath.folder(of: path), default: Selection()].recordings.insert(SuitePath.file(of: path))
            } else if path.hasSuffix(AppCase.suffix) {
                folders[SuitePath.folder(of: path), default: Selection()].apps.insert(SuitePath.file(of: path))
            } else {
                throw Diagnostic(file: path, line: nil, path: "", message: "not a folder, a catalog (*.catalog.json), a scenario (*.scenario), a recorded session (*.session.record) or an app case (*.app.json)")
            }
        }
        var plan = TestPlan()
        plan.skippedCheckouts = skipped
        for folder in folders.keys.sorted() { add(folder, folders[folder]!, to: &plan) }
        return plan
    }

    /// `folder` and every folder below it, sorted; hidden folders and links already seen
    /// skipped, and so are folders below it that are checkouts of their own (a `.git` inside: a
    /// submodule, a clone of Tandem beside the app), which land in `skipped`.
    func walk(_ folder: String, visited: inout Set<String>, skipped: inout [String], top: Bool = true) -> [String] {
        let real = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        guard visited.insert(real).inserted else { return [] }
        if !top, FileManager.default.fileExists(atPath: SuitePath.join(folder, ".git")) {
            skipped.append(folder)
            return []
        }
        var out = [folder]
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        for name in names where !name.hasPrefix(".") {
            let path = SuitePath.join(folder, name)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                out += walk(path, visited: &visited, skipped: &skipped, top: false)
            }
        }
        return out
    }

    func add(_ folder: String, _ selection: Selection, to plan: inout TestPlan) {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted() } catch {
            plan.problems.append(SuiteProblem(name: folder, diagnostic: Diagnostic(file: folder, line: nil, path: "", message: "cannot read the folder")))
            return
        }
        // Recorded sessions are cases of their own: no catalog to pair with, no suite.json.
        for r in names where r.hasSuffix(SessionReplay.recordingSuffix) && (selection.all || selection.recordings.contains(r)) {
            plan.cases.append(TestCase(recording: SuitePath.join(folder, r)))
        }
        // So are app cases: an app's command and the user's steps.
        for a in names where a.hasSuffix(AppCase.suffix) && (selection.all || selection.apps.contains(a)) {
            plan.cases.append(TestCase(app: SuitePath.join(folder, a)))
        }
        let catalogs = names.filter { $0.hasSuffix(".catalog.json") }
        var scenarios = names.filter { $0.hasSuffix(".scenario") }
        if !selection.all {
            // A named scenario alone, or a named catalog's scenarios.
            scenarios = scenarios.filter { s in
                selection.scenarios.contains(s) || selection.catalogs.contains(catalogFor(s, among: catalogs).map { $0 + ".catalog.json" } ?? "")
            }
        }
        guard !scenarios.isEmpty else { return }

        var manifest = SuiteManifest()
        var manifestPath: String?
        if names.contains(SuiteManifest.fileName) {
            let path = SuitePath.join(folder, SuiteManifest.fileName)
            manifestPath = path
            do {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw Diagnostic(file: path, line: nil, path: "", message: "cannot read the file")
                }
                let (m, warnings) = try SuiteManifest.decode(Array(data), file: path, profileExists: profileExists)
                manifest = m
                plan.warnings += warnings
            } catch {
                plan.problems.append(SuiteProblem(name: path, diagnostic: error as? Diagnostic
                    ?? Diagnostic(file: path, line: nil, path: "", message: "\(error)")))
                return
            }
        }

        var byCatalog: [String: [String]] = [:]
        for s in scenarios {
            guard let c = catalogFor(s, among: catalogs) else {
                let path = SuitePath.join(folder, s)
                let why = catalogs.isEmpty
                    ? "no catalog in this folder (a suite is a NAME.catalog.json beside its NAME.scenario files)"
                    : "no catalog for this scenario among \(catalogs.joined(separator: ", ")) (name it NAME.scenario or NAME.anything.scenario after its NAME.catalog.json)"
                plan.problems.append(SuiteProblem(name: path, diagnostic: Diagnostic(file: path, line: nil, path: "", message: why)))
                continue
            }
            byCatalog[c, default: []].append(s)
        }
        for c in byCatalog.keys.sorted() {
            let suite = Suite(catalog: SuitePath.join(folder, c + ".catalog.json"),
                              scenarios: byCatalog[c]!.map { SuitePath.join(folder, $0) },
                              manifest: manifest, manifestPath: manifestPath)
            let index = plan.suites.count
            plan.suites.append(suite)
            for scenario in suite.scenarios {
                for profile in manifest.profiles {
                    for language in manifest.languages.map({ $0.map(Optional.some) }) ?? [nil] {
                        plan.cases.append(TestCase(suite: index, scenario: scenario, profile: profile, language: language))
                    }
                }
            }
        }
    }

    /// The stem of the catalog a scenario belongs to: the longest catalog stem that the
    /// scenario's stem equals or starts with followed by a dot; else the only catalog.
    func catalogFor(_ scenario: String, among catalogs: [String]) -> String? {
        let stem = String(scenario.dropLast(".scenario".count))
        let stems = catalogs.map { String($0.dropLast(".catalog.json".count)) }
        if let best = stems.filter({ stem == $0 || stem.hasPrefix($0 + ".") }).max(by: { $0.count < $1.count }) { return best }
        return stems.count == 1 ? stems[0] : nil
    }
}
