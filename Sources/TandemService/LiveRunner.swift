import Foundation
import Synchronization
import TandemModel
import TandemNavigator
import TandemSession
import TandemOutputs
import TandemPolicy
import TandemVocabulary

/// Input to a live session, from any thread: what the session takes (`SessionInput`), or
/// the runner's own ending.
public enum LiveInput: Sendable {
    case session(SessionInput)
    /// Stop once nothing is scheduled or said any more, or after `timeout` ms at the latest.
    case quitWhenQuiet(timeout: Milliseconds)
    case quit
    /// A barrier: `done` is called on the runner thread with the session's state once everything
    /// sent before it is applied (Docs/reliability.md#fair-rounds), at the end of that round, its
    /// replies delivered and the host flushed (which reads what the clients have sent meanwhile
    /// into the inbox). `tandem test`'s app cases wait on it.
    case mark(@Sendable (SessionSnapshot) -> Void)
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

/// Runs a session on a clock that passes by itself (the wall clock, `WallClock`; or one a
/// test moves, `RunnerClock`): one thread owns the session; inputs (keys, end-of-speech
/// notices, output status) arrive through `send(_:)` from any thread, and timers fire when due.
///
/// The same `SessionCore` as headless replays runs here; only the clock and the source of
/// end-of-speech notices differ (`Session.SpeechTiming.live`: speech-dispatcher's notices
/// while it is connected, estimates while it is not, so nothing waits for a daemon that is
/// gone). Each input is an instant of its own (`SessionCore.Instants.eachInput`). What is
/// pending is taken in a fair order (`FairInbox`: keys first, clients in turn, barriers in
/// place), a round at one time, so no client holds up a key or another client for more than
/// about one of its lines (Docs/reliability.md#fair-rounds).
public final class LiveRunner: @unchecked Sendable {  // inbox and published start under `condition`; `core`, `start` and `quitBy` are the runner thread's alone
    /// What the runner calls besides the session; set before `run` (it reads them once, at its start).
    public struct Hooks: Sendable {
        /// Called on the runner thread after each round of input is handled (tests, terminal view).
        public var afterEachBatch: (@Sendable (SessionSnapshot) -> Void)?
        /// Called on the runner thread after each round (and within one, before each read of the
        /// host's clients) with what the service has for its clients.
        public var deliver: (@Sendable ([ServiceOutbox.Item]) -> Void)?
        /// Called on the runner thread once a client's line is handled (the socket's backpressure).
        public var lineHandled: (@Sendable (ClientID) -> Void)?
        /// Writes every input with its time (`--record`).
        public var recorder: SessionRecorder?
        /// Where the runner's thread waits for input, when not on its own condition.
        public var host: RunnerHost?

        public init() {}
    }

    private let condition = NSCondition()
    private var inbox: [LiveInput] = []
    /// What the runner has taken from `inbox` and not yet applied, in its fair order (the runner thread's).
    private var pending = FairInbox()
    private var core: SessionCore
    /// The session's time, in ms since the run began: `clock` less `start`.
    public let clock: any RunnerClock
    /// Time 0 on `clock`: when `run` began (set on the runner's thread before anything reads it).
    private var start: Milliseconds = 0
    /// `start` on the wall clock, published under `condition` for threads that keep time with the run.
    private var publishedStart: ContinuousClock.Instant?
    private var quitBy: Milliseconds?
    private let hookState = Mutex(Hooks())
    /// The hooks as `run` read them at its start (the runner thread's).
    private var running = Hooks()
    /// The thread `run` runs on (under `condition`): its own input needs no wake-up.
    private var runnerThread: pthread_t?

    public init(session: Session, keyMap: KeyMap = .default, clock: any RunnerClock = WallClock()) {
        var session = session
        session.timing = .live
        self.core = SessionCore(session: session, keyMap: keyMap)
        self.clock = clock
        clock.onMove { [weak self] in self?.wake() }
    }

    /// What the runner calls besides the session (set before `run`).
    public var hooks: Hooks {
        get { hookState.withLock { $0 } }
        set { hookState.withLock { $0 = newValue } }
    }

    /// `tandem serve`: the service its clients talk to. Set before `run`.
    public var service: Service? {
        get { core.service }
        set { core.service = newValue }
    }

    /// Milliseconds since the run began, on `clock`.
    public var now: Milliseconds { clock.now() - start }

    /// Queues what the session takes for the runner thread. Safe from any thread.
    public func send(_ input: SessionInput) { send(.session(input)) }

    /// Queues input for the runner thread. Safe from any thread.
    public func send(_ input: LiveInput) {
        condition.lock()
        inbox.append(input)
        condition.signal()
        let fromRunner = runnerThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        condition.unlock()
        if !fromRunner { hookState.withLock { $0.host }?.wake() }
    }

