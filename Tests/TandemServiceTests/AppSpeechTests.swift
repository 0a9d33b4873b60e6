import Testing
import TandemTestSupport
@testable import TandemService

/// What an app's changes make the user hear, on the virtual clock: nothing stray, nothing cut.
@Suite("app changes heard")
struct AppSpeechTests {
    typealias Served = ServiceTests.Served

    /// The grocery app with a loading indicator shown and focused.
    func loading() throws -> Served {
        var s = try ServiceTests().grocery()
        s.send("c1", #"{"type":"update","nodes":[{"id":"root","children":["title","banana","bread","loading"]},{"id":"loading","progress":{"label":"Placing order","value":0.4},"frame":[0,300,390,44]}]}"#, line: 3)
        s.send("c1", #"{"type":"notify","notification":"layoutChanged","focus":"loading"}"#, line: 4)
        s.wait(3000)
        #expect(s.session.navigator.focusedElement?.id == "loading")
        return s
    }

    @Test("hiding a focused indicator and resetting its value in one set says the new focus and nothing after it")
    func hideAndResetIndicator() throws {
        var s = try loading()
        let before = s.spoken.count
        s.send("c1", #"{"type":"set","id":"loading","hidden":true,"progress":{"label":"Placing order","value":0}}"#, line: 5)
        s.wait(3000)
        #expect(Array(s.spoken.dropFirst(before)) == ["Bread, button"])
    }

    @Test("hiding a focused indicator as it finishes is heard finishing, then the new focus")
    func hideAsItFinishes() throws {
        var s = try loading()
        let before = s.spoken.count
        s.send("c1", #"{"type":"set","id":"loading","hidden":true,"progress":{"label":"Placing order","value":1}}"#, line: 5)
        s.wait(3000)
        #expect(Array(s.spoken.dropFirst(before)) == ["100%", "Bread, button"])
    }
}
