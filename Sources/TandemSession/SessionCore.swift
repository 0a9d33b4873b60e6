import TandemModel
import TandemNavigator
import TandemPolicy
import TandemVocabulary

/// A session, the service its clients talk to (in `tandem serve`), and the one entry every
/// driver feeds: `apply(_:at:)`. The live runner, headless replays of scenarios and of
/// recordings, the serve host and the tests all go through it, so how an input is dispatched,
/// what the service is told after it and when an instant settles is decided here only.
///
/// **Instants.** An instant ends with the session settling — the policy starts what is due
/// and braille is written once with the last state. How inputs make instants is the core's
/// `instants`: live input (and a recording of it) is an instant per input; a scenario's lines
/// between two `wait`s are one instant (a fast typist's burst), settled when time moves on.
/// Time moving on (`apply` at a later time, `advance(to:)`) first fires whatever fell due
/// before it, in time order, each instant settled.
///
/// No clock and no I/O: the driver says what time it is, and sends what `takeOutbox()` gives.
public struct SessionCore {
    /// How inputs make instants.
    public enum Instants: Sendable {
        /// Each input is an instant of its own: live input, and recordings of it. Braille is
        /// then written at most once a millisecond (`Session.framePerMillisecond`), so a burst
        /// of inputs at one time translates and writes one frame, the newest.
        case eachInput
        /// Inputs at the same time are one instant: a scenario's lines between two `wait`s.
        case sameTime
    }

    public let instants: Instants
    public internal(set) var session: Session
    /// `tandem serve`'s apps and controllers; nil for a session without clients.
    public var service: Service?
    /// Maps a braille display's keys to commands (the profile's, or `tandem run`'s).
    public var keyMap: KeyMap
    /// Called with each input as a recording keeps it (`tandem serve --record`).
    public var record: ((RecordedInput, Milliseconds) -> Void)?
    /// `expect` lines that did not match, as diagnostics naming the scenario line.
    public private(set) var failures: [Diagnostic] = []
    /// A terminal key bound to `quit` was pressed: the live driver ends the run.
    public private(set) var quitRequested = false
    /// Texts of recent utterances by `Spoken.id`, for the transcript's `speechd` notices.
    private var recentSpeech = RecentSpeech()

    public init(session: Session, service: Service? = nil, keyMap: KeyMap = .default, instants: Instants = .eachInput) {
        self.instants = instants
        self.session = session
        self.session.framePerMillisecond = instants == .eachInput
        self.service = service
        self.keyMap = keyMap
    }

    /// The session's time (ms).
    public var now: Milliseconds { session.now }

    /// One input at `time` (never earlier than the session's time; an earlier time counts as
    /// now). What fell due before it happens first; the service hears what the user did to
    /// its app; the instant settles as `instants` says.
    public mutating func apply(_ input: SessionInput, at time: Milliseconds) {
        if time > session.now { advance(to: time) }
        let t = session.now
        if let press = press(for: input) {
            // A key is resolved in the session's state now (typing into a field or not), and
            // recorded as the command it gave, so a replay of the recording does the same.
            switch press {
            case .command(let c, let source):
                record?(.key(c, display: source == .braille), t)
                perform(c, from: source, at: t)
            case .quit:
                quitRequested = true
            case .ignored:
                break
            }
        } else {
            if let record, let kept = input.recorded(keyMap: keyMap) { record(kept, t) }
            dispatch(input, at: t)
        }
        service?.routeNotices(&session)
        if instants == .eachInput { session.settle() }
        recentSpeech.remember(session.policy.playing)
    }

    /// Lets time pass up to `time`: the instant settles, then timers (speech ends, loading
    /// steps, delayed announcements, flash messages) fire in order, each instant settled.
    public mutating func advance(to time: Milliseconds) {
        session.advance(to: time)
        service?.routeNotices(&session)
        recentSpeech.remember(session.policy.playing)
    }

    /// The end of a run: time passes until nothing is scheduled or said any more, but no
    /// further than `limit` ms on. True when it had to stop at the limit with output left.
    public mutating func drain(limit: Milliseconds) -> Bool {
        let end = session.now + limit
        advance(to: session.now)
        while !session.isQuiet, let due = session.nextDeadline {
            if due > end { return true }
            advance(to: due)
        }
        return false
    }

    /// What the service has for its clients since the last call, oldest first.
    public func takeOutbox() -> [ServiceOutbox.Item] { service?.outbox.take() ?? [] }

