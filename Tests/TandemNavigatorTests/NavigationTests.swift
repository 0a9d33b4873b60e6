import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
import TandemTestSupport

@Suite("Navigation commands")
struct NavigationTests {
    let fixture = "controls.catalog.json"

    @Test("starting focuses the screen's focus element, as after screenChanged")
    func startFocusesScreenFocus() throws {
        var nav = Navigator(catalog: try FixtureFolder.navigator.catalog(fixture))
        #expect(nav.start() == [.focused(screen: "controls", element: "controls.heading", reason: .start)])
    }

    @Test("a screen without a focus element starts on its first element")
    func startWithoutFocusField() throws {
        var nav = Navigator(catalog: try FixtureFolder.navigator.catalog(fixture), screen: "no.handlers")
        #expect(nav.start() == [.focused(screen: "no.handlers", element: "lonely.text", reason: .start)])
    }

    @Test("next and previous move one element and report a boundary at the ends instead of wrapping")
    func nextPreviousBoundary() throws {
        var nav = try Navigator(fixture: fixture)
        #expect(nav.perform(.previous) == [.boundary(.start)])
        #expect(nav.focusedID == "controls.heading")
        #expect(nav.perform(.next) == [.focused(screen: "controls", element: "volume.slider", reason: .user)])
        #expect(nav.perform(.previous) == [.focused(screen: "controls", element: "controls.heading", reason: .user)])
        _ = nav.perform(.last)
        #expect(nav.focusedID == "last.heading")
        #expect(nav.perform(.next) == [.boundary(.end)])
        #expect(nav.focusedID == "last.heading")
    }

    @Test("first and last jump to the ends of the reading order")
    func firstAndLast() throws {
        var nav = try Navigator(fixture: fixture)
        #expect(nav.perform(.last) == [.focused(screen: "controls", element: "last.heading", reason: .user)])
        #expect(nav.perform(.first) == [.focused(screen: "controls", element: "controls.heading", reason: .user)])
        // Jumping to where focus already is still reports the focus (VoiceOver re-reads it).
        #expect(nav.perform(.first) == [.focused(screen: "controls", element: "controls.heading", reason: .user)])
    }

    @Test("next heading and previous heading skip to headers and stop at the ends")
    func headings() throws {
        var nav = try Navigator(fixture: fixture)
        #expect(nav.perform(.nextHeading) == [.focused(screen: "controls", element: "second.heading", reason: .user)])
        #expect(nav.perform(.nextHeading) == [.focused(screen: "controls", element: "last.heading", reason: .user)])
        #expect(nav.perform(.nextHeading) == [.boundary(.end)])
        #expect(nav.perform(.previousHeading) == [.focused(screen: "controls", element: "second.heading", reason: .user)])
        #expect(nav.perform(.previousHeading) == [.focused(screen: "controls", element: "controls.heading", reason: .user)])
        #expect(nav.perform(.previousHeading) == [.boundary(.start)])
    }

    @Test("from an element between headings, the headings around it are found")
    func headingsFromBetween() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("plain.text")
        #expect(nav.perform(.previousHeading) == [.focused(screen: "controls", element: "second.heading", reason: .user)])
        try nav.focus("plain.text")
        #expect(nav.perform(.nextHeading) == [.focused(screen: "controls", element: "last.heading", reason: .user)])
        try nav.focus("player.play")
        #expect(nav.perform(.nextHeading) == [.focused(screen: "controls", element: "second.heading", reason: .user)])
    }

    @Test("a screen without headings reports a boundary for heading navigation")
    func noHeadings() throws {
        var nav = try Navigator(fixture: fixture, screen: "no.handlers")
        #expect(nav.perform(.nextHeading) == [.boundary(.end)])
        #expect(nav.perform(.previousHeading) == [.boundary(.start)])
    }

    @Test("on a screen with nothing reachable, moving reports a boundary and acting reports unhandled")
    func emptyScreen() throws {
        var nav = Navigator(catalog: try FixtureFolder.navigator.catalog("screens.catalog.json"), screen: "empty")
        #expect(nav.start().isEmpty)
        #expect(nav.focusedElement == nil)
        #expect(nav.perform(.next) == [.boundary(.none)])
        #expect(nav.perform(.previous) == [.boundary(.none)])
        #expect(nav.perform(.first) == [.boundary(.none)])
        #expect(nav.perform(.last) == [.boundary(.none)])
        #expect(nav.perform(.activate) == [.unhandled(.activate)])
        #expect(nav.perform(.increment) == [.boundary(.none)])
        #expect(nav.perform(.actionNext) == [.boundary(.none)])
        #expect(nav.perform(.magicTap) == [.unhandled(.magicTap)])
        #expect(nav.perform(.escape) == [.unhandled(.escape)])
    }

    @Test("commands the table gives to the session cause no navigator events")
    func outputOnlyCommands() throws {
        var nav = try Navigator(fixture: fixture)
        let others = Command.table.filter { $0.handler != .navigator }.map { $0.command(argument: 3) }
        #expect(others.contains(.readAll) && others.contains(.route(3)) && others.contains(.mark))
        for command in others {
            #expect(nav.perform(command).isEmpty, "\(command.name)")
        }
        #expect(nav.focusedID == "controls.heading")
    }

    @Test("read-from-top focuses the first element for reading, even when it is focused already")
    func readFromTop() throws {
        var nav = try Navigator(fixture: fixture)
        _ = nav.perform(.last)
        #expect(nav.focusFirstForReadAll() == [.focused(screen: "controls", element: "controls.heading", reason: .readAll)])
        #expect(nav.focusFirstForReadAll() == [.focused(screen: "controls", element: "controls.heading", reason: .readAll)])
    }

    @Test("read-all advances one element at a time and stops at the end of the screen")
    func readAll() throws {
        var nav = try Navigator(fixture: fixture)
        #expect(nav.advanceForReadAll() == [.focused(screen: "controls", element: "volume.slider", reason: .readAll)])
        _ = nav.perform(.last)
        #expect(nav.advanceForReadAll() == nil)
    }

    @Test("every command name in the table parses back to a command with that name")
    func commandNames() {
        for info in Command.table where info.argument == nil {
            #expect(Command(name: info.name)?.name == info.name)
            #expect(Command(name: info.name)?.info.summary == info.summary)
        }
        #expect(Set(Command.table.map(\.name)).count == Command.table.count, "names are unique")
        #expect(Command(name: "route 3") == .route(3))
        #expect(Command(name: "route  12") == .route(12))
        #expect(Command.route(7).name == "route 7")
        for bad in ["", "route", "route -1", "route x", "route 1 2", "next next", "Next", "jump"] {
            #expect(Command(name: bad) == nil, "\(bad)")
        }
    }
}
