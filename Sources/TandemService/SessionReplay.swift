import TandemModel
import TandemNavigator
import TandemSession
import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemVocabulary

/// `tandem replay --session FILE`: a recorded `tandem serve` session (`--record`) played again
/// headless, on the virtual clock — the same inputs at the same times give the same transcript,
/// byte for byte (Docs/protocol.md#record).
public struct SessionReplay {
    public var inputs: [(time: Int, input: RecordedInput)]
    public var file: String
    public var profiles: ProfileStore
    public var makeTranslator: @Sendable (Profile) -> any BrailleTranslator
    public var settleLimit: Milliseconds = 24 * 3_600_000

    public init(inputs: [(time: Int, input: RecordedInput)], file: String, profiles: ProfileStore,
                makeTranslator: @escaping @Sendable (Profile) -> any BrailleTranslator) {
        self.inputs = inputs; self.file = file; self.profiles = profiles; self.makeTranslator = makeTranslator
    }

    /// Plays the recording into `sink`. `loadCatalog` reads the `--catalog` the session had.
    public func run(sink: any OutputSink, loadCatalog: (String) throws(Diagnostic) -> Catalog) throws(Diagnostic) -> Replay.Result {
        guard case .start(let profileName, let catalogPath, let window, let notices)? = inputs.first?.input else {
            throw Diagnostic(file: file, line: 1, path: "", message: "a recording starts with its set-up ({\"t\":0,\"start\":{…}})")
        }
        let profile = try profiles.load(profileName).0
        let catalog = try catalogPath.map { (p) throws(Diagnostic) in try loadCatalog(p) }
        var options = Service.Options()
        if let window { options.userActionWindow = window }
        // With speech-dispatcher's notices recorded, speech is timed as the live session timed
        // it: by the notices while speech was connected, by estimates while it was not (the
        // recorded `output` lines say which). Without them (older recordings), estimates only.
        let (session, service) = Service.start(profile: profile, catalog: catalog, options: options, sink: sink,
                                               timing: notices ? .live : .virtual, makeTranslator: makeTranslator)
        var core = SessionCore(session: session, service: service, keyMap: profile.keyMap)
        // As the live runner did: the devices' reports taken before it opened come first.
        if !inputs.contains(where: { $0.input == .open }) { core.apply(.open(), at: 0) }
        var result = Replay.Result()
        for (time, recorded) in inputs.dropFirst() {
            if recorded == .stop {
                // The live session ended here: nothing after it is played.
                core.advance(to: time)
                result.endTime = core.now
                return result
            }
            if let input = SessionInput(recorded) { core.apply(input, at: time) }
            _ = core.takeOutbox()
        }
        result.cutShort = core.drain(limit: settleLimit)
        result.endTime = core.now
        return result
    }
}
