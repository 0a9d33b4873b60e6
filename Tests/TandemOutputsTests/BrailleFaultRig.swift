import Foundation
import TandemOutputs
import TandemPresentation
import TandemTestSupport
import TandemVocabulary

/// A braille output on a `ManualClock`, talking to a `FakeBrlAPIPeer` through the real
/// libbrlapi: what `BrailleFaultTests` and `BrailleWorkerRuleTests` drive.
final class BrailleFaultRig: Sendable {
    typealias Packet = FakeBrlAPIPacket

    let peer: FakeBrlAPIPeer
    let clock = ManualClock()
    let log = OutputEventLog()
    let output: BrlAPIOutput
    let settings: BrlAPIOutput.Settings

    init(start: Bool = true, settings: BrlAPIOutput.Settings = .init(), receiveBuffer: Int32? = nil,
         _ configure: (FakeBrlAPIPeer) -> Void = { _ in }) throws {
        peer = try FakeBrlAPIPeer(receiveBuffer: receiveBuffer)
        configure(peer)
        self.settings = settings
        output = BrlAPIOutput(host: peer.host, auth: "none", acceptedCommands: ["LNDN", "ROUTE"], settings: settings)
        output.clock = clock
        if start { self.start() }
    }

    func start() {
        output.start(report: log.reporter)
        settle()
    }

    deinit {
        output.stop()
        peer.stop()
    }

    /// Waits until the peer has answered what it was sent and the worker has handled it.
    /// False when the worker never came back to wait on its clock (it is stuck).
    @discardableResult
    func settle() -> Bool {
        waitUntil { !peer.pending }
        let idle = clock.waitUntilIdle()
        waitUntil { !peer.pending }
        return clock.waitUntilIdle() && idle
    }

    /// Moves the clock on by `ms`, handling each 10 ms.
    func pass(_ ms: Int) {
        var left = ms
        while left > 0 {
            settle()
            let d = min(10, left)
            clock.advance(milliseconds: d)
            left -= d
        }
        settle()
    }

    /// Shows a frame of `cells` with the cursor on `cursor`.
    @discardableResult
    func show(_ cells: [Cell], cursor: Int? = nil, text: String = "frame") -> BrailleFrame {
        let frame = BrailleFrame(text: text, cells: cells, cursor: cursor, window: 0, windowCount: 1, flash: false)
        output.emit(.braille(frame), at: 0)
        settle()
        return frame
    }

    var statuses: [Bool] { log.statuses.map(\.available) }
    /// Waits until the statuses reported are `expected` (a bound on a failing test, not a
    /// timing assertion: what follows a connection is reported from the worker's thread).
    func reported(_ expected: [Bool]) -> Bool { log.wait { _ in statuses == expected } }
    /// Waits until `count` writes have reached the peer.
    func written(_ count: Int) -> Bool { waitUntil { writes.count == count } }
    var lastMessage: String { log.statuses.last?.message ?? "" }
    var sizes: [Int] { log.all.compactMap { if case .displaySize(let c) = $0 { c } else { nil } } }
    var writes: [FakeBrlAPIPeer.Write] { peer.writes }
    var answerTimeout: Int { Int((settings.answerTimeout / .milliseconds(1)).rounded()) }

    /// Settings whose answer timeout is short, for tests that cross it more than once.
    static var quick: BrlAPIOutput.Settings {
        var s = BrlAPIOutput.Settings()
        s.answerTimeout = .milliseconds(200)
        return s
    }

    static func padded(_ cells: [Cell], to width: Int = 40) -> [Cell] {
        cells + [Cell](repeating: 0, count: width - cells.count)
    }
}
