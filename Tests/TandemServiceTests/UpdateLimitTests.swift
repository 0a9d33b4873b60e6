import Foundation
import Testing
import TandemModel
import TandemNavigator
import TandemVocabulary
import TandemProtocol
import TandemTestSupport
@testable import TandemService
@testable import TandemSession

/// `maxUpdateNodes` (Docs/protocol.md#limits): an `update` carries at most 8,192 nodes plus ids
/// its edits remove or insert, so what one line can cost the session thread is bounded by that,
/// not by the 1 MiB line. Refused whole, with an error naming the limit; the connection stays.
@Suite("the limit on what one update carries")
struct UpdateLimitTests {
    typealias Served = ServiceTests.Served

    /// An app whose screen is a list `rows` of `count` rows `r0`… and a button `ok`, focused.
    static func listScreen(rows count: Int, into s: inout Served) {
        s.connect("c1")
        s.send("c1", #"{"type":"hello","v":1,"role":"app","name":"Rows"}"#)
        let rows = (0..<count).map { #"{"id":"r\#($0)","label":"Row \#($0)"}"# }.joined(separator: ",")
        s.send("c1", #"{"type":"screen","screen":{"id":"list","focus":"ok","root":{"id":"root","children":[{"id":"ok","label":"OK","traits":["button"]},{"id":"rows","children":[\#(rows)]}]}}}"#,
               line: 2)
    }

    /// `{"type":"update",…}` giving `n` new rows `n0`… to `rows` as nodes, with `edits` beside.
    static func newRows(_ n: Int, from first: Int = 0, edits: String? = nil) -> String {
        let nodes = (first..<(first + n)).map { #"{"id":"n\#($0)","label":"New \#($0)"}"# }.joined(separator: ",")
        return #"{"type":"update","nodes":[\#(nodes)]"# + (edits.map { #","edits":\#($0)"# } ?? "") + "}"
    }

    static func ids(_ range: Range<Int>, _ prefix: String) -> String {
        "[" + range.map { #""\#(prefix)\#($0)""# }.joined(separator: ",") + "]"
    }

    static func errors(_ replies: [(client: ClientID, json: String)]) -> [String] {
        replies.filter { $0.json.contains(#""type":"error""#) }.map(\.json)
    }

    @Test("the limit is 8,192, beside the other limits on a screen, and welcome carries it")
    func theLimit() {
        #expect(Screen.maxUpdateNodes == 8_192)
        #expect(ServerMessageDecoder.defaultLimits.maxUpdateNodes == 8_192, "an older service's welcome without it stands for 8,192")
        #expect(ServerMessage.welcome(client: "c1", limits: .init(maxLine: 1 << 20, userActionWindow: 500), features: .none).json
                .contains(#""maxLine":1048576,"maxUpdateNodes":8192,"userActionWindow":500"#))
    }

    @Test("8,193 nodes and edited ids are refused naming maxUpdateNodes, nothing applied; 8,192 are taken")
    func nodesAndEditedIDs() throws {
        var s = try Served()
        Self.listScreen(rows: 200, into: &s)
        let before = s.session.navigator.screen
        // 8,093 new nodes, an edit inserting the first 50 of them and removing 50 rows: 8,193.
        let over = Self.newRows(8_093, edits: #"[{"parent":"rows","remove":\#(Self.ids(0..<50, "r")),"insert":\#(Self.ids(0..<50, "n"))}]"#)
        let refused = Self.errors(s.send("c1", over, line: 3))
        #expect(refused == [#"{"type":"error","error":"the update carries 8193 nodes and edited ids, over the limit of 8192 (maxUpdateNodes): send the rest in another update","line":3}"#],
                "\(refused)")
        #expect(s.session.navigator.screen == before, "nothing of the refused update was applied")
        #expect(s.session.navigator.focusedElement?.id == "ok")
        // One fewer new node: the edit inserts the first 50, and "n0" lists the others as its
        // children (ids in a node's children list are not counted; its nodes are).
        let fits = Self.newRows(8_092, edits: #"[{"parent":"rows","remove":\#(Self.ids(0..<50, "r")),"insert":\#(Self.ids(0..<50, "n"))}]"#)
        let named = fits.replacingOccurrences(of: #"{"id":"n0","label":"New 0"}"#,
                                              with: #"{"id":"n0","label":"New 0","children":\#(Self.ids(50..<8_092, "n"))}"#)
        // 8,092 nodes + 100 edited ids = 8,192 (the ids in a node's children list are not counted).
        let taken = s.send("c1", named, line: 4)
        #expect(Self.errors(taken).isEmpty, "\(Self.errors(taken).map { $0.prefix(300) })")
        #expect(s.session.navigator.screen.liveCount == before.liveCount - 50 + 8_092)
        // The connection stayed open all along: a status still answers.
        let status = s.send("c1", #"{"type":"status","id":1}"#, line: 5)
        #expect(status.contains { $0.json.contains(#""type":"status""#) }, "\(status.map(\.json))")
    }

    @Test("one edit with 8,193 ids is refused; a screen is not held to the limit")
    func oneEdit() throws {
        var s = try Served()
        Self.listScreen(rows: 9_000, into: &s)
        #expect(s.session.navigator.screen.liveCount == 9_003, "a screen of 9,003 elements is taken")
        let before = s.session.navigator.screen
        let over = #"{"type":"update","edits":[{"parent":"rows","remove":\#(Self.ids(0..<8_193, "r"))}]}"#
        #expect(Self.errors(s.send("c1", over, line: 3)).first?.contains("the update carries 8193 nodes and edited ids, over the limit of 8192 (maxUpdateNodes)") == true)
        #expect(s.session.navigator.screen == before)
        let ok = #"{"type":"update","edits":[{"parent":"rows","remove":\#(Self.ids(0..<8_192, "r"))}]}"#
        #expect(Self.errors(s.send("c1", ok, line: 4)).isEmpty)
        #expect(s.session.navigator.screen.liveCount == 9_003 - 8_192)
    }

    @Test("the count is taken before any node is read: an update over the limit with a bad node names the limit, not the node")
    func countedFirst() throws {
        var s = try Served()
        Self.listScreen(rows: 3, into: &s)
        let nodes = (0..<8_193).map { $0 == 8_000 ? #"{"id":"x","lable":"typo"}"# : #"{"id":"x\#($0)"}"# }.joined(separator: ",")
        let refused = Self.errors(s.send("c1", #"{"type":"update","nodes":[\#(nodes)]}"#, line: 3))
        #expect(refused.first?.contains("(maxUpdateNodes)") == true, "\(refused)")
        // Under the limit the same mistake is named by its path.
        let small = Self.errors(s.send("c1", #"{"type":"update","nodes":[{"id":"ok","lable":"typo"}]}"#, line: 4))
        #expect(small.first?.contains(#"nodes[0].lable: unknown field \"lable\""#) == true, "\(small)")
    }
}
