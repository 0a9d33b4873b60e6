import Foundation
import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPolicy

/// Input to a live session, from any thread.
public enum LiveInput: Sendable {
    case command(Command)
    case post(Effect)
    case output(LiveOutputEvent)
    /// A new catalog (a live reload); focus stays on the same element id when it still exists.
    case reload(Catalog)
    /// An edited catalog that failed to load; the last good one stays in use.
    case catalogError(String)
    case profile(Profile)
    /// A scenario's `expect` on line `line`: the last focus speech must contain `text`.
    case expect(file: String, line: Int, text: String)
    /// Stop once nothing is scheduled or said any more, or after `timeout` ms at the latest.
    case quitWhenQuiet(timeout: Milliseconds)
    case quit
    /// A client of `tandem serve` connected, sent a line (numbered from 1 on its connection),
    /// or left (Docs/protocol.md).
    case clientConnected(String)
    case clientLine(String, line: Int, bytes: [UInt8])
    case clientDisconnected(String)
}

/// What the runner's thread does while it waits for input, instead of sleeping: `tandem serve`
/// serves its control socket there (`HostedServer`), so a client's line is read on the thread
/// that acts on it rather than handed over from another.
public struct RunnerHost: Sendable {
    /// Waits at most the duration given (nil: until woken) and handles what comes meanwhile,
    /// passing input to `LiveRunner.send`. Called on the runner's thread.
    public var serve: @Sendable (Duration?) -> Void
    /// Does at once what the last batch asked (the replies written). On the runner's thread.
    public var flush: @Sendable () -> Void
    /// Ends a `serve` that is waiting; from any thread.
    public var wake: @Sendable () -> Void

    public init(serve: @escaping @Sendable (Duration?) -> Void, flush: @escaping @Sendable () -> Void, wake: @escaping @Sendable () -> Void) {
        self.serve = serve
        self.flush = flush
        self.wake = wake
    }
}

/// Runs a session on the real clock: one thread owns the session; inputs (keys, end-of-speech
/// notices, output status) arrive through `send(_:)` from any thread, and timers fire when due.
///
/// The same `Session` and `SpeechPolicy` as headless replays run here; only the clock and the
/// source of end-of-speech notices differ (`Session.SpeechTiming.external` while speech is
/// connected, `.virtual` estimates while it is not, so nothing waits for a daemon that is gone).
public final class LiveRunner: @unchecked Sendable {
    private let condition = NSCondition()
    private var inbox: [LiveInput] = []
    private var session: Session
    /// Time 0: when `run` began (read and set on the runner's thread only).
    private var start = ContinuousClock.now
    /// `start`, published under `condition` for threads that keep time with the run.
    private var publishedStart: ContinuousClock.Instant?
    private var keyMap: KeyMap
    private var quitBy: Milliseconds?
    private var failureList: [Diagnostic] = []
    /// Called on the runner thread after each batch of input is handled (tests, terminal view).
    public var afterEachBatch: (@Sendable (SessionSnapshot) -> Void)?
    /// How many times faster than real time the session's clock runs (1: real time). Tests set
    /// it before `run` to play long scenarios quickly against daemons that speak as fast.
    public var speed: Double = 1
    /// Texts of recent utterances by `Spoken.id`, for the transcript's `speechd` notices.
    private var recentSpeech: [Int: String] = [:]
    private var recentOrder: [Int] = []
    /// `tandem serve`: the service its clients talk to. Set before `run`.
    public var service: Service?
    /// Called on the runner thread after each batch with what the service has for its clients.
    public var deliver: (@Sendable ([ServiceOutbox.Item]) -> Void)?
    /// Called on the runner thread once a client's line is handled (the socket's backpressure).
    public var lineHandled: (@Sendable (String) -> Void)?
    /// Writes every input with its time (`--record`). Set before `run`.
    public var recorder: SessionRecorder?
    /// Where the runner's thread waits for input, when not on its own condition. Set before `run`.
    public var host: RunnerHost?
    /// The thread `run` runs on (under `condition`): its own input needs no wake-up.
    private var runnerThread: pthread_t?

    public init(session: Session, keyMap: KeyMap = .default) {
        self.session = session
        self.keyMap = keyMap
    }

