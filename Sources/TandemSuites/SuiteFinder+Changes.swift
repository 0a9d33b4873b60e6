import Foundation
import TandemService

extension SuiteFinder {
    /// The plan for a pull request's changed files (`git diff --name-only`, `tandem test -`):
    ///
    /// - a changed catalog runs its suite; a scenario, itself; a golden file
    ///   (`NAME[.PROFILE][.LANGUAGE].golden.jsonl`), the scenario it belongs to; a `suite.json`,
    ///   the suites of its folder (not the folders below); a folder, everything under it; a
///   recorded session (`NAME.session.record`) or its golden (`NAME.session.golden.jsonl`), it;
///   an app case (`NAME.app.json`) or its golden (`NAME.app.golden.jsonl`), it;
    /// - a path that no longer exists (a deleted scenario) and any other file (a Swift source, a
    ///   README) select nothing and are listed in `ignoredChanges`, never an error: a change
    ///   list is what changed, not what to test;
    /// - an empty list, or one that selects nothing, is an empty plan.
    public func plan(changed paths: [String]) -> TestPlan {
        var folders: [String: Selection] = [:]
        var visited: Set<String> = []
        var skipped: [String] = []
        var ignored: [IgnoredChange] = []
        for raw in paths {
            let path = SuitePath.display(raw, currentFolder: currentFolder)
            let folder = SuitePath.folder(of: path), file = SuitePath.file(of: path)
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            if exists, isFolder.boolValue {
                for f in walk(path, visited: &visited, skipped: &skipped) { folders[f, default: Selection()].all = true }
            } else if file.hasSuffix(SessionReplay.goldenSuffix),
                      case let recording = String(file.dropLast(SessionReplay.goldenSuffix.count)) + SessionReplay.recordingSuffix,
                      FileManager.default.fileExists(atPath: SuitePath.join(folder, recording)) {
                folders[folder, default: Selection()].recordings.insert(recording)
            } else if exists, file.hasSuffix(SessionReplay.recordingSuffix) {
                folders[folder, default: Selection()].recordings.insert(file)
            } else if file.hasSuffix(AppCase.goldenSuffix),
                      case let app = String(file.dropLast(AppCase.goldenSuffix.count)) + AppCase.suffix,
                      FileManager.default.fileExists(atPath: SuitePath.join(folder, app)) {
                folders[folder, default: Selection()].apps.insert(app)
            } else if exists, file.hasSuffix(AppCase.suffix) {
                folders[folder, default: Selection()].apps.insert(file)
            } else if file.hasSuffix(GoldenName.suffix) {
                // A deleted golden still selects its scenario: the case then fails for want of it.
                if let scenario = scenarioOf(golden: file, in: folder) {
                    folders[folder, default: Selection()].scenarios.insert(scenario)
                } else {
                    ignored.append(IgnoredChange(path: path, reason: exists ? .strayGolden : .deleted))
                }
            } else if !exists {
                let suiteFile = file.hasSuffix(".catalog.json") || file.hasSuffix(".scenario") || file == SuiteManifest.fileName
                    || file.hasSuffix(SessionReplay.recordingSuffix) || file.hasSuffix(AppCase.suffix)
                ignored.append(IgnoredChange(path: path, reason: suiteFile ? .deleted : .notSuiteFile))
            } else if file.hasSuffix(".catalog.json") {
                folders[folder, default: Selection()].catalogs.insert(file)
            } else if file.hasSuffix(".scenario") {
                folders[folder, default: Selection()].scenarios.insert(file)
            } else if file == SuiteManifest.fileName {
                folders[folder, default: Selection()].all = true
            } else {
                ignored.append(IgnoredChange(path: path, reason: .notSuiteFile))
            }
        }
        var plan = TestPlan()
        plan.skippedCheckouts = skipped
        plan.ignoredChanges = ignored
        for folder in folders.keys.sorted() { add(folder, folders[folder]!, to: &plan) }
        return plan
    }

    /// The scenario file (in `folder`) whose golden file `golden` is: the longest scenario stem
    /// that the golden's stem equals, or starts with followed by `.PROFILE`, `.LANGUAGE` or
    /// `.PROFILE.LANGUAGE` (so `bank.transfer.golden.jsonl` is not `bank.scenario`'s).
    func scenarioOf(golden: String, in folder: String) -> String? {
        let stem = String(golden.dropLast(GoldenName.suffix.count))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let stems = names.filter { $0.hasSuffix(".scenario") }.map { String($0.dropLast(".scenario".count)) }
        func isLanguage(_ s: Substring) -> Bool { s.wholeMatch(of: /[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*/) != nil }
        func isVariant(_ rest: Substring) -> Bool {
            let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
            switch parts.count {
            case 1: return profileExists(String(parts[0])) || isLanguage(parts[0])
            case 2: return profileExists(String(parts[0])) && isLanguage(parts[1])
            default: return false
            }
        }
        return stems.filter { stem == $0 || (stem.hasPrefix($0 + ".") && isVariant(stem.dropFirst($0.count + 1))) }
            .max { $0.count < $1.count }.map { $0 + ".scenario" }
    }
}
