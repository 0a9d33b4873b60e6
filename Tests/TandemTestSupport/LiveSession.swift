import Foundation
import Synchronization
import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemService
import TandemSession
import TandemVocabulary

/// A live session on the real clock (or on `clock`), as `tandem run` has one: a `LiveRunner` on a thread of
/// its own, driving real outputs (speech-dispatcher, BRLTTY). Every record is kept in
/// `records`, and what the outputs report is logged in `events` as it reaches the runner.
///
/// The outputs are started before the runner, as the CLI does, so the opening speech already
/// knows whether its daemon answers. `finish` (or deinit) stops the runner, then the outputs.
public final class LiveSession: Sendable {
    public let runner: LiveRunner
    public let records = RecordingSink()
    public let events = OutputEventLog()
    private let outputs: [any LiveOutput]
    private let done = DispatchSemaphore(value: 0)
    private let finished = Mutex<Bool?>(nil)

    public init(catalog: Catalog, profile: Profile = Profile(), outputs: [any LiveOutput], clock: any RunnerClock = WallClock(),
                makeTranslator: @escaping @Sendable (Profile) -> any BrailleTranslator = louisTranslator(for:)) {
        self.outputs = outputs
        let session = Session(catalog: catalog, profile: profile, sink: MultiplexSink([records] + outputs),
                              timing: .virtual, makeTranslator: makeTranslator)
        let runner = LiveRunner(session: session, clock: clock)
        self.runner = runner
        let events = self.events
        for output in outputs {
            output.start { event in
                events.append(event)
                runner.send(.output(event))
            }
        }
        runner.startThread(signalling: done)
    }

    deinit { finish() }

    public func send(_ command: Command) { runner.send(.command(command)) }

    public func send(_ input: SessionInput) { runner.send(input) }

    public func send(_ input: LiveInput) { runner.send(input) }

    /// Stops the runner — at once, or once nothing is scheduled or said any more when
    /// `whenQuietWithin` (ms of session time) is given — waits up to `waiting` for its thread,
    /// and stops the outputs. Whether the runner ended in time; later calls return the same.
    @discardableResult
    public func finish(whenQuietWithin quietTimeout: Milliseconds? = nil, waiting: Duration = .seconds(10)) -> Bool {
        finished.withLock { ended in
            if let ended { return ended }
            runner.send(quietTimeout.map { .quitWhenQuiet(timeout: $0) } ?? .quit)
            let seconds = Double(waiting.components.seconds) + Double(waiting.components.attoseconds) / 1e18
            let result = done.wait(timeout: .now() + seconds) == .success
            for output in outputs { output.stop() }
            ended = result
            return result
        }
    }

    /// The last braille frame the session emitted.
    public var lastFrame: BrailleFrame? { records.lastBrailleFrame }

    /// The records so far, without their times.
    public var recorded: [Record] { records.records.map(\.record) }

    /// Waits until `condition` holds for the session (see `waitUntil`).
    @discardableResult
    public func wait(timeout: Duration = .seconds(3), until condition: (LiveSession) -> Bool) -> Bool {
        waitUntil(timeout: timeout) { condition(self) }
    }
}
