import Foundation
import Synchronization
import TandemVocabulary
import Testing
@testable import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemTestSupport

/// A speech output on a `ManualClock`, talking to a `FakeSSIPPeer`, whose session waits
/// for speech ends (as a session does once speech is available), unless `sessionWaits` is
/// false (a session that estimates durations). `sendBuffer`: the output's SO_SNDBUF (small:
/// one long text fills the socket of a daemon that stops reading).
final class SpeechFaultRig: @unchecked Sendable {  // `maker` is used on the test's thread only; the rest is let and Sendable
    let peer: FakeSSIPPeer
    let clock = ManualClock()
    let log = OutputEventLog()
    let output: SpeechDispatcherOutput
    let timing: SpeechDispatcherOutput.Timing
    private var maker = SpokenMaker()

    let sessionWaits: Bool

    init(start: Bool = true, timing: SpeechDispatcherOutput.Timing = .init(), sessionWaits: Bool = true, sendBuffer: Int? = nil,
         _ script: (@Sendable (FakeSSIPPeer.Command) -> FakeSSIPPeer.Answer)? = nil) throws {
        peer = try FakeSSIPPeer()
        if let script { peer.script.withLock { $0 = script } }
        self.timing = timing
        self.sessionWaits = sessionWaits
        output = SpeechDispatcherOutput(address: peer.address, voice: .init(), timing: timing)
        output.clock = clock
        output.sendBuffer = sendBuffer
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

    /// Waits until the peer has answered what it was sent and the worker has handled it: the
    /// worker found nothing to do twice while the peer had nothing pending and took nothing new.
    /// (A worker waiting for the peer's answer polls as an idle one does, so an idle spell
    /// counts only if the peer did nothing during it; 20 s at most, so a test that is wrong
    /// fails instead of hanging.)
    func settle() {
        let end = ContinuousClock.now + .seconds(20)
        var before: (commands: Int, accepted: Int)
        repeat {
            waitUntil { !peer.pending }
            before = (peer.commands.count, peer.accepted)
            clock.waitUntilIdle()
        } while (peer.pending || peer.commands.count != before.commands || peer.accepted != before.accepted) && ContinuousClock.now < end
    }

    /// Moves the clock on by `ms`, handling each `step` ms (each deadline the test relies on
    /// must fall on a step).
    func pass(_ ms: Int, step: Int = 10) {
        var left = ms
        while left > 0 {
            settle()
            let d = min(step, left)
            clock.advance(milliseconds: d)
            left -= d
        }
        settle()
    }

    func spoken(_ text: String, _ source: Source = .focus) -> Spoken {
        var s = maker.make(text, source)
        s.awaitsEnd = sessionWaits
        return s
    }

    func say(_ s: Spoken) {
        output.emit(.speech(.speak(s)), at: 0)
        settle()
    }

    func cancel(_ s: Spoken) {
        output.emit(.speech(.cancel(s)), at: 0)
        settle()
    }

    /// speech-dispatcher's id for the message with `text` (the newest sent).
    func id(_ text: String) -> Int? { peer.messages.last { $0.text == text }?.id }

    /// The peer sends begin (701), end (702) or cancel (703) for `text`'s message.
    func event(_ code: Int, _ text: String, component: String = "focus") {
        waitUntil { id(text) != nil && !peer.pending }
        guard let id = id(text) else { Issue.record("\(text) was not sent: \(peer.messages.map(\.text))"); return }
        peer.event(code, message: id, component: component)
        settle()
    }

    var sent: [String] { peer.messages.map(\.text) }
    var statuses: [Bool] { log.statuses.map(\.available) }
    var events: [LiveOutputEvent] { log.all.filter { if case .status = $0 { false } else { true } } }
    func count(_ line: String) -> Int { peer.commands.filter { $0.line == line }.count }
}
