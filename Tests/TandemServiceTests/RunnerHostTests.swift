import Dispatch
import Foundation
import Synchronization
import TandemVocabulary
import Testing
import TandemModel
import TandemOutputs
import TandemService
import TandemSession
import TandemTestSupport

/// `LiveRunner` waiting in a host instead of on its own condition, as `tandem serve`'s session
/// thread waits in its control socket's `poll` (`HostedServer`).
@Suite("the runner waiting in a host")
struct RunnerHostTests {
    @Test("the runner waits in its host: input from its own thread is no wake-up, another thread's is, and every batch is flushed")
    func waitsInItsHost() throws {
        let session = Session(catalog: try decodeCatalog(LiveReplayTests.catalog), profile: try ReplayHarness.profile(), sink: RecordingSink(),
                              timing: .virtual, makeTranslator: louisTranslator(for:))
        let runner = LiveRunner(session: session)
        let woken = DispatchSemaphore(value: 0)
        let serves = Atomic<Int>(0), wakes = Atomic<Int>(0), flushes = Atomic<Int>(0)
        // The first wait passes a key on from inside, as the socket's loop passes a client's
        // line; later ones sleep until woken or their limit, as `poll` would.
        runner.hooks.host = RunnerHost(
            serve: { [weak runner] limit in
                if serves.add(1, ordering: .relaxed).newValue == 1 {
                    runner?.send(.command(.next))
                    return
                }
                let ns = limit.map { Int(Double($0.components.seconds) * 1e9 + Double($0.components.attoseconds) / 1e9) }
                _ = woken.wait(timeout: ns.map { .now() + .nanoseconds($0) } ?? .distantFuture)
            },
            flush: { flushes.add(1, ordering: .relaxed) },
            wake: {
                wakes.add(1, ordering: .relaxed)
                woken.signal()
            })
        let afterNext = Mutex<(wakes: Int, focus: String?)?>(nil)
        let handledNext = DispatchSemaphore(value: 0)
        runner.hooks.afterEachBatch = { snapshot in
            guard snapshot.focus == "go" else { return }
            let first = afterNext.withLock { seen in
                guard seen == nil else { return false }
                seen = (wakes.load(ordering: .relaxed), snapshot.focus)
                return true
            }
            if first { handledNext.signal() }
        }
        let finished = DispatchSemaphore(value: 0)
        let final = Mutex<SessionSnapshot?>(nil)
        Thread {
            let end = runner.run()
            final.withLock { $0 = end }
            finished.signal()
        }.start()

        #expect(handledNext.wait(timeout: .now() + 10) == .success, "the key passed on inside the wait was handled")
        #expect(afterNext.withLock { $0?.wakes } == 0, "input sent from the runner's own thread did not wake it")
        runner.send(.quit)
        #expect(finished.wait(timeout: .now() + 10) == .success, "the quit sent from another thread woke the wait")
        #expect(wakes.load(ordering: .relaxed) >= 1)
        #expect(final.withLock { $0?.focus } == "go")
        #expect(flushes.load(ordering: .relaxed) >= 2, "the opening batch and the key's were flushed")
    }
}
