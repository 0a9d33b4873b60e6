import TandemModel

/// A catalog with the scenarios that belong to it, and the folder's `suite.json`.
public struct Suite: Sendable, Hashable {
    /// The catalog's path, as shown.
    public let catalog: String
    /// Its scenarios' paths, sorted.
    public let scenarios: [String]
    public let manifest: SuiteManifest
    /// The `suite.json` that gave `manifest`, if any.
    public let manifestPath: String?
}

/// Something found under the paths that could not become cases (a scenario with no catalog, a
/// broken `suite.json`): reported like a case that did not run, under `name`.
public struct SuiteProblem: Sendable, Hashable {
    /// The file's path, as shown; the shard and the filter look at it as at a case's name.
    public let name: String
    public let diagnostic: Diagnostic
}

/// What a run will do: the suites found, their cases in order, and the problems met.
public struct TestPlan: Sendable {
    public var suites: [Suite] = []
    public var cases: [TestCase] = []
    public var problems: [SuiteProblem] = []
    /// Unknown fields in `suite.json` files.
    public var warnings: [Diagnostic] = []
    /// Folders left out of a search because they are checkouts of their own (a submodule).
    public var skippedCheckouts: [String] = []
    /// Changed paths (`SuiteFinder.plan(changed:)`) that were deleted, or are no suite's file.
    public var ignoredChanges: [IgnoredChange] = []

    public init() {}

    /// The cases and problems whose names pass `keep` (a filter, a shard).
    public func keeping(_ keep: (String) -> Bool) -> TestPlan {
        var p = self
        p.cases = cases.filter { keep($0.name) }
        p.problems = problems.filter { keep($0.name) }
        return p
    }
}

/// A path of a change list that selects no case, and why.
public struct IgnoredChange: Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// The file is gone (a deleted scenario, catalog or suite.json).
        case deleted
        /// Not a catalog, scenario, golden file or suite.json.
        case notSuiteFile
        /// A golden file with no scenario beside it that it could belong to.
        case strayGolden
    }
    public let path: String
    public let reason: Reason
}