    /// Milliseconds since the run began (times `speed`).
    public var now: Milliseconds {
        let d = ContinuousClock.now - start
        let ms = Int(d.components.seconds) * 1000 + Int(d.components.attoseconds / 1_000_000_000_000_000)
        return speed == 1 ? ms : Int(Double(ms) * speed)
    }

    /// Queues input for the runner thread. Safe from any thread.
    public func send(_ input: LiveInput) {
        condition.lock()
        inbox.append(input)
        condition.signal()
        let fromRunner = runnerThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        condition.unlock()
        if !fromRunner { host?.wake() }
    }

    /// Blocks until `run` has begun and returns its time 0, so that a thread feeding timed input
    /// (a scenario's `wait` lines) measures from the same origin as the session's clock.
    public func waitForStart() -> ContinuousClock.Instant {
        condition.lock()
        defer { condition.unlock() }
        while publishedStart == nil { condition.wait() }
        return publishedStart!
    }

    /// A reporter for live outputs: their events become runner input.
    public var reporter: @Sendable (LiveOutputEvent) -> Void {
        { [weak self] event in self?.send(.output(event)) }
    }

    /// Runs until `.quit`; returns the session's final state.
    @discardableResult
    public func run(startSpeaking: Bool = true, helpHint: Bool = false) -> SessionSnapshot {
        // Time 0 is the start of the run, not of the runner: between the two, outputs may be
        // forwarded and a thread started, and the opening frame must still be at time 0.
        start = ContinuousClock.now
        condition.lock()
        publishedStart = start
        runnerThread = pthread_self()
        condition.broadcast()
        condition.unlock()
        // Outputs started before the run have reported whether their daemons answer and how wide
        // the display is: take that first, so that the opening speech already waits for real
        // end-of-speech notices and the opening frame is cut to the display.
        takeOutputStatuses()
        if startSpeaking {
            if service != nil {
                recorder?.record(.open, at: now)
                service!.open(&session, at: now)
                if let service, let deliver { deliver(service.outbox.take()) }
                host?.flush()
            } else {
                session.start(at: now, helpHint: helpHint)
                session.settle()
            }
        }
        while true {
            condition.lock()
            while inbox.isEmpty {
                if let due = session.nextDeadline {
                    let wait = min(due, quitBy ?? due) - now
                    if wait <= 0 { break }
                    sleep(seconds: Double(wait) / 1000 / speed)
                    if now >= due { break }
                } else if let by = quitBy {
                    if by - now <= 0 || session.isQuiet { break }
                    sleep(seconds: Double(by - now) / 1000 / speed)
                } else {
                    sleep(seconds: nil)
                }
            }
            let batch = inbox
            inbox.removeAll()
            condition.unlock()

            var quit = false
            let t = now
            // What fell due while the runner was busy happens first, in time order, as a replay
            // of the recording plays it (it advances the clock before each input).
            session.advance(to: t)
            for input in batch {
                if case .quit = input {
                    recorder?.record(.stop, at: t)
                    quit = true
                    break
                }
                handle(input, at: t)
                rememberPlaying()
            }
            session.advance(to: now)
            rememberPlaying()
            service?.routeNotices(&session)
            if let service, let deliver { deliver(service.outbox.take()) }
            host?.flush()
            afterEachBatch?(snapshot)
            if let by = quitBy, session.isQuiet || now >= by { quit = true }
            if quit { return snapshot }
        }
    }

    /// Waits, `condition` locked, at most `seconds` (nil: until input comes): on the condition,
    /// or in the host, unlocked meanwhile so that input can come.
    private func sleep(seconds: Double?) {
        guard let host else {
            if let seconds { _ = condition.wait(until: Date(timeIntervalSinceNow: seconds)) } else { condition.wait() }
            return
        }
        condition.unlock()
        host.serve(seconds.map { .nanoseconds(Int64(($0 * 1e9).rounded(.up))) })
        condition.lock()
    }

    /// `expect` lines that failed (read after `run` returns).
    public var failures: [Diagnostic] { failureList }

    /// What a tester's view or a test needs to see of the session.
    public var snapshot: SessionSnapshot {
        SessionSnapshot(screen: session.navigator.screen.id, focus: session.navigator.focusedElement?.id,
                        lastFocusSpeech: session.lastFocusSpeech, time: session.now)
    }

