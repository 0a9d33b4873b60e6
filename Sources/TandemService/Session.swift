import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPolicy
import TandemPresentation

/// One user's session: the navigator, presentation, the speech policy and the braille display
/// wired together, writing every output to a sink.
///
/// A session has no clock of its own: each call says what time it is. A headless replay gives
/// it virtual time and lets it time speech itself (`SpeechTiming.virtual`: SPEC §3's 60 ms a
/// character); a live session gives it real time and the speech engine's end-of-speech notices.
/// Either way the driver calls `settle()` once a burst of input is processed.
public struct Session {
    public enum SpeechTiming: Sendable {
        /// The session schedules each utterance's end itself (headless).
        case virtual
        /// Whatever plays speech reports ends through `speechEnded(id:at:)`.
        case external
    }

    public internal(set) var navigator: Navigator
    public internal(set) var profile: Profile
    public internal(set) var now: Milliseconds = 0
    /// The last focus speech presented (what a scenario's `expect` looks at).
    public internal(set) var lastFocusSpeech = ""
    public let sink: any OutputSink

    var presenter: Presenter
    var policy: SpeechPolicy
    var display: BrailleDisplay
    var timing: SpeechTiming
    let makeTranslator: @Sendable (Profile) -> any BrailleTranslator
    var timers = TimerQueue()
    var lastSpoken: Utterance?
    var readAll: ReadAllState?
    var flashToken = 0
    /// What was spoken, oldest first (reviewed with history-previous / history-next).
    public internal(set) var history: [Utterance] = []
    var historyIndex: Int?
    var appendHelpHint = false
    /// What the help key says (the front end's key map); nil: the command table.
    public var help: String?
    static let historyLimit = 500
    var lastProgressBraille: Milliseconds?
    var pendingProgressLine: BrailleText?

    struct ReadAllState { var speakingID: Int? }

    public init(catalog: Catalog, profile: Profile, sink: any OutputSink, timing: SpeechTiming,
                screen: String? = nil, makeTranslator: @escaping @Sendable (Profile) -> any BrailleTranslator) {
        let language = profile.language ?? catalog.language
        self.navigator = Navigator(catalog: catalog, language: language, screen: screen)
        self.profile = profile
        self.sink = sink
        self.timing = timing
        self.makeTranslator = makeTranslator
        self.presenter = Presenter(language: language, verbosity: profile.verbosity)
        self.policy = SpeechPolicy(settings: profile.policySettings)
        self.display = BrailleDisplay(width: profile.brailleWidth, translator: makeTranslator(profile), language: language)
    }

    // MARK: input

    /// Speaks and shows where the user is (as after `screenChanged`); with `helpHint`, how to
    /// get help follows as the hint (after the pause; dropped when the user presses a key).
    public mutating func start(at time: Milliseconds, helpHint: Bool = false) {
        now = max(now, time)
        appendHelpHint = helpHint
        // Opening the app is the user's own action: an announcement waits for this speech.
        handle(navigator.start(), user: true)
        appendHelpHint = false
    }

    /// A command from the user (a key, a braille key, a scenario line).
    public mutating func perform(_ command: Command, at time: Milliseconds) {
        now = max(now, time)
        emit(.event(SessionEvent("key", [.init("command", command.name)])))
        if command == .panLeft || command == .panRight {
            pan(forward: command == .panRight)
            return
        }
        // Any other key dismisses a flash message at once, then acts.
        display.dismissFlash()
        readAll = nil
        if command == .stop {
            apply(policy.stop(at: now))
            return
        }
        apply(policy.userPressedKey(at: now))
        switch command {
        case .repeat:
            if let u = lastSpoken { submit(Utterance(text: u.text, language: u.language, source: .value, spell: u.spell), user: true) }
        case .spell:
            if let f = navigator.focusIndex {
                submit(Utterance(text: presenter.label(for: f, in: navigator), language: navigator.language, source: .value, spell: true), user: true)
            }
        case .readAll:
            guard let f = navigator.focusIndex else { break }
            readAll = ReadAllState()
            let text = presenter.speech(for: f, in: navigator)
            lastFocusSpeech = text
            submit(Utterance(text: text, language: navigator.language, source: .focus), user: true)
        case .historyPrevious, .historyNext, .mark, .help, .rateUp, .rateDown, .punctuation, .verbosity:
            performSessionCommand(command)
        case .route(let cell):
            guard let frame = display.frame(), cell < frame.cells.count else {
                emit(.sound(.boundary))
                break
            }
            handle(navigator.perform(.activate), user: true)
        default:
            handle(navigator.perform(command), user: true)
        }
    }

