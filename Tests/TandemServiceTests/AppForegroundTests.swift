import TandemProtocol
@testable import TandemSession
import Testing

/// An app's own `foreground` (Docs/protocol.md#several-apps, feature `appForeground`): the app
/// whose window was activated comes to the front, as a controller's `foreground` brings it.
@Suite("an app comes to the front itself")
struct AppForegroundTests {
    @Test("an app behind sends foreground naming no app: it comes to the front, said as a switch")
    func appBehindComesForward() throws {
        var s = try AppSwitchTests().twoApps()
        #expect(s.service.foreground == "c2")
        let before = s.spoken.count
        let replies = s.send("c1", #"{"type":"foreground"}"#, line: 3)
        s.wait(3000)
        // no error: the app is only told where its focus is
        #expect(!replies.contains { $0.json.contains(#""type":"error""#) }, "\(replies)")
        #expect(s.service.foreground == "c1")
        #expect(Array(s.spoken.dropFirst(before)) == ["Groceries, Groceries, heading"])
        // the app in front saying it again changes nothing and says nothing
        let again = s.spoken.count
        #expect(s.send("c1", #"{"type":"foreground"}"#, line: 4).isEmpty, "nothing to tell the app in front")
        s.wait(3000)
        #expect(s.spoken.count == again)
        #expect(s.service.foreground == "c1")
    }

    @Test("refused: an app naming another app, a controller naming none, an app with no screen yet")
    func refusals() throws {
        var s = try AppSwitchTests().twoApps()
        let named = s.send("c1", #"{"type":"foreground","name":"Notes"}"#, line: 3)
        #expect(named.map(\.json) == [#"{"type":"error","error":"foreground is a message for controllers; this connection is an app","line":3}"#])
        s.connect("c3")
        _ = s.send("c3", #"{"type":"hello","v":1,"role":"controller"}"#)
        let bare = s.send("c3", #"{"type":"foreground"}"#, line: 2)
        #expect(bare.map(\.json) == [#"{"type":"error","error":"foreground is a message for apps; this connection is a controller","line":2}"#])
        s.connect("c4")
        _ = s.send("c4", #"{"type":"hello","v":1,"role":"app","name":"Mail"}"#)
        let early = s.send("c4", #"{"type":"foreground"}"#, line: 2)
        #expect(early.map(\.json) == [#"{"type":"error","error":"send a screen before coming to the front","line":2}"#])
        #expect(s.service.foreground == "c2")
    }
}
