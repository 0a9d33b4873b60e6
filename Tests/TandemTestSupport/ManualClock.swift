import Glibc
import Synchronization
import TandemOutputs

/// A `WorkerTimeSource` that moves only when the test says (`advance`): an output worker run
/// on it times out, backs off and paces exactly when the test has moved the clock far
/// enough, never on its own. Its waits still return at once when a socket or the worker's
/// mailbox is ready (they poll the descriptors for real, in 2 ms slices).
///
/// `waitUntilIdle` tells when the worker has nothing to do but wait for the clock, so a test
/// moves the clock only once the worker has handled what came before.
public final class ManualClock: WorkerTimeSource, Sendable {
    private struct State {
        var now: UInt64 = 1_000_000_000_000
        /// Slices in which a waiting thread found nothing ready, ever.
        var idleSlices = 0
    }
    private let state = Mutex(State())

    public init() {}

    public func now() -> UInt64 { state.withLock { $0.now } }

    /// Moves the clock on by `ms` milliseconds.
    public func advance(milliseconds ms: Int) {
        state.withLock { $0.now &+= UInt64(ms) * 1_000_000 }
    }

    public func poll(_ fds: inout [pollfd], until deadline: UInt64) -> Int32 {
        while true {
            let due = now() >= deadline
            let r = Glibc.poll(&fds, nfds_t(fds.count), due ? 0 : 2)
            if r != 0 || due { return r }
            state.withLock { $0.idleSlices += 1 }
        }
    }

    /// Waits (real time, at most `timeout`) until a worker has found nothing to do in two
    /// waits in a row after this call: everything it had been given is handled.
    @discardableResult
    public func waitUntilIdle(timeout: Duration = .seconds(5)) -> Bool {
        let start = state.withLock { $0.idleSlices }
        return waitUntil(timeout: timeout) { state.withLock { $0.idleSlices } >= start + 2 }
    }

    /// Moves the clock on by `ms` in steps of `step` ms, letting the worker handle each step.
    public func run(milliseconds ms: Int, step: Int = 10) {
        var left = ms
        while left > 0 {
            waitUntilIdle()
            let d = min(step, left)
            advance(milliseconds: d)
            left -= d
        }
        waitUntilIdle()
    }
}
