import Synchronization
import TandemVocabulary
import Testing
import TandemPolicy
import TandemPresentation
import TandemTestSupport
@testable import TandemOutputs
@testable import TandemService
@testable import TandemSession

/// Issue 27's "done when", end to end from a client's lines to what waits for the speech
/// worker and what the service keeps: counted in jobs, queued items and table sizes, never in
/// time (the times are `tandem-bench hostile`'s, Docs/reliability.md#hostile-clients).
@Suite("hostile clients: the done-when bounds")
struct HostileDoneWhenTests {
    typealias Served = ServiceTests.Served

    /// The speech output's mailbox as `SpeechDispatcherOutput.emit` fills it, with a worker
    /// that takes nothing (busy with a long utterance the whole time): the largest it grew.
    final class Mailbox: OutputSink, Sendable {
        let mail = Mutex<(mail: SpeechMail, largest: Int)>((SpeechMail(), 0))
        func emit(_ record: Record, at time: Int) {
            mail.withLock { m in
                switch record {
                case .speech(.speak(let s)): m.mail.speak(s)
                case .speech(.cancel(let s)): m.mail.cancel(s)
                case .sound(let icon): m.mail.sound(icon)
                default: return
                }
                m.largest = max(m.largest, m.mail.jobs.count)
            }
        }
    }

    /// A served session whose records also go to `mailbox`.
    static func served(into mailbox: Mailbox) throws -> (core: SessionCore, records: RecordingSink) {
        let profile = try ProfileStore.shipped.load("default").0
        let records = RecordingSink()
        let (session, service) = Service.start(profile: profile, catalog: nil, sink: MultiplexSink([mailbox, records]), timing: .virtual,
                                               makeTranslator: louisTranslator(for:))
        var core = SessionCore(session: session, service: service, keyMap: profile.keyMap)
        core.apply(.open(), at: 0)
        return (core, records)
    }

    @Test("after 20,000 screen switches and 20,000 previous at the top, a high announcement is among the first three jobs the speech worker takes")
    func highAfterBurst() throws {
        let mailbox = Mailbox()
        var (core, _) = try Self.served(into: mailbox)
        var line = 1
        func send(_ client: ClientID, _ json: String, at t: Int) {
            core.apply(.clientLine(client, line: line, bytes: Array(json.utf8)), at: t)
            line += 1
        }
        core.apply(.clientConnected("app"), at: 0)
        core.apply(.clientConnected("ctl"), at: 0)
        send("app", #"{"type":"hello","v":1,"role":"app","name":"Flood"}"#, at: 0)
        send("ctl", #"{"type":"hello","v":1,"role":"controller"}"#, at: 0)
        // 20,000 switches in 2 s of session time, each its own instant as `tandem serve` has it.
        for k in 0..<20_000 {
            let id = k % 2 == 0 ? "a" : "b"
            send("app", #"{"type":"screen","screen":{"id":"\#(id)","root":{"id":"r","children":[{"id":"t\#(id)","label":"Screen \#(id)","traits":["header"]},{"id":"x","label":"More"}]}}}"#,
                 at: 1 + k / 10)
        }
        // 20,000 `previous` at the top of the screen: a boundary sound each.
        for k in 0..<20_000 {
            send("ctl", #"{"type":"command","command":"previous"}"#, at: 2_001 + k / 10)
        }
        let largest = mailbox.mail.withLock { $0.largest }
        #expect(largest <= 4, "the worker's mailbox held \(largest) jobs at most")
        send("app", #"{"type":"notify","notification":"announcement","text":"Payment failed","priority":"high"}"#, at: 4_002)
        let jobs = mailbox.mail.withLock { $0.mail.takeJobs() }
        let at = jobs.firstIndex { if case .speak(let s, _) = $0 { s.utterance.text.contains("Payment failed") } else { false } }
        #expect(at != nil && at! < 3, "the announcement is job \(at.map { String($0 + 1) } ?? "none") of \(jobs.count): \(jobs)")
    }

    @Test("1,000 apps with names of their own connecting and leaving leave the service's tables as they were")
    func tablesBackToBaseline() throws {
        var s = try Served()
        s.connect("ctl")
        s.send("ctl", #"{"type":"hello","v":1,"role":"controller"}"#)
        HostileServiceTests.app("Home", client: "home", into: &s)
        s.send("home", #"{"type":"screen","screen":{"id":"h","root":{"id":"r","children":[{"id":"t","label":"Home"}]}}}"#, line: 2)
        s.wait(10_000)
        let baseline = (clients: s.service.clients.count, apps: s.service.apps.count, recent: s.service.recent.count,
                        departed: s.service.departed.count, timers: s.session.timers.entries.count)
        for k in 0..<1_000 {
            let client = ClientID("a\(k)")
            HostileServiceTests.app("App \(k) " + String(repeating: "n", count: 200), client: client, into: &s)
            s.send(client, #"{"type":"screen","screen":{"id":"s","root":{"id":"r","children":[{"id":"t","label":"Item \#(k)"}]}}}"#, line: 2)
            s.disconnect(client)
        }
        s.wait(60_000)
        #expect(s.service.clients.count == baseline.clients)
        #expect(s.service.apps.count == baseline.apps)
        #expect(s.service.recent.count <= baseline.recent + 1)
        #expect(s.service.departed.count <= Service.departedKept, "\(s.service.departed.count) departed apps kept")
        #expect(s.session.timers.entries.count <= baseline.timers + 1)
        #expect(s.session.policy.queue.isEmpty)
        #expect(s.core.takeOutbox().count < 10)
    }
}
