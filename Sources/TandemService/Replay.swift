import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPolicy
import TandemPresentation

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
        var session = Session(catalog: catalog, profile: profile, sink: sink, timing: .virtual,
                              screen: startScreen, makeTranslator: makeTranslator)
        session.start(at: 0)
        session.settle()
        for line in lines {
            switch line.step {
            case .command(let c):
                session.perform(c, at: session.now)
            case .wait(let ms):
                session.advance(to: session.now + ms)
            case .expect(let text):
                if let failure = session.check(expect: text, file: scenario.file, line: line.number, at: session.now) {
                    result.failures.append(failure)
                }
            case .screen(let id):
                session.post(.screen(id), at: session.now)
            case .profile(let name):
                var p = try profiles.load(name).0
                if let language { p.language = language }
                session.setProfile(p)
            case .post(let effect):
                session.post(effect, at: session.now)
            }
        }
        // At the end the run lets time pass until all output is done.
        let limit = session.now + settleLimit
        session.settle()
        while !session.isQuiet, let due = session.nextDeadline {
            if due > limit { result.cutShort = true; break }
            session.advance(to: due)
        }
        result.endTime = session.now
        return result
    }
}
