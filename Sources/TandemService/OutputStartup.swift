import TandemSession
import Foundation
import TandemOutputs
import TandemVocabulary

/// Live outputs started before their session exists: what they report is held until the
/// runner is there, and `waitUntilSettled` says when each has settled its first connection,
/// so that a replay's time 0 comes after its daemons answered (or were found missing) and
/// its first braille frame is not written before the display can show it.
///
/// An output has settled when it reported that it is unavailable, or for speech that it is
/// available, or for braille its display's size (which follows its availability at once,
/// and which the session cuts its first frame to).
final class OutputStartup: @unchecked Sendable {  // every var is read and written under `condition` (an NSCondition: waiting needs one)
    private let condition = NSCondition()
    private var unsettled: Set<OutputKind>
    private var held: [LiveOutputEvent] = []
    private var runner: LiveRunner?

    init(_ outputs: [any LiveOutput]) {
        unsettled = Set(outputs.map(\.kind))
    }

    /// The reporter to start the outputs with.
    var reporter: @Sendable (LiveOutputEvent) -> Void {
        { [self] event in receive(event) }
    }

    private func receive(_ event: LiveOutputEvent) {
        condition.lock()
        switch event {
        case .status(let s) where !s.available || s.output == .speech:
            unsettled.remove(s.output)
        case .displaySize:
            unsettled.remove(.braille)
        default:
            break
        }
        let target = runner
        if target == nil { held.append(event) }
        condition.broadcast()
        condition.unlock()
        target?.send(.output(event))
    }

    /// Waits until every output has settled, at most `timeout` milliseconds; whether they did.
    @discardableResult
    func waitUntilSettled(timeout: Int) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Double(timeout) / 1000)
        condition.lock()
        defer { condition.unlock() }
        while !unsettled.isEmpty {
            if !condition.wait(until: deadline) { return unsettled.isEmpty }
        }
        return true
    }

    /// From now on reports go to `runner`; those held so far go first, in order.
    func forward(to runner: LiveRunner) {
        condition.lock()
        let earlier = held
        held = []
        for event in earlier { runner.send(.output(event)) }
        self.runner = runner
        condition.unlock()
    }
}