    private mutating func dispatch(_ input: SessionInput, at t: Milliseconds) {
        switch input {
        case .open(let helpHint):
            if service != nil {
                service!.open(&session, at: t)
            } else {
                session.start(at: t, helpHint: helpHint)
                session.settle()
            }
        case .command(let c, let fromDisplay):
            perform(c, from: fromDisplay ? .braille : nil, at: t)
        case .terminalKey:
            break  // resolved in `apply`
        case .post(let e):
            session.post(e, at: t)
        case .reload(let catalog):
            session.reload(catalog, at: t)
        case .catalogError(let message):
            session.reportCatalogError(message, at: t)
        case .profile(let p):
            session.setProfile(p)
        case .expect(let file, let line, let text):
            if let failure = session.check(expect: text, file: file, line: line, at: t) { failures.append(failure) }
        case .expectAction(let file, let line, let name):
            if let failure = session.check(expectAction: name, file: file, line: line, at: t) { failures.append(failure) }
        case .clientConnected(let c):
            service?.connected(c)
        case .clientLine(let c, let line, let bytes):
            service?.received(c, line: line, bytes: bytes, session: &session, at: t)
        case .clientDisconnected(let c):
            service?.disconnected(c, session: &session, at: t)
        case .output(let event):
            switch event {
            case .speechEnded(let id):
                logNotice("end", id, at: t)
                session.speechEnded(id: id, whole: true, at: t)
            case .speechCancelled(let id):
                logNotice("cancel", id, at: t)
                session.speechEnded(id: id, at: t)
            case .speechBegan(let id):
                logNotice("begin", id, at: t)
            case .status(let status):
                session.reportOutput(status, at: t)
            case .brailleCommand:
                break  // resolved in `apply`
            case .displaySize(let columns):
                session.setDisplayWidth(columns)
            }
        }
    }

    /// A user's command; `source` the keys it came from (a display key's help lists the
    /// display's keys).
    private mutating func perform(_ c: Command, from source: InputMethod?, at t: Milliseconds) {
        session.displayKeys = source == .braille ? keyMap : nil
        session.perform(c, from: source, at: t)
        session.displayKeys = nil
    }

    /// What a key does now.
    enum KeyPress {
        case command(Command, InputMethod)
        case quit
        /// Bound to nothing (or a chord that types no character).
        case ignored
    }

    /// What a terminal or display key does in the session's state now: while the user types
    /// into a text field, a printable terminal key types and Backspace deletes
    /// (`KeyMap.typingCommand`); a display's typed character or chord types whenever it
    /// comes; otherwise the key map's binding. nil for input that is not a key.
    mutating func press(for input: SessionInput) -> KeyPress? {
        switch input {
        case .terminalKey(let key):
            if session.editingField() != nil, let c = KeyMap.typingCommand(forTerminalKey: key) { return .command(c, .keyboard) }
            switch keyMap.terminalAction(key) {
            case .command(let c)?: return .command(c, .keyboard)
            case .quit?: return .quit
            case nil: return .ignored
            }
        case .output(.brailleCommand(let name, let argument)):
            switch (name.uppercased(), argument) {
            case ("PASSCHAR", let code?):
                guard let scalar = Unicode.Scalar(code), scalar.properties.generalCategory != .control else { return .ignored }
                return .command(.type(String(Character(scalar))), .braille)
            case ("PASSDOTS", let dots?):
                guard let c = session.typedCharacter(dots: dots) else { return .ignored }
                return .command(.type(String(c)), .braille)
            default:
                if session.editingField() != nil, let c = KeyMap.typingCommand(forBrailleCommand: name) { return .command(c, .braille) }
                return keyMap.command(forBrailleCommand: name, argument: argument).map { .command($0, .braille) } ?? .ignored
            }
        default:
            return nil
        }
    }

    /// What speech-dispatcher reported, in the transcript: `{"ch":"event","type":"speechd",
    /// "notice":"begin|end|cancel","id":"12","text":"…"}` (the text when it was seen playing).
    private func logNotice(_ notice: String, _ id: Int, at t: Milliseconds) {
        var fields: [SessionEvent.Field] = [.init("notice", notice), .init("id", String(id))]
        if let text = recentSpeech[id] { fields.append(.init("text", text)) }
        session.sink.emit(.event(SessionEvent("speechd", fields)), at: max(t, session.now))
    }
}

/// The texts of the last 64 utterances seen playing, by `Spoken.id`.
struct RecentSpeech {
    private var texts: [Int: String] = [:]
    private var order: [Int] = []

    subscript(id: Int) -> String? { texts[id] }

    mutating func remember(_ playing: Spoken?) {
        guard let p = playing, texts[p.id] == nil else { return }
        texts[p.id] = p.utterance.text
        order.append(p.id)
        if order.count > 64 { texts[order.removeFirst()] = nil }
    }
}
