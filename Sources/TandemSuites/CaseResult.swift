import TandemModel
import TandemService
import TandemSession

/// What became of one case (or of a problem found while looking for cases).
public struct CaseResult: Sendable {
    public enum Outcome: Sendable {
        case passed
        /// The app's output is not what the golden file or the scenario expects.
        case failed([Failure])
        /// Bad input: the case could not run (a catalog, scenario, profile or golden that
        /// cannot be read).
        case error(Diagnostic)
    }

    public enum Failure: Sendable {
        /// The transcript differs from the golden file; `heard` tells it in words.
        case differs(golden: String, changes: [TranscriptDiff.Change], heard: HeardDiff)
        /// No golden file yet.
        case missingGolden(String)
        /// An `expect` line did not hold.
        case expectFailed(Diagnostic)
        /// Output was still going when the run's virtual-time limit was reached.
        case cutShort
        /// An app case's app exited, never connected or did not go quiet in time
        /// (Docs/ci.md#apps): a sentence naming the app and the step, at the case file's line.
        case appFailed(Diagnostic)
    }

    /// A golden file `--update` wrote.
    public enum Written: Sendable, Hashable {
        case recorded(String)
        case updated(String, changedLines: Int)
    }

    public let name: String
    /// The scenario's path, or the problem's file.
    public let file: String
    /// The suite's catalog (`nil` for a problem found while looking for cases).
    public let catalog: String?
    public let profile: String?
    /// The language the case ran in (the catalog's own when the suite names none).
    public var language: String?
    public var golden: String?
    public var outcome: Outcome
    public var written: Written?
    /// Wall time the case took.
    public var milliseconds: Double = 0
    /// The transcript's lines, kept for the HTML report.
    public var transcript: [String]?
    /// The golden file's lines, kept for the HTML report of a failure.
    public var expected: [String]?

    public init(name: String, file: String, catalog: String?, profile: String?, outcome: Outcome) {
        self.name = name; self.file = file; self.catalog = catalog; self.profile = profile; self.outcome = outcome
    }

    public var passed: Bool { if case .passed = outcome { true } else { false } }
    public var isError: Bool { if case .error = outcome { true } else { false } }
}

extension CaseResult.Failure {
    /// One line: what is wrong and, for a missing golden, how to record it.
    public func summary(scenario: String) -> String {
        switch self {
        case .differs(let golden, _, let heard):
            "the transcript differs from \(golden): \(heard.counts)"
        case .missingGolden(let golden):
            "no golden file \(golden); record it with: tandem test --update \(scenario)"
        case .expectFailed(let d):
            "\(d)"
        case .cutShort:
            "output was still going after 24 h of virtual time; the run was cut short"
        case .appFailed(let d):
            "\(d)"
        }
    }

    /// The lines under the summary: the diff in words (`DiffStyle.words`), with braille cells
    /// (`.cells`), or the JSON lines `tandem check` prints (`.json`).
    public func details(_ style: DiffStyle = .words) -> String? {
        guard case .differs(_, let changes, let heard) = self else { return nil }
        switch style {
        case .words: return heard.render()
        case .cells: return heard.render(cells: true)
        case .json: return TranscriptDiff.render(changes)
        }
    }

    /// The scenario line a person should look at first: the failed `expect`, or the step that
    /// caused the first change.
    public var scenarioLine: Int? {
        switch self {
        case .expectFailed(let d), .appFailed(let d): d.line
        case .differs(_, _, let heard): heard.steps.first?.line
        case .missingGolden, .cutShort: nil
        }
    }
}

/// How a failed case's diff is shown (`tandem test --diff`).
public enum DiffStyle: String, Sendable, CaseIterable {
    /// What the user hears and feels, a sentence a change, grouped by scenario step.
    case words
    /// The same, with braille lines also as cells.
    case cells
    /// The transcript's JSON lines, as `tandem check` prints them.
    case json
}

/// A whole run: every result in plan order, the time it took.
public struct RunSummary: Sendable {
    public var results: [CaseResult]
    public var seconds: Double

    public init(results: [CaseResult], seconds: Double) {
        self.results = results; self.seconds = seconds
    }

    public var passed: Int { results.filter(\.passed).count }
    public var failed: Int { results.filter { if case .failed = $0.outcome { true } else { false } }.count }
    public var errors: Int { results.filter(\.isError).count }
    public var written: [CaseResult.Written] { results.compactMap(\.written) }

    /// `N passed, N failed in T s` (with `, N errors` when there are some).
    public var closingLine: String {
        var s = "\(passed) passed, \(failed) failed"
        if errors > 0 { s += ", \(errors) error\(errors == 1 ? "" : "s")" }
        return s + " in " + Self.seconds(seconds) + " s"
    }

    static func seconds(_ s: Double) -> String {
        let hundredths = Int((s * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }
}
