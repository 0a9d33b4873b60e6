import TandemService

/// One case of a suite: a scenario, run in one profile and one language, compared with its
/// golden transcript — or a recorded `tandem serve` session (`NAME.session.record`), replayed
/// as it was recorded and compared with `NAME.session.golden.jsonl` (Docs/ci.md#recordings).
public struct TestCase: Sendable, Hashable {
    /// Index of the suite in `TestPlan.suites`.
    public let suite: Int
    /// The scenario's path, as shown (`SuitePath.display`).
    public let scenario: String
    public let profile: String
    /// `nil`: the catalog's own language (the suite lists none).
    public let language: String?
    /// Stable across machines (the shard hash is taken of it): the scenario's path, then the
    /// profile and language when the suite names them — `Examples/pizza/pizza.scenario [default, ru]`.
    public let name: String
    /// A recorded session: `scenario` is the recording's path, `suite` is -1 (it has no
    /// catalog of its own to load), and it plays in the profile it was recorded in.
    public let isRecording: Bool
    /// An app case (`NAME.app.json`, Docs/ci.md#apps): `scenario` is the case file's path,
    /// `suite` is -1; the app is started and driven against a private service.
    public let isApp: Bool

    public init(suite: Int, scenario: String, profile: String, language: String?) {
        self.suite = suite; self.scenario = scenario; self.profile = profile; self.language = language
        isRecording = false
        isApp = false
        var parts: [String] = []
        if profile != "default" || language != nil { parts.append(profile) }
        if let language { parts.append(language) }
        name = parts.isEmpty ? scenario : "\(scenario) [\(parts.joined(separator: ", "))]"
    }

    /// A recorded session kept as a test; its name is its path.
    public init(recording path: String) {
        suite = -1; scenario = path; profile = "recorded"; language = nil; name = path
        isRecording = true
        isApp = false
    }

    /// An app case; its name is its path.
    public init(app path: String) {
        suite = -1; scenario = path; profile = "app"; language = nil; name = path
        isRecording = false
        isApp = true
    }

    /// Where the case's golden transcript is: beside the scenario,
    /// `NAME[.PROFILE][.LANGUAGE].golden.jsonl` — the profile part left out for `default`, the
    /// language part for the catalog's own language.
    public func goldenPath(catalogLanguage: String) -> String {
        if isRecording { return SessionReplay.goldenPath(forRecording: scenario) }
        if isApp { return AppCase.goldenPath(forCase: scenario) }
        return GoldenName.path(scenario: scenario, profile: profile, language: language, catalogLanguage: catalogLanguage)
    }
}

/// The naming convention of golden transcripts.
public enum GoldenName {
    public static let suffix = ".golden.jsonl"

    public static func path(scenario: String, profile: String, language: String?, catalogLanguage: String) -> String {
        var stem = scenario.hasSuffix(".scenario") ? String(scenario.dropLast(".scenario".count)) : scenario
        if profile != "default" { stem += "." + profile }
        if let language, language.lowercased() != catalogLanguage.lowercased() { stem += "." + language }
        return stem + suffix
    }
}
