import Synchronization
import TandemOutputs
import TandemVocabulary

/// Everything live outputs reported, in order, for a test to wait on and look at. Give an
/// output `reporter`, or let a `LiveSession` keep one for its outputs.
public final class OutputEventLog: Sendable {
    private let events = Mutex<[LiveOutputEvent]>([])

    public init() {}

    public func append(_ event: LiveOutputEvent) { events.withLock { $0.append(event) } }

    public var reporter: @Sendable (LiveOutputEvent) -> Void { { [self] in append($0) } }

    public var all: [LiveOutputEvent] { events.withLock { $0 } }

    /// The statuses reported so far (output went away or came back), in order.
    public var statuses: [(available: Bool, message: String)] {
        all.compactMap { if case .status(let s) = $0 { (s.available, s.message) } else { nil } }
    }

    /// The braille display keys reported, as BRLTTY command names with their argument
    /// (`LNDN`, `ROUTE 2`).
    public var brailleCommands: [String] {
        all.compactMap { if case .brailleCommand(let n, let a) = $0 { a.map { "\(n) \($0)" } ?? n } else { nil } }
    }

    /// Waits until `condition` holds for what was reported (see `waitUntil`).
    @discardableResult
    public func wait(timeout: Duration = .seconds(5), until condition: ([LiveOutputEvent]) -> Bool) -> Bool {
        waitUntil(timeout: timeout) { condition(all) }
    }
}
