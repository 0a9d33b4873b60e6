import Testing
import TandemTestSupport
@testable import TandemService
@testable import TandemSession

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

/// "Update then announce" (Docs/protocol.md#user-action-window): an app that answers the user's
/// action by moving focus and announcing is heard whole, in the order it sent the two.
@Suite("update then announce")
struct UpdateThenAnnounceTests {
    typealias Served = ServiceTests.Served

    /// The grocery app, focus on Bread, the user's double tap sent to it.
    func activatedBread() throws -> Served {
        var s = try ServiceTests().grocery()
        _ = s.key(.next)
        _ = s.key(.next)
        s.wait(3000)
        #expect(s.session.navigator.focusedElement?.id == "bread")
        let sent = s.key(.activate).map(\.json)
        #expect(sent.contains(#"{"type":"action","action":"activate","id":"bread"}"#))
        return s
    }

    /// What was cut after the first `from` records.
    func cancelled(_ s: Served, from: Int) -> [String] {
        s.records.records.dropFirst(from).compactMap { if case .speech(.cancel(let c)) = $0.record { c.utterance.text } else { nil } }
    }

    @Test("an update moving focus, then an announcement: the focus speech is not cut, the announcement follows")
    func updateThenAnnounce() throws {
        var s = try activatedBread()
        let before = s.spoken.count, records = s.records.records.count
        s.wait(100)
        s.send("c1", #"{"type":"update","nodes":[{"id":"title","label":"Groceries (1)","traits":["header"],"frame":[0,0,390,44]}],"focus":"title"}"#, line: 5)
        s.send("c1", #"{"type":"notify","notification":"announcement","text":"Bread added"}"#, line: 6)
        s.wait(5000)
        #expect(Array(s.spoken.dropFirst(before)) == ["Groceries (1), heading", "Bread added"])
        #expect(!cancelled(s, from: records).contains("Groceries (1), heading"))
    }

    @Test("a layoutChanged moving focus, then an announcement: the same")
    func layoutChangedThenAnnounce() throws {
        var s = try activatedBread()
        let before = s.spoken.count, records = s.records.records.count
        s.send("c1", #"{"type":"notify","notification":"layoutChanged","focus":"banana"}"#, line: 5)
        s.send("c1", #"{"type":"notify","notification":"announcement","text":"Bread added"}"#, line: 6)
        s.wait(5000)
        #expect(Array(s.spoken.dropFirst(before)) == ["Banana, 0 in cart, adjustable", "Bread added"])
        #expect(!cancelled(s, from: records).contains { $0.hasPrefix("Banana") })
    }

    @Test("the announcement first, then the update: the announcement, then the new focus")
    func announceThenUpdate() throws {
        var s = try activatedBread()
        let before = s.spoken.count
        s.send("c1", #"{"type":"notify","notification":"announcement","text":"Bread added"}"#, line: 5)
        s.send("c1", #"{"type":"update","nodes":[{"id":"title","label":"Groceries (1)","traits":["header"],"frame":[0,0,390,44]}],"focus":"title"}"#, line: 6)
        s.wait(5000)
        #expect(Array(s.spoken.dropFirst(before)) == ["Bread added", "Groceries (1), heading"])
    }

    @Test("outside the user-action window the app's own focus move is the app's: an announcement cuts it, as before")
    func appAloneIsNotTheUser() throws {
        var s = try activatedBread()
        s.wait(2000)
        let before = s.spoken.count, records = s.records.records.count
        s.send("c1", #"{"type":"update","nodes":[{"id":"bread","label":"Bread","traits":["button"],"frame":[0,110,390,44]}],"focus":"title"}"#, line: 5)
        s.send("c1", #"{"type":"notify","notification":"announcement","text":"Sync finished"}"#, line: 6)
        s.wait(5000)
        #expect(Array(s.spoken.dropFirst(before)) == ["Groceries, heading", "Sync finished"])
        #expect(cancelled(s, from: records).last == "Groceries, heading")
    }
}

/// Several apps (Docs/protocol.md#several-apps): a switch says the app it lands in; an app
/// behind refreshing its screen stays behind.
@Suite("switching apps")
struct AppSwitchTests {
    typealias Served = ServiceTests.Served

    static let notesScreen = #"{"type":"screen","screen":{"id":"notes","title":"Notes","root":{"id":"nroot","children":[{"id":"note1","label":"Buy milk","traits":["staticText"],"frame":[0,0,390,44]}]}}}"#

    /// Groceries (c1) then Notes (c2), Notes in front.
    func twoApps() throws -> Served {
        var s = try ServiceTests().grocery()
        s.wait(3000)
        s.connect("c2")
        s.send("c2", #"{"type":"hello","v":1,"role":"app","name":"Notes"}"#)
        s.send("c2", Self.notesScreen, line: 2)
        s.wait(3000)
        return s
    }

    @Test("the first app is simply there; a switch to another app says its name first, on speech and on the display")
    func switchSaysTheName() throws {
        var s = try twoApps()
        #expect(s.spoken.dropFirst().first == "Groceries, heading", "after \"No app is connected\", the first app: no name before it")
        #expect(s.spoken.contains("Notes, Buy milk"))
        #expect(s.records.records.contains { if case .braille(let f) = $0.record { f.text == "Notes" && f.flash } else { false } },
                "the display flashes the app's name")
        let before = s.spoken.count
        s.connect("c3")
        s.send("c3", #"{"type":"hello","v":1,"role":"controller"}"#)
        s.send("c3", #"{"type":"foreground","name":"Groceries"}"#, line: 2)
        s.wait(3000)
        #expect(Array(s.spoken.dropFirst(before)) == ["Groceries, Groceries, heading"])
    }

    @Test("an app behind re-sending its screen (a refresh) stays behind without a word; its tree is kept for when it comes back")
    func backgroundRefreshStaysBehind() throws {
        var s = try twoApps()
        let before = s.spoken.count
        let refreshed = ServiceTests.groceryScreen.replacingOccurrences(of: #""label":"Bread""#, with: #""label":"Bread rolls""#)
        s.send("c1", refreshed, line: 3)
        s.wait(3000)
        #expect(s.spoken.count == before, "nothing said: \(s.spoken.dropFirst(before))")
        #expect(s.service.foreground == "c2")
        #expect(s.session.navigator.screen.id == "notes")
        // A new screen from the app behind brings it forward.
        s.send("c1", #"{"type":"screen","screen":{"id":"cart","title":"Cart","root":{"id":"croot","children":[{"id":"empty","label":"Cart is empty","traits":["staticText"],"frame":[0,0,390,44]}]}}}"#, line: 4)
        s.wait(3000)
        #expect(s.service.foreground == "c1")
        #expect(Array(s.spoken.dropFirst(before)) == ["Groceries, Cart is empty"])
    }
}
