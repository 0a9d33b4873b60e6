import Foundation
import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPolicy
import TandemProtocol
import TandemTestSupport
@testable import TandemService
@testable import TandemSession

/// One app, buggy or hostile, must not take the screen reader away from the user (issue 27):
/// every cost here is bounded by what the message carries and by a documented limit, and
/// checked by counting bytes, nodes or queued items — never by time.
@Suite("hostile clients at the service")
struct HostileServiceTests {
    typealias Served = ServiceTests.Served

    static func app(_ name: String = "Bank", client: ClientID = "c1", into s: inout Served) {
        s.connect(client)
        s.send(client, #"{"type":"hello","v":1,"role":"app","name":"\#(name)"}"#)
    }

    @Test("an error quotes a 900 KiB id only in part and does not echo it: the line stays a few hundred bytes")
    func boundedErrorLine() throws {
        var s = try Served()
        Self.app(into: &s)
        s.send("c1", #"{"type":"screen","screen":{"id":"home","title":"Home","root":{"id":"r","children":[{"id":"ok","label":"OK","traits":["button"]}]}}}"#)
        let huge = String(repeating: "é", count: 460_800)        // 921,600 bytes
        let replies = s.send("c1", #"{"type":"set","id":"\#(huge)","value":"x"}"#, line: 3)
        let error = try #require(replies.first { $0.json.contains(#""type":"error""#) })
        #expect(error.json.utf8.count < 1_000, "the error line is \(error.json.utf8.count) bytes")
        #expect(error.json.contains("bytes left out"))
        #expect(error.json.contains(#""line":3"#))
        #expect(error.json.contains("is too long to echo"))
        // A short id is still echoed and quoted whole.
        let short = s.send("c1", #"{"type":"set","id":"nope","value":"x"}"#, line: 4)
        let plain = try #require(short.first { $0.json.contains(#""type":"error""#) })
        #expect(plain.json.contains(#""id":"nope""#))
        #expect(!plain.json.contains("left out"))
    }

    @Test("a sentence cut in the middle keeps whole UTF-8 characters at both ends")
    func cutOnCharacters() {
        let sentence = "nodes[0].label: " + String(repeating: "👍", count: 300) + " is wrong"
        let cut = ErrorBounds.sentence(sentence)
        #expect(cut.hasPrefix("nodes[0].label: 👍"))
        #expect(cut.hasSuffix("👍 is wrong"))
        #expect(cut.utf8.count <= ErrorBounds.maxSentence + 40)
        #expect(!cut.contains("\u{FFFD}"))
        #expect(ErrorBounds.sentence("short") == "short")
    }

    @Test("a line that starts with a UTF-8 byte-order mark is refused with a sentence saying so")
    func byteOrderMark() throws {
        var s = try Served()
        s.connect("c1")
        s.step(.clientLine("c1", line: 1, bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"type":"hello","v":1,"role":"controller"}"#.utf8)))
        let replies = s.take()
        #expect(replies.map(\.json) == [#"{"type":"error","error":"the line starts with a UTF-8 byte-order mark (EF BB BF); send each line's JSON without one","line":1}"#])
    }

    @Test("tandem serve --allow-group with a number no group has is refused with a usage error")
    func unknownGroupNumber() throws {
        let r = try CLITests.tandem(["serve", "--socket", "/tmp/tandem-no-such-group.sock", "--allow-group", "4294967295"])
        #expect(r.status == 64)
        #expect(r.stderr.contains(#"--allow-group: no group "4294967295" in the group database"#), "\(r.stderr)")
    }

    /// `{"type":"update","nodes":[…]}` making a chain `d<from>` … `d<to>` below `d<from>`.
    static func chain(from: Int, to: Int) -> String {
        var nodes: [String] = []
        for i in from...to {
            let kids = i < to ? #","children":["d\#(i + 1)"]"# : ""
            nodes.append(#"{"id":"d\#(i)","label":"D \#(i)"\#(kids)}"#)
        }
        return #"{"type":"update","nodes":["# + nodes.joined(separator: ",") + "]}"
    }

    static func chainScreen(into s: inout Served) {
        app(into: &s)
        s.send("c1", #"{"type":"screen","screen":{"id":"deep","title":"Deep","root":{"id":"root","children":[{"id":"d0","label":"D 0"}]}}}"#, line: 2)
    }

    @Test("an 8,000-deep chain in one update (within maxUpdateNodes) is refused whole with an error naming maxDepth; one at the limit is taken")
    func deepChainRefused() throws {
        var s = try Served()
        Self.chainScreen(into: &s)
        let replies = s.send("c1", Self.chain(from: 0, to: 8_000), line: 3)
        let error = try #require(replies.first { $0.json.contains(#""type":"error""#) })
        #expect(error.json.contains("deeper than the limit of 250 (maxDepth)"), "\(error.json)")
        #expect(s.session.navigator.screen.liveCount == 2, "nothing of the refused update was applied")
        // The deepest allowed: d0 is at 1, so d249 is at 250.
        let ok = s.send("c1", Self.chain(from: 0, to: 249), line: 4)
        #expect(!ok.contains { $0.json.contains(#""type":"error""#) }, "\(ok.map(\.json))")
        #expect(s.session.navigator.screen.liveCount == 251)
        let over = s.send("c1", Self.chain(from: 249, to: 250), line: 5)
        #expect(over.first { $0.json.contains(#""type":"error""#) }?.json.contains(#"\"d250\" would be 251 levels below the root"#) == true)
    }

    @Test("a 20,000-deep chain in one update is refused by maxUpdateNodes before its depth is looked at; nothing applied")
    func longChainRefusedByItsSize() throws {
        var s = try Served()
        Self.chainScreen(into: &s)
        let replies = s.send("c1", Self.chain(from: 0, to: 20_000), line: 3)
        let error = try #require(replies.first { $0.json.contains(#""type":"error""#) })
        #expect(error.json == #"{"type":"error","error":"the update carries 20001 nodes and edited ids, over the limit of 8192 (maxUpdateNodes): send the rest in another update","line":3}"#)
        #expect(s.session.navigator.screen.liveCount == 2, "nothing of the refused update was applied")
    }

    @Test("a second app named Bank is Bank (2) in status and in what the user hears when it closes; the name is free again once the first leaves")
    func uniqueAppNames() throws {
        var s = try Served()
        Self.app("Bank", client: "c1", into: &s)
        Self.app("Bank", client: "c2", into: &s)
        Self.app("Bank", client: "c3", into: &s)
        s.connect("ctl")
        s.send("ctl", #"{"type":"hello","v":1,"role":"controller"}"#)
        let status = s.send("ctl", #"{"type":"status"}"#, line: 2)
        #expect(status.first?.json.contains(#"{"client":"c1","name":"Bank","foreground":false},{"client":"c2","name":"Bank (2)","foreground":false},{"client":"c3","name":"Bank (3)","foreground":false}"#) == true,
                "\(status.map(\.json))")
        s.disconnect("c2")
        s.wait(5_000)
        #expect(s.spoken.contains("Bank (2) closed"))
        #expect(!s.spoken.contains("Bank closed"))
        s.disconnect("c1")
        Self.app("Bank", client: "c4", into: &s)
        let again = s.send("ctl", #"{"type":"status"}"#, line: 3)
        #expect(again.first?.json.contains(#"{"client":"c4","name":"Bank","foreground":false}"#) == true, "\(again.map(\.json))")
    }

    @Test("5,000 apps closing in a burst leave at most one closed status waiting; a key cancels it")
    func closedStatusesCoalesce() throws {
        var s = try Served()
        for k in 0..<5_000 {
            Self.app("App \(k)", client: ClientID("a\(k)"), into: &s)
            s.disconnect(ClientID("a\(k)"))
            let waiting = s.session.policy.queue.filter(\.utterance.isStatus).count
            #expect(waiting <= 1, "\(waiting) statuses wait after \(k + 1) closes")
            if waiting > 1 { break }
        }
        let dropped = s.records.records.filter { if case .speech(.drop(_, let reason)) = $0.record { reason == "newer status" } else { false } }
        #expect(dropped.count >= 4_990, "each status superseded is dropped in the transcript, with its reason")
        // What plays or waits now is a status; a key takes it away.
        let statusBefore = s.session.policy.playing?.utterance.isStatus == true || s.session.policy.queue.contains { $0.utterance.isStatus }
        #expect(statusBefore)
        _ = s.key(.next)
        #expect(s.session.policy.playing?.utterance.isStatus != true)
        let statusAfter = s.session.policy.queue.contains { $0.utterance.isStatus }
        #expect(!statusAfter)
    }
}
