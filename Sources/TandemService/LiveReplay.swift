import TandemSession
import Foundation
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemVocabulary

/// `tandem replay … --speech ADDRESS --braille HOST`: the scenario played on the real clock
/// through real outputs (Docs/tandem.1). `wait MS` really waits; speech ends come from
/// speech-dispatcher; display keys drive the navigator too.
public struct LiveReplay {
    public var catalog: Catalog
    public var scenario: Scenario
    public var profile: Profile
    public var profiles: ProfileStore
    public var makeTranslator: @Sendable (Profile) -> any BrailleTranslator
    /// How long the run may go on after its last line for output to finish.
    public var drainTimeout: Int = 30_000
    /// How many times faster than real time the run goes (`WallClock.speed`): `wait` lines,
    /// timers and the transcript's clock alike. Tests use it with a daemon that speaks as fast.
    public var speed: Double = 1
    /// How long time 0 may wait for the outputs to settle their first connection (ms, real
    /// time): a daemon that neither answers nor refuses does not hold the run up longer.
    public var startTimeout: Int = 3_000

    public init(catalog: Catalog, scenario: Scenario, profile: Profile, profiles: ProfileStore,
                makeTranslator: @escaping @Sendable (Profile) -> any BrailleTranslator) {
        self.catalog = catalog; self.scenario = scenario; self.profile = profile
        self.profiles = profiles; self.makeTranslator = makeTranslator
    }

    /// Plays the scenario; `transcript` receives every record (real timestamps, ms since start),
    /// each live output receives them too. Returns the failed `expect` lines.
    ///
    /// Every profile the scenario names is loaded before anything starts, so that a broken one
    /// stops the run with nothing running. Time 0 comes once each output has settled its first
    /// connection (or after `startTimeout`), so the opening frame is not lost on a display
    /// that was still connecting.
    public func run(transcript: any OutputSink, outputs: [any LiveOutput]) throws(Diagnostic) -> [Diagnostic] {
        let (profile, startScreen, lines) = try scenario.setUp(profile: self.profile, profiles: profiles)
        var loaded: [String: Profile] = [:]
        for line in lines {
            if case .profile(let name) = line.step, loaded[name] == nil { loaded[name] = try profiles.load(name).0 }
        }

        let startup = OutputStartup(outputs)
        for o in outputs { o.start(report: startup.reporter) }
        startup.waitUntilSettled(timeout: startTimeout)

        // The outputs first: speech and braille never wait for a transcript line to be written.
        let sink = MultiplexSink(outputs.map { $0 as any OutputSink } + [transcript])
        let session = Session(catalog: catalog, profile: profile, sink: sink, timing: .virtual,
                              screen: startScreen, makeTranslator: makeTranslator)
        let runner = LiveRunner(session: session, clock: WallClock(speed: speed))
        startup.forward(to: runner)
        let done = runner.startThread()
        // `wait` lines are kept on the scenario's own clock: each ends at the sum of the waits
        // so far after the run's time 0 (the runner's, so both clocks agree however late its
        // thread started), so time spent sending lines does not add up over a long run.
        let began = runner.waitForStart()
        var waited = 0
        for line in lines {
            switch line.step {
            case .command(let c): runner.send(.command(c))
            case .wait(let ms):
                waited += ms
                let due = began + .milliseconds(Double(waited) / speed)
                let left = due - ContinuousClock.now
                if left > .zero { Thread.sleep(forTimeInterval: Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18) }
            case .expect(let text): runner.send(.expect(file: scenario.file, line: line.number, text: text))
            case .expectAction(let name): runner.send(.expectAction(file: scenario.file, line: line.number, name: name))
            case .screen(let id): runner.send(.post(.screen(id)))
            case .profile(let name): if let p = loaded[name] { runner.send(.profile(p)) }
            case .post(let e): runner.send(.post(e))
            }
        }
        runner.send(.quitWhenQuiet(timeout: drainTimeout))
        done.wait()
        for o in outputs { o.stop() }
        return runner.failures
    }
}