    /// An app notification or effect from outside the user (a scenario's `post`).
    public mutating func post(_ effect: Effect, at time: Milliseconds) {
        now = max(now, time)
        handle(navigator.post(effect), user: false)
    }

    /// Switches profile: verbosity, policy settings, display width, braille tables, language.
    public mutating func setProfile(_ p: Profile) {
        profile = p
        let language = p.language ?? navigator.catalog.language
        navigator.setLanguage(language)
        presenter = Presenter(language: language, verbosity: p.verbosity)
        policy.settings = p.policySettings
        display = BrailleDisplay(width: p.brailleWidth, translator: makeTranslator(p), language: language)
        if let f = navigator.focusIndex {
            display.showFocus(presenter.braille(for: f, in: navigator))
        }
    }

    /// The speech engine finished (or lost) utterance `id`.
    public mutating func speechEnded(id: Int, at time: Milliseconds) {
        now = max(now, time)
        apply(policy.speechEnded(id: id, at: now))
        guard readAll?.speakingID == id else { return }
        if let events = navigator.advanceForReadAll() {
            readAll?.speakingID = nil
            handle(events, user: false)
        } else {
            readAll = nil
        }
    }

    /// Starts whatever is due now. Call once a burst of input is processed.
    /// Braille is written here too, once per instant: the last state wins, and a burst of
    /// changes never writes more frames than the display can show.
    public mutating func settle() {
        apply(policy.settle(at: now))
        flushBraille()
    }

    // MARK: time

    /// When the session next needs `advance(to:)` with no other input.
    public var nextDeadline: Milliseconds? {
        let policyDue = (policy.playing == nil && policy.queue.isEmpty) ? policy.nextDeadline : nil
        switch (timers.nextDue, policyDue) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b): return b
        }
    }

    /// Nothing scheduled and nothing to say (a periodic busy sound does not count: it would
    /// go on for as long as an indeterminate indicator stays focused).
    public var isQuiet: Bool { timers.onlyPeriodic && policy.isIdle }

    /// Lets time pass up to `target`, firing timers (speech ends, loading steps, delayed
    /// announcements, flash messages) in order and settling after each instant.
    public mutating func advance(to target: Milliseconds) {
        settle()
        while let due = nextDeadline, due <= target {
            now = max(now, due)
            while let kind = timers.popDue(at: now) { fire(kind) }
            settle()
        }
        now = max(now, target)
        settle()
    }

    mutating func fire(_ kind: TimerQueue.Kind) {
        switch kind {
        case .speechEnd(let id):
            speechEnded(id: id, at: now)
        case .navigator(let t):
            handle(navigator.fire(t), user: false)
        case .flashEnd(let token):
            if token == flashToken { display.dismissFlash() }
        case .busyTick:
            // An indeterminate indicator still focused: a sound, not speech, every interval.
            if let e = navigator.focusedElement, let p = e.progress, p.value == nil, profile.progressFeedback != .off {
                emit(.sound(.progress))
                timers.add(.busyTick, at: now + max(250, profile.progressInterval))
            }
        case .progressBraille:
            if let p = pendingProgressLine {
                pendingProgressLine = nil
                lastProgressBraille = now
                display.updateFocus(p)
            }
        }
    }
}
