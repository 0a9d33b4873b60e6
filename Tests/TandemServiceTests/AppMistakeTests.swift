import Testing
import TandemModel
import TandemProtocol
import TandemTestSupport
@testable import TandemService
@testable import TandemSession

/// An app developer's mistakes get an error that names them, and change nothing
/// (Docs/protocol.md#errors): a focus on an id that is not there, a misspelled element field,
/// a `set` of a field that does not exist. Each was acknowledged silently before.
@Suite("app mistakes are named")
struct AppMistakeTests {
    typealias Served = ServiceTests.Served

    func grocery() throws -> Served { try ServiceTests().grocery() }

    /// The one error reply to a line, or nil when the line was taken.
    func error(_ s: inout Served, _ json: String, line: Int = 5) -> String? {
        let replies = s.send("c1", json, line: line).map(\.json)
        return replies.first { $0.hasPrefix(#"{"type":"error""#) }
    }

    @Test("an update whose focus names no element is refused, and the tree stays as it was")
    func updateFocusMissing() throws {
        var s = try grocery()
        let before = s.session.navigator.screen
        let e = error(&s, #"{"type":"update","id":9,"nodes":[{"id":"bread","label":"Bread rolls","traits":["button"]}],"focus":"breadd"}"#)
        #expect(e == #"{"type":"error","error":"focus \"breadd\" is neither an element of the screen nor a node of this update","line":5,"id":9}"#)
        #expect(s.session.navigator.screen == before)
        // A focus on a node the same update brings is fine.
        let ok = s.send("c1", #"{"type":"update","id":10,"nodes":[{"id":"root","children":["title","banana","bread","milk"]},{"id":"milk","label":"Milk","traits":["button"]}],"focus":"milk"}"#)
        #expect(ok.map(\.json).first == #"{"type":"ack","id":10}"#)
        #expect(s.session.navigator.focusedElement?.id == "milk")
    }

    @Test("layoutChanged and screenChanged with a focus that is not on the screen are refused")
    func notifyFocusMissing() throws {
        var s = try grocery()
        #expect(error(&s, #"{"type":"notify","notification":"layoutChanged","focus":"ghost"}"#)
                == #"{"type":"error","error":"focus: no element \"ghost\" on the app's screen \"list\"","line":5}"#)
        #expect(error(&s, #"{"type":"notify","notification":"screenChanged","focus":"ghost"}"#, line: 6)
                == #"{"type":"error","error":"focus: no element \"ghost\" on the app's screen \"list\"","line":6}"#)
        #expect(error(&s, #"{"type":"notify","notification":"layoutChanged","focus":"bread"}"#) == nil)
        #expect(s.session.navigator.focusedElement?.id == "bread")
    }

    @Test("a misspelled element field is an error naming it and what was meant, not a cleared label")
    func misspelledNodeField() throws {
        var s = try grocery()
        let before = s.session.navigator.screen
        #expect(error(&s, #"{"type":"update","nodes":[{"id":"bread","lable":"Bread rolls","traits":["button"]}]}"#)
                == #"{"type":"error","error":"nodes[0].lable: unknown field \"lable\" (did you mean \"label\"?)","line":5}"#)
        #expect(s.session.navigator.screen == before, "the label is not cleared")
        #expect(error(&s, #"{"type":"screen","screen":{"id":"x","root":{"id":"r","children":[{"id":"a","trait":["button"]}]}}}"#)
                == #"{"type":"error","error":"screen.root.children[0].trait: unknown field \"trait\" (did you mean \"traits\"?)","line":5}"#)
        #expect(error(&s, #"{"type":"update","edits":[{"parent":"root","insrt":["x"]}]}"#)
                == #"{"type":"error","error":"edits[0].insrt: unknown field \"insrt\" (did you mean \"insert\"?)","line":5}"#)
    }

    @Test("set names the field it does not know")
    func setUnknownField() throws {
        var s = try grocery()
        #expect(error(&s, #"{"type":"set","id":"bread","lable":"Rolls"}"#)
                == #"{"type":"error","error":"lable: unknown field \"lable\" (did you mean \"label\"?)","line":5,"id":"bread"}"#)
        let far = try #require(error(&s, #"{"type":"set","id":"bread","colour":"red"}"#))
        #expect(far.contains(#"unknown field \"colour\" (known: label, value, hint, traits"#), "\(far)")
    }

    @Test("wording: a child named twice in one list says so")
    func childNamedTwice() throws {
        var s = try grocery()
        #expect(error(&s, #"{"type":"update","nodes":[{"id":"root","children":["title","bread","bread","banana"]}]}"#)
                == #"{"type":"error","error":"the children of \"root\" name \"bread\" twice","line":5}"#)
    }
}
