import Foundation
import TandemModel
import TandemService

extension SuiteRunner {
    /// An app case (Docs/ci.md#apps): the app started against a private service on the
    /// virtual clock, driven by the case's steps, its transcript compared with
    /// `NAME.app.golden.jsonl`. An app that exits, never connects or stays busy fails the case
    /// with a sentence (and writes no golden with `--update`).
    func runApp(_ c: TestCase) -> CaseResult {
        let start = ContinuousClock.now
        var result = CaseResult(name: c.name, file: c.scenario, catalog: nil, profile: nil, outcome: .passed)
        do throws(Diagnostic) {
            guard let data = FileManager.default.contents(atPath: c.scenario) else {
                throw Diagnostic(file: c.scenario, line: nil, path: "", message: FileManager.default.fileExists(atPath: c.scenario) ? "cannot read the file" : "no such file")
            }
            let (app, _) = try AppCase.decode(Array(data), file: c.scenario, profileExists: profiles.exists)
            let profile = try profiles.load(app.profile).0
            result = CaseResult(name: c.name, file: c.scenario, catalog: nil, profile: app.profile, outcome: .passed)
            let golden = c.goldenPath(catalogLanguage: "")
            result.golden = golden
            let sink = LineSink()
            let run = try AppRun(app: app, file: c.scenario, profile: profile, profiles: profiles, makeTranslator: makeTranslator).run(sink: sink)
            var failures: [CaseResult.Failure] = run.failures.map { .expectFailed($0) }
            if let stop = run.appFailure {
                // The transcript stops where the app did: no diff against it, no golden from it.
                failures.append(.appFailed(stop))
            } else {
                if run.cutShort { failures.append(.cutShort) }
                let got = sink.lines
                try compare(got, recordable: sink.recordable, golden: golden, failures: &failures, result: &result) { expected, changes in
                    HeardDiff(changes: changes, expected: expected, got: got, scenario: app.scenario, source: app.source)
                }
            }
            if !failures.isEmpty { result.outcome = .failed(failures) }
        } catch {
            result.outcome = .error(error)
        }
        result.milliseconds = Self.seconds(since: start) * 1000
        return result
    }
}