    /// Ends the runner thread's wait so it looks at the clock again (the clock was moved).
    private func wake() {
        condition.lock()
        condition.signal()
        condition.unlock()
        hookState.withLock { $0.host }?.wake()
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
        running = hooks
        start = clock.now()
        condition.lock()
        publishedStart = ContinuousClock.now
        runnerThread = pthread_self()
        condition.broadcast()
        condition.unlock()
        if let recorder = running.recorder { core.record = { recorder.record($0, at: $1) } }
        // Outputs started before the run have reported whether their daemons answer and how wide
        // the display is: take that first, so that the opening speech already waits for real
        // end-of-speech notices and the opening frame is cut to the display.
        takeOutputStatuses()
        if startSpeaking {
            core.apply(.open(helpHint: helpHint), at: 0)
            running.deliver?(core.takeOutbox())
            running.host?.flush()
        }
        while true {
            condition.lock()
            while inbox.isEmpty && pending.isEmpty {
                if let due = core.session.nextDeadline {
                    let wait = min(due, quitBy ?? due) - now
                    if wait <= 0 { break }
                    sleep(milliseconds: wait)
                    if now >= due { break }
                } else if let by = quitBy {
                    if by - now <= 0 || core.session.isQuiet { break }
                    sleep(milliseconds: by - now)
                } else {
                    sleep(milliseconds: nil)
                }
            }
            takeInbox()
            condition.unlock()

            // A round: what is pending now, taken in the fair order (`FairInbox`), each input an
            // instant of its own at the round's time. What comes meanwhile — a key from another
            // thread, a line the host reads between lines — joins the order and may go first; it
            // is applied in this round, at its time, if its turn comes before the round's last.
            // What fell due while the runner was busy happens first, in time order, as a replay
            // of the recording plays it.
            let t = now
            let roundEnd = pending.mark
            var left = pending.count
            var quit = false
            var marks: [@Sendable (SessionSnapshot) -> Void] = []
            var hostRound = ContinuousClock.now
            while true {
                while let barrier = pending.readyBarrier() {
                    switch barrier {
                    case .quit:
                        core.record?(.stop, t)
                        quit = true
                    case .quitWhenQuiet(let timeout):
                        quitBy = t + timeout
                    case .mark(let done):
                        marks.append(done)
                    }
                    if quit { break }
                }
                if quit || left == 0 { break }
                guard let (number, input) = pending.next() else { break }
                if number < roundEnd { left -= 1 }
                core.apply(input, at: t)
                if case .clientLine(let c, _, _) = input { running.lineHandled?(c) }
                // A terminal key bound to quit (the session resolved it: while typing, q types).
                if core.quitRequested {
                    core.record?(.stop, t)
                    quit = true
                    break
                }
                // Between two inputs: what other threads sent meanwhile, and, once the round has
                // worked `hostRoundEvery`, what the clients sent (a server round that does not wait).
                condition.lock()
                takeInbox()
                condition.unlock()
                if let host = running.host, left > 0, ContinuousClock.now - hostRound >= Self.hostRoundEvery {
                    running.deliver?(core.takeOutbox())
                    host.flush()
                    hostRound = ContinuousClock.now
                    condition.lock()
                    takeInbox()
                    condition.unlock()
                }
            }
            // Once stopped, time moves no further than the recording's `stop` (`t`): a replay
            // of the recording ends there too.
            if !quit { core.advance(to: now) }
            running.deliver?(core.takeOutbox())
            running.host?.flush()
            running.afterEachBatch?(snapshot)
            if !marks.isEmpty {
                let state = snapshot
                for done in marks { done(state) }
            }
            if let by = quitBy, core.session.isQuiet || now >= by { quit = true }
            if quit { return snapshot }
        }
    }

    /// How much of a round's work the runner does between two reads of its host's clients
    /// (Docs/reliability.md#fair-rounds): a client's line that comes while another client's
    /// round is applied waits for at most about this and one line.
    static let hostRoundEvery: Duration = .milliseconds(1)

    /// Moves what the inbox holds into `pending`, `condition` locked.
    private func takeInbox() {
        guard !inbox.isEmpty else { return }
        for input in inbox { pending.add(input) }
        inbox.removeAll(keepingCapacity: true)
    }

    /// Waits, `condition` locked, at most `ms` of the clock's time (nil: until input comes): on
    /// the condition, or in the host, unlocked meanwhile so that input can come. A clock moved
    /// by hand ends the wait only when it is moved.
    private func sleep(milliseconds ms: Milliseconds?) {
        let seconds = ms.flatMap { clock.realSeconds(for: $0) }
        guard let host = running.host else {
            if let seconds { _ = condition.wait(until: Date(timeIntervalSinceNow: seconds)) } else { condition.wait() }
            return
        }
        condition.unlock()
        host.serve(seconds.map { .nanoseconds(Int64(($0 * 1e9).rounded(.up))) })
        condition.lock()
    }

    /// `expect` lines that failed (read after `run` returns).
    public var failures: [Diagnostic] { core.failures }

    /// What a tester's view or a test needs to see of the session.
    public var snapshot: SessionSnapshot {
        let session = core.session
        return SessionSnapshot(screen: session.navigator.screen.id, focus: session.navigator.focusedElement?.id,
                               lastFocusSpeech: session.lastFocusSpeech, time: session.now,
                               nextDeadline: session.nextDeadline, isQuiet: session.isQuiet)
    }

    /// Handles the `.status` and display-size reports already queued (see `run`).
    private func takeOutputStatuses() {
        condition.lock()
        let isStatus: (LiveInput) -> Bool = {
            switch $0 {
            case .session(.output(.status)), .session(.output(.displaySize)): true
            default: false
            }
        }
        let statuses = inbox.filter(isStatus)
        inbox.removeAll(where: isStatus)
        condition.unlock()
        // At time 0, the run's start, however long the thread took to get here (at a replay's
        // speed 10 a tenth of a millisecond of load was already time 1).
        for case .session(let s) in statuses { core.apply(s, at: 0) }
    }
}

/// A read-only view of a live session's state.
public struct SessionSnapshot: Sendable, Hashable {
    public var screen: String
    public var focus: String?
    public var lastFocusSpeech: String
    public var time: Milliseconds
    /// When the next timer falls due (a speech end, a loading step, a message's end), if any.
    public var nextDeadline: Milliseconds?
    /// Nothing scheduled or said any more.
    public var isQuiet: Bool
}