    /// Handles the `.status` reports already queued (see `run`).
    private func takeOutputStatuses() {
        condition.lock()
        let isStatus: (LiveInput) -> Bool = {
            switch $0 {
            case .output(.status), .output(.displaySize): true
            default: false
            }
        }
        let statuses = inbox.filter(isStatus)
        inbox.removeAll(where: isStatus)
        condition.unlock()
        for s in statuses { handle(s, at: now) }
    }

    /// What speech-dispatcher reported, in the transcript: `{"ch":"event","type":"speechd",
    /// "notice":"begin|end|cancel","id":"12","text":"…"}` (the text when the runner saw it play).
    private func logNotice(_ event: LiveOutputEvent, at t: Milliseconds) {
        let notice: String, id: Int
        switch event {
        case .speechBegan(let i): (notice, id) = ("begin", i)
        case .speechEnded(let i): (notice, id) = ("end", i)
        case .speechCancelled(let i): (notice, id) = ("cancel", i)
        default: return
        }
        var fields: [SessionEvent.Field] = [.init("notice", notice), .init("id", String(id))]
        if let text = recentSpeech[id] { fields.append(.init("text", text)) }
        session.sink.emit(.event(SessionEvent("speechd", fields)), at: max(t, session.now))
    }

    /// Remembers the text of what the policy plays now, for `logNotice`.
    private func rememberPlaying() {
        guard let p = session.policy.playing, recentSpeech[p.id] == nil else { return }
        recentSpeech[p.id] = p.utterance.text
        recentOrder.append(p.id)
        if recentOrder.count > 64 { recentSpeech[recentOrder.removeFirst()] = nil }
    }

    private func handle(_ input: LiveInput, at t: Milliseconds) {
        switch input {
        case .command(let c):
            recorder?.record(.key(c), at: t)
            session.perform(c, at: t)
        case .clientConnected(let c):
            recorder?.record(.connect(client: c), at: t)
            service?.connected(c)
        case .clientLine(let c, let line, let bytes):
            recorder?.record(.line(client: c, number: line, bytes: bytes), at: t)
            service?.received(c, line: line, bytes: bytes, session: &session, at: t)
            lineHandled?(c)
        case .clientDisconnected(let c):
            recorder?.record(.disconnect(client: c), at: t)
            service?.disconnected(c, session: &session, at: t)
        case .post(let e):
            session.post(e, at: t)
        case .reload(let catalog):
            session.reload(catalog, at: t)
        case .catalogError(let message):
            session.reportCatalogError(message, at: t)
        case .profile(let p):
            session.setProfile(p)
        case .output(let event):
            switch event {
            case .speechEnded(let id):
                logNotice(event, at: t)
                session.speechEnded(id: id, whole: true, at: t)
            case .speechCancelled(let id):
                logNotice(event, at: t)
                session.speechEnded(id: id, at: t)
            case .speechBegan:
                logNotice(event, at: t)
            case .status(let status):
                recorder?.record(.output(status), at: t)
                session.reportOutput(status, at: t)
                // While speech is away, speech ends are estimated as in headless runs, so
                // nothing waits for a daemon that is gone.
                if status.output == .speech { session.timing = status.available ? .external : .virtual }
            case .brailleCommand(let name, let argument):
                if let c = keyMap.command(forBrailleCommand: name, argument: argument) {
                    recorder?.record(.key(c, display: true), at: t)
                    session.displayKeys = keyMap
                    session.perform(c, at: t)
                    session.displayKeys = nil
                }
            case .displaySize(let columns):
                recorder?.record(.displayWidth(columns), at: t)
                session.setDisplayWidth(columns)
            }
        case .expect(let file, let line, let text):
            if let failure = session.check(expect: text, file: file, line: line, at: t) { failureList.append(failure) }
        case .quitWhenQuiet(let timeout):
            quitBy = t + timeout
        case .quit:
            break
        }
        service?.routeNotices(&session)
        session.settle()
    }
}

/// A read-only view of a live session's state.
public struct SessionSnapshot: Sendable, Hashable {
    public var screen: String
    public var focus: String?
    public var lastFocusSpeech: String
    public var time: Milliseconds
}
