import Foundation
import Synchronization
import TandemVocabulary
import Testing
import TandemTestSupport
@testable import TandemOutputs

/// The shape both live outputs share: backoff, the mailbox, reports and stopping.
@Suite("output worker")
struct OutputWorkerTests {
    @Test("backoff: 50 ms, doubling, capped, and back to the start after a connection works")
    func backoff() {
        var b = Backoff(first: 50, longest: 1000)
        #expect((0..<7).map { _ in b.next() } == [50, 100, 200, 400, 800, 1000, 1000])
        b.reset()
        #expect(b.next() == 50)
    }

    final class Reports: Sendable {
        let events = Mutex<[LiveOutputEvent]>([])
        func add(_ e: LiveOutputEvent) { events.withLock { $0.append(e) } }
        var all: [LiveOutputEvent] { events.withLock { $0 } }
    }

    @Test("availability is reported once per change, the first time always")
    func availabilityOncePerChange() {
        let reports = Reports()
        let worker = OutputWorker(kind: .braille, mail: 0)
        let done = DispatchSemaphore(value: 0)
        worker.start(threadName: "test", report: reports.add) {
            worker.setAvailable(false, "gone")
            worker.setAvailable(false, "still gone")
            worker.setAvailable(true, "back")
            worker.setAvailable(true, "still back")
            done.signal()
            while !worker.isStopping { worker.wait(for: [], until: worker.clock.deadline(afterMilliseconds: 1000)) }
        }
        done.wait()
        #expect(worker.stop(timeout: .seconds(2)))
        #expect(reports.all == [.status(OutputStatus(.braille, available: false, message: "gone")),
                                .status(OutputStatus(.braille, available: true, message: "back"))])
        #expect(worker.lastReportedAvailability == true)
    }

    @Test("a post wakes the sleeping thread, which takes everything posted, in order")
    func postWakes() {
        let worker = OutputWorker(kind: .speech, mail: [Int]())
        let seen = Mutex<[Int]>([])
        let got = DispatchSemaphore(value: 0)
        worker.start(threadName: "test", report: { _ in }) {
            while !worker.isStopping {
                // An hour: only a post (or stop) can wake it in time.
                worker.wait(for: [], until: worker.clock.deadline(afterMilliseconds: 3_600_000))
                let taken = worker.take { mail in defer { mail = [] }; return mail }
                if !taken.isEmpty { seen.withLock { $0 += taken }; got.signal() }
            }
        }
        worker.post { $0 += [1, 2] }
        #expect(got.wait(timeout: .now() + 5) == .success)
        worker.post { $0.append(3) }
        #expect(got.wait(timeout: .now() + 5) == .success)
        #expect(worker.stop(timeout: .seconds(2)), "stop wakes it too")
        #expect(seen.withLock { $0 } == [1, 2, 3])
    }

    @Test("nothing is reported once stop has returned, and posts after stop are ignored")
    func silentAfterStop() {
        let reports = Reports()
        let worker = OutputWorker(kind: .speech, mail: 0)
        let stopped = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        worker.start(threadName: "test", report: reports.add) {
            stopped.wait()
            worker.report(.speechEnded(1))
            finished.signal()
        }
        // The thread is held until after stop returns, so stop times out first.
        #expect(!worker.stop(timeout: .milliseconds(50)))
        worker.post { $0 = 42 }
        stopped.signal()
        finished.wait()
        #expect(reports.all.isEmpty)
        #expect(worker.take { $0 } == 0)
    }

    @Test("the reporter is called at the same depth however many events came before")
    func reporterDepthStaysTheSame() {
        let positions = Mutex<[UInt]>([])
        let worker = OutputWorker(kind: .speech, mail: 0)
        let done = DispatchSemaphore(value: 0)
        worker.start(threadName: "test", report: { _ in
            let p = stackPosition()
            positions.withLock { $0.append(p) }
        }) {
            for n in 0..<300 { worker.report(.status(OutputStatus(.speech, available: n % 2 == 0, message: "\(n)"))) }
            done.signal()
            while !worker.isStopping { worker.wait(for: [], until: worker.clock.deadline(afterMilliseconds: 1000)) }
        }
        done.wait()
        #expect(worker.stop(timeout: .seconds(2)))
        let seen = positions.withLock { $0 }
        #expect(seen.count == 300)
        #expect(seen.allSatisfy { $0 == seen[0] }, "the 300th call is \(Int(seen[0]) - Int(seen.last ?? 0)) bytes deeper than the first")
    }
}
