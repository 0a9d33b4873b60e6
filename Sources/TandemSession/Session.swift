import TandemModel
import TandemNavigator
import TandemPolicy
import TandemPresentation
import TandemVocabulary

/// One user's session: the navigator, presentation, the speech policy and the braille display
/// wired together, writing every output to a sink.
///
/// A session has no clock of its own: each call says what time it is. A headless replay gives
/// it virtual time and lets it time speech itself (`SpeechTiming.virtual`: 60 ms a character,
/// Docs/formats.md#transcript); a live session gives it real time and the speech engine's
/// end-of-speech notices. Either way the driver calls `settle()` once a burst of input is
/// processed: that ends the instant.
public struct Session {
    public enum SpeechTiming: Sendable {
        /// The session schedules each utterance's end itself (headless).
        case virtual
        /// On the real clock: while the speech output is connected it reports ends through
        /// `speechEnded(id:at:)`; while it is not, ends are estimated as in headless runs, so
        /// nothing waits for a daemon that is gone (`speechEndsReported`).
        case live
    }

    public internal(set) var navigator: Navigator
    public internal(set) var profile: Profile
    public internal(set) var now: Milliseconds = 0
    /// The last focus speech presented (what a scenario's `expect` looks at).
    public internal(set) var lastFocusSpeech = ""
    public let sink: any OutputSink
    /// The terminal's key map, for the help key (set by `tandem run`); nil says the commands.
    public var helpKeys: KeyMap?
    /// Set while a display key is carried out: the help key then lists the display's keys.
    public var displayKeys: KeyMap?
    /// How the user drives the session when the profile does not say (`Profile.input`):
    /// `.touch` headless, `.keyboard` in `tandem run`. Hints name its keys.
    public var defaultInput: InputMethod = .touch {
        didSet { presenter.hintKeys = profile.keyMap.hintKeys(for: inputMethod) }
    }
    /// The text field the user is typing into with keys (its id): printable terminal keys type
    /// into it until Enter or Escape, or focus leaves it (`Session+Editing.swift`).
    public internal(set) var editing: String?

    var presenter: Presenter
    var policy: SpeechPolicy
    var display: BrailleDisplay
    /// How speech ends are timed; a live driver sets `.live`.
    public var timing: SpeechTiming
    let makeTranslator: @Sendable (Profile) -> any BrailleTranslator
    var timers = TimerQueue()
    /// Set while `postStatus` posts: its announcement is marked Tandem's own status.
    var postingStatus = false
    var lastSpoken: Utterance?
    var history = SpeechHistory()
    var readAll: ReadAll?
    var flashTimer = FlashTimer()
    /// The message shown stays until a key (help), whatever the message time.
    var flashStaysUntilKey = false
    var progressBraille = ProgressBraille()
    /// The width a braille display reported; it outlasts profile changes.
    var reportedWidth: Int?
    /// For the service: actions for the app and focus moves (`takeNotices`).
    var notices: [SessionNotice] = []
    /// The name of an app that just came to the front, said before its first focus speech.
    var appIntro: String?
    /// Whether each live output answers, as last reported.
    var outputAvailability: [OutputKind: Bool] = [:]
    /// The focused element's line as last shown (the rotor's entries aside): a value change
    /// puts the cursor where the new line differs from it.
    var focusLineText: String?
    /// Messages flashed while the display was away, shown when it is back (Docs/braille.md#rules).
    var missedMessages: [String] = []
    /// The message last flashed and how many times in a row (a repeat is counted on the display).
    var repeatedFlash: (text: String, count: Int, shown: String)?
    /// Braille is written at most once a millisecond (a live session, where each input is an
    /// instant, and a recording of it; `SessionCore` sets it for `.eachInput`): a frame due in
    /// a millisecond that already wrote one is held, untranslated, to the next, so of a burst
    /// only the newest state is translated and written (Docs/reliability.md#round-bound).
    var framePerMillisecond = false
    /// When the last braille frame was written.
    var lastFrameAt: Milliseconds?

