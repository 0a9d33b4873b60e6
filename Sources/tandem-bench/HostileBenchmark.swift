import Foundation
import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemService
import TandemSession
import TandemVocabulary
import TandemPOSIX

/// `tandem-bench hostile`: what one buggy or hostile app can make the service do (issue 27;
/// Docs/reliability.md#hostile-clients), in-process through the service as `tandem serve`'s
/// session thread runs it, with liblouis:
///
/// - one `update` of 17,430 nodes as 70 chains 249 deep (the deepest allowed), against the same
///   number as a flat list: the time the session thread is held (median of 5);
/// - a 20,000-deep chain in one line (refused by `maxDepth`);
/// - a 900 KiB announcement and a 900 KiB value on the focused element (braille cut);
/// - 20,000 screen switches and 10,000 announcements: the largest speech backlog and the
///   process's resident memory before and after;
/// - 5,000 apps connecting and leaving: the largest number of "closed" statuses waiting.
enum HostileBenchmark {
    static func run() -> String {
        var lines = ["hostile: what one app can make the service do (median of 5 runs where timed)"]
        let chain = median((0..<5).map { _ in time(chains: 70, depth: 249) })
        let wide = median((0..<5).map { _ in time(chains: 17_430, depth: 1) })
        lines.append("  update, 70 chains × 249 deep  \(ms(chain)) ms held (17,430 nodes)")
        lines.append("  update, flat list            \(ms(wide)) ms held (17,430 nodes)")
        lines.append("  update, one 20,000-deep chain \(ms(median((0..<5).map { _ in time(chains: 1, depth: 20_000) }))) ms to refuse (maxDepth)")
        lines.append("  900 KiB announcement         \(ms(median((0..<5).map { _ in hugeText(value: false) }))) ms held")
        lines.append("  900 KiB focused value        \(ms(median((0..<5).map { _ in hugeText(value: true) }))) ms held")

        let before = PolicyFloodBenchmark.residentBytes()
        var app = App()
        app.send(#"{"type":"screen","screen":{"id":"a","root":{"id":"r","children":[{"id":"t","label":"Screen A","traits":["header"]}]}}}"#)
        var largest = 0
        for k in 0..<20_000 {
            let id = k % 2 == 0 ? "b" : "a"
            app.send(#"{"type":"screen","screen":{"id":"\#(id)","root":{"id":"r","children":[{"id":"t","label":"Screen \#(id)","traits":["header"]}]}}}"#)
            largest = max(largest, app.session.speechQueue.count)
        }
        lines.append("  20,000 screen switches       largest speech queue \(largest)")
        largest = 0
        for k in 0..<5_000 {
            app.service.connected(ClientID("x\(k)"))
            app.service.received(ClientID("x\(k)"), line: 1, bytes: Array(#"{"type":"hello","v":1,"role":"app","name":"Bank"}"#.utf8), session: &app.session, at: app.now)
            app.service.disconnected(ClientID("x\(k)"), session: &app.session, at: app.now)
            app.session.settle()
            largest = max(largest, app.session.speechQueue.filter(\.utterance.isStatus).count)
        }
        lines.append("  5,000 apps closing           largest number of closed statuses waiting \(largest)")
        largest = 0
        for k in 0..<10_000 {
            app.send(#"{"type":"notify","notification":"announcement","text":"Item \#(k) added"}"#)
            largest = max(largest, app.session.speechQueue.count)
        }
        lines.append("  10,000 announcements         largest speech queue \(largest) (the rest merged or dropped, in the transcript)")
        let after = PolicyFloodBenchmark.residentBytes()
        lines.append("  resident memory              \(PolicyFloodBenchmark.mebibytes(before)) before the floods, \(PolicyFloodBenchmark.mebibytes(after)) after")
        return lines.joined(separator: "\n")
    }

    /// A service with one app, its session on the virtual clock.
    struct App {
        var session: Session
        var service: Service
        var now = 0
        var line = 1

        init() {
            (session, service) = Service.start(profile: Profile(), catalog: nil, sink: NullSink(), timing: .virtual,
                                               makeTranslator: SizeBenchmark.translator)
            service.open(&session, at: 0)
            service.connected("app")
            send(#"{"type":"hello","v":1,"role":"app","name":"Flood"}"#)
        }

        /// One line, as the runner hands it over; the ns the session thread was held.
        @discardableResult
        mutating func send(_ json: String) -> UInt64 {
            line += 1
            let bytes = Array(json.utf8)
            let start = Monotonic.now()
            service.received("app", line: line, bytes: bytes, session: &session, at: now)
            service.routeNotices(&session)
            session.settle()
            let held = Monotonic.now() - start
            _ = service.outbox.take()
            now += 1
            return held
        }
    }

    static func time(chains: Int, depth: Int) -> UInt64 {
        var app = App()
        app.send(#"{"type":"screen","screen":{"id":"deep","root":{"id":"root","children":[{"id":"top","label":"T"}]}}}"#)
        var kids: [String] = []
        var nodes: [String] = []
        for c in 0..<chains {
            kids.append("\"c\(c)x0\"")
            for i in 0..<depth {
                let k = i < depth - 1 ? #","children":["c\#(c)x\#(i + 1)"]"# : ""
                nodes.append(#"{"id":"c\#(c)x\#(i)","label":"D \#(i)"\#(k)}"#)
            }
        }
        return app.send(#"{"type":"update","nodes":[{"id":"top","label":"T","children":["# + kids.joined(separator: ",") + "]}," + nodes.joined(separator: ",") + "]}")
    }

    static func hugeText(value: Bool) -> UInt64 {
        var app = App()
        app.send(#"{"type":"screen","screen":{"id":"s","root":{"id":"r","children":[{"id":"f","label":"Notes","traits":["searchField"]}]}}}"#)
        let huge = String(repeating: "x", count: 921_600)
        return value ? app.send(#"{"type":"set","id":"f","value":"\#(huge)"}"#)
                     : app.send(#"{"type":"notify","notification":"announcement","text":"\#(huge)"}"#)
    }

    static func median(_ xs: [UInt64]) -> UInt64 { xs.sorted()[xs.count / 2] }
    static func ms(_ ns: UInt64) -> String { String(format: "%.1f", Double(ns) / 1e6) }
}
