import TandemModel
import TandemNavigator
import TandemSession
import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemVocabulary

/// A headless run of a scenario on the virtual clock (Docs/formats.md#scenario, #transcript): byte-identical output for
/// the same input.
public struct Replay {
    public var catalog: Catalog
    public var scenario: Scenario
    public var profile: Profile
    public var profiles: ProfileStore
    public var makeTranslator: @Sendable (Profile) -> any BrailleTranslator
    /// Virtual time the run may take after its last line before it is cut short (a read-all of
    /// a huge screen, or a catalog whose loads chain forever).
    public var settleLimit: Milliseconds = 24 * 3_600_000
    /// Speaks and shows in this language whatever profile is in use, a scenario's own
    /// `profile` lines included (a suite run in several languages); `nil`: the profile's.
    public var language: String?

    public init(catalog: Catalog, scenario: Scenario, profile: Profile, profiles: ProfileStore,
                makeTranslator: @escaping @Sendable (Profile) -> any BrailleTranslator) {
        self.catalog = catalog; self.scenario = scenario; self.profile = profile
        self.profiles = profiles; self.makeTranslator = makeTranslator
    }

    /// What a run found besides its transcript.
    public struct Result: Sendable {
        /// `expect` lines that did not match, as diagnostics naming the scenario line.
        public var failures: [Diagnostic] = []
        /// The virtual time the run ended at.
        public var endTime: Milliseconds = 0
        /// The run hit `settleLimit` before all output was done.
        public var cutShort = false
    }

    /// Runs the scenario, writing records to `sink`. Throws only for a profile that cannot be
    /// loaded mid-run (names were checked when the scenario was parsed).
    public func run(sink: any OutputSink) throws(Diagnostic) -> Result {
        var result = Result()
        var (profile, startScreen, lines) = try scenario.setUp(profile: self.profile, profiles: profiles)
        if let language { profile.language = language }
        var core = SessionCore(session: Session(catalog: catalog, profile: profile, sink: sink, timing: .virtual,
                                                screen: startScreen, makeTranslator: makeTranslator),
                               instants: .sameTime)
        core.apply(.open(), at: 0)
        for line in lines {
            let t = core.now
            switch line.step {
            case .command(let c): core.apply(.command(c), at: t)
            case .wait(let ms): core.advance(to: t + ms)
            case .expect(let text): core.apply(.expect(file: scenario.file, line: line.number, text: text), at: t)
            case .expectAction(let name): core.apply(.expectAction(file: scenario.file, line: line.number, name: name), at: t)
            case .screen(let id): core.apply(.post(.screen(id)), at: t)
            case .profile(let name):
                var p = try profiles.load(name).0
                if let language { p.language = language }
                core.apply(.profile(p), at: t)
            case .post(let effect): core.apply(.post(effect), at: t)
            }
        }
        // At the end the run lets time pass until all output is done.
        result.cutShort = core.drain(limit: settleLimit)
        result.failures = core.failures
        result.endTime = core.now
        return result
    }
}