    public init(catalog: Catalog, profile: Profile, sink: any OutputSink, timing: SpeechTiming,
                screen: String? = nil, makeTranslator: @escaping @Sendable (Profile) -> any BrailleTranslator) {
        let language = profile.language ?? catalog.language
        self.navigator = Navigator(catalog: catalog, language: language, screen: screen)
        self.profile = profile
        self.sink = sink
        self.timing = timing
        self.makeTranslator = makeTranslator
        self.presenter = Presenter(language: language, verbosity: profile.verbosity)
        self.presenter.hintKeys = profile.keyMap.hintKeys(for: profile.input ?? .touch)
        self.policy = SpeechPolicy(settings: profile.policySettings)
        self.display = BrailleDisplay(width: profile.brailleWidth, translator: Self.translator(for: profile, makeTranslator), language: language)
    }

    /// The display's translator for `profile`: none when it has braille off, so nothing is
    /// ever translated (Docs/braille.md#long-lines).
    static func translator(for profile: Profile, _ make: (Profile) -> any BrailleTranslator) -> (any BrailleTranslator)? {
        profile.braille ? make(profile) : nil
    }

    /// The utterances spoken so far, oldest first (at most `SpeechHistory.limit`).
    public var spokenHistory: [Utterance] { history.entries }

    // MARK: input

    /// Speaks and shows where the user is (as after `screenChanged`); with `helpHint`, how to
    /// get help follows as the hint (after the pause; dropped when the user presses a key).
    public mutating func start(at time: Milliseconds, helpHint: Bool = false) {
        now = max(now, time)
        // Opening the app is the user's own action: an announcement waits for this speech.
        // With a display the hint names its help key too, and is shown after the first line.
        let hint = profile.braille ? presenter.phrases.helpHintBraille : presenter.phrases.helpHint
        handle(navigator.start(), user: true, extraHint: helpHint ? hint : nil)
    }

    /// A command from the user (a key, a braille key, a scenario line, a controller), carried
    /// out by the part `Command.table` names. `source`: the keys it came from (a terminal key,
    /// a display key); nil for a scenario line or a controller, which the session takes as
    /// `inputMethod` says. Hints after it name that source's keys; with keys, activating a text
    /// field starts typing into it (`Session+Editing.swift`).
    public mutating func perform(_ command: Command, from source: InputMethod? = nil, at time: Milliseconds) {
        now = max(now, time)
        emit(.event(SessionEvent("key", [.init("command", loggedName(of: command))])))
        if coversUnseenFocus, command != .panLeft, command != .panRight, command != .stop {
            // Focus moved while a message showed: the key that ends the message only shows the
            // new focus line, so no element is acted on (or passed over) unread.
            display.dismissFlash()
            return
        }
        let input = source ?? inputMethod
        if input != inputMethod { presenter.hintKeys = profile.keyMap.hintKeys(for: input) }
        defer { if input != inputMethod { presenter.hintKeys = profile.keyMap.hintKeys(for: inputMethod) } }
        if input != .touch, endsEditing(command) { return }
        switch command.info.handler {
        case .navigator:
            beginKey()
            let field = input == .touch ? nil : editableFocus
            var events = navigator.perform(command)
            // A text field with nothing of its own to do on activation starts editing, which
            // is what activating it means: no "No action" before "Editing".
            if field != nil, command == .activate { events.removeAll { if case .unhandled(.activate) = $0 { true } else { false } } }
            handle(events, user: true)
            if let field { startEditing(field, after: command) }
        case .output:
            performOutputCommand(command)
        case .tester:
            let reading = readAll
            beginKey()
            // With no speech, the display's rate keys set read-all's pace without ending it.
            if !profile.speech, command == .rateUp || command == .rateDown { readAll = reading }
            performTesterCommand(command)
        }
    }

    /// A message kept until a key (`messageTime` 0) hides a focus line that has not been shown
    /// yet (focus moved under it, or in the same instant): a key is the only way to see it. A
    /// timed message shows the focus line by itself when it ends.
    var coversUnseenFocus: Bool { profile.braille && profile.messageTime == 0 && display.isFlashing && !display.focusSeen }

    /// What every key but panning does first: a flash message goes at once, read-all ends,
    /// and the policy cuts the speech the key makes stale.
    mutating func beginKey() {
        display.dismissFlash()
        readAll = nil
        apply(policy.userPressedKey(at: now))
    }

    /// An app notification or effect from outside the user (a scenario's `post`).
    /// `user`: the user's own action caused it (an app moving focus in answer to an action).
    public mutating func post(_ effect: Effect, user: Bool = false, at time: Milliseconds) {
        now = max(now, time)
        handle(navigator.post(effect), user: user)
    }

    /// The utterances waiting in the speech policy (the backlog `tandem-bench hostile` measures).
    public var speechQueue: [Spoken] { policy.queue }

    /// Tandem's own status ("Bank closed"), said and flashed as an announcement, but a newer
    /// status takes its place while it waits and a key cancels it (Docs/policy.md#rules).
    public mutating func postStatus(_ text: String, at time: Milliseconds) {
        postingStatus = true
        defer { postingStatus = false }
        post(.announcement(text: text, priority: .default, delay: 0), at: time)
    }

    /// Switches profile: verbosity, policy settings, braille tables, language, voice. A width
    /// the display reported stays; speech is told when the voice changes.
    public mutating func setProfile(_ p: Profile) {
        let voiceChanged = p.voiceSettings != profile.voiceSettings
        profile = p
        let language = p.language ?? navigator.catalog.language
        navigator.setLanguage(language)
        presenter = Presenter(language: language, verbosity: p.verbosity)
        presenter.hintKeys = p.keyMap.hintKeys(for: inputMethod)
        policy.settings = p.policySettings
        display = BrailleDisplay(width: reportedWidth ?? p.brailleWidth, translator: Self.translator(for: p, makeTranslator), language: language)
        if voiceChanged { emit(.speechSettings(p.speechSettings)) }
        if let f = navigator.focusIndex {
            display.showFocus(presenter.braille(for: f, in: navigator))
        }
    }

    /// The speech engine finished (or lost) utterance `id`; `whole`: speech-dispatcher said it
    /// was spoken to its end (`SpeechPolicy.speechFinished`).
    public mutating func speechEnded(id: Int, whole: Bool = false, at time: Milliseconds) {
        now = max(now, time)
        apply(whole ? policy.speechFinished(id: id, at: now) : policy.speechEnded(id: id, at: now))
        guard readAll?.ended(id) == true else { return }
        if let events = navigator.advanceForReadAll() {
            handle(events, user: false)
        } else {
            readAll = nil
        }
    }

    /// Ends the instant: the policy starts what is due now, and braille is written once with
    /// the last state, so a burst of changes never writes more frames than a display can show.
    /// Call once a burst of input is processed.
    public mutating func settle() {
        apply(policy.startDue(at: now))
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
            if flashTimer.isCurrent(token) { display.dismissFlash() }
        case .busyTick:
            // An indeterminate indicator still focused: a sound, not speech, every interval.
            if let e = navigator.focusedElement, let p = e.progress, p.value == nil, profile.progressFeedback != .off {
                emit(.sound(.progress))
                timers.add(.busyTick, at: now + max(250, profile.progressInterval))
            }
        case .readAllStep:
            guard readAll != nil else { break }
            advanceReadAll()
        case .progressBraille:
            if let line = progressBraille.due(at: now) { display.updateFocus(line) }
        case .heldFrame:
            break  // the settle that follows writes the newest frame
        }
    }
}

extension Session {
    /// A command as the transcript logs it: what is typed into a secure field is written as
    /// one bullet a character (a tester's password is in no transcript).
    func loggedName(of command: Command) -> String {
        guard let text = command.text, let traits = navigator.focusedElement?.traits else { return command.name }
        return command.info.name + " " + traits.disclosed(text)
    }
}
