import Testing
import TandemModel
import TandemNavigator
import TandemTestSupport

@Suite("Screens and the back stack")
struct ScreenTests {
    let fixture = "screens.catalog.json"

    @Test("a screen effect goes to the new screen and focuses its focus element")
    func screenEffect() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("home.open.detail")
        #expect(nav.perform(.activate) == [
            .activated(element: "home.open.detail"),
            .screenChanged(screen: "detail"),
            .focused(screen: "detail", element: "detail.title", reason: .screenChanged),
        ])
        #expect(nav.screen.id == "detail")
    }

    @Test("back returns to the previous screen and restores the focus it had there")
    func backRestoresFocus() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("home.open.detail")
        _ = nav.perform(.activate)
        _ = nav.perform(.last)
        #expect(nav.perform(.activate) == [
            .activated(element: "detail.back"),
            .screenChanged(screen: "home"),
            .focused(screen: "home", element: "home.open.detail", reason: .back),
        ])
    }

    @Test("escape with no handler goes back when there is a back stack")
    func escapeGoesBack() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("home.open.detail")
        _ = nav.perform(.activate)
        #expect(nav.perform(.escape) == [
            .screenChanged(screen: "home"),
            .focused(screen: "home", element: "home.open.detail", reason: .back),
        ])
        #expect(nav.perform(.escape) == [.unhandled(.escape)], "the stack is empty again")
    }

    @Test("the back stack unwinds several screens, each restoring its own focus")
    func backStackUnwinds() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("home.open.detail")
        _ = nav.perform(.activate)
        _ = nav.perform(.next)
        #expect(nav.perform(.activate).last == .focused(screen: "deeper", element: "deeper.text", reason: .screenChanged),
                "a screen without focus starts on its first element")
        _ = nav.perform(.escape)
        #expect(nav.screen.id == "detail" && nav.focusedID == "detail.next")
        _ = nav.perform(.escape)
        #expect(nav.screen.id == "home" && nav.focusedID == "home.open.detail")
    }

    @Test("going back with an empty back stack does nothing")
    func backWithEmptyStack() throws {
        var nav = try Navigator(fixture: fixture)
        #expect(nav.post(.back).isEmpty)
        #expect(nav.screen.id == "home" && nav.focusedID == "home.title")
    }

    @Test("a navigator can start on any screen by id")
    func startOnScreen() throws {
        var nav = Navigator(catalog: try FixtureFolder.navigator.catalog(fixture), screen: "confirmed")
        #expect(nav.start() == [.focused(screen: "confirmed", element: "confirmed.title", reason: .start)])
    }

    @Test("screenChanged focuses the named element, or the screen's focus element")
    func postScreenChanged() throws {
        var nav = try Navigator(fixture: fixture)
        _ = nav.perform(.next)
        #expect(nav.post(.screenChanged(focus: nil)) == [
            .screenChanged(screen: "home"),
            .focused(screen: "home", element: "home.title", reason: .screenChanged),
        ])
        #expect(nav.post(.screenChanged(focus: "home.counter")) == [
            .screenChanged(screen: "home"),
            .focused(screen: "home", element: "home.counter", reason: .screenChanged),
        ])
    }

    @Test("layoutChanged moves focus to a reachable element and otherwise leaves it")
    func postLayoutChanged() throws {
        var nav = try Navigator(fixture: fixture)
        #expect(nav.post(.layoutChanged(focus: "home.neighbour")) == [.focused(screen: "home", element: "home.neighbour", reason: .layoutChanged)])
        #expect(nav.post(.layoutChanged(focus: nil)).isEmpty)
        #expect(nav.post(.layoutChanged(focus: "home.spinner")).isEmpty, "hidden")
        #expect(nav.post(.layoutChanged(focus: "detail.title")).isEmpty, "on another screen")
        #expect(nav.focusedID == "home.neighbour")
    }

    @Test("pageScrolled is passed on with its text")
    func postPageScrolled() throws {
        var nav = try Navigator(fixture: fixture)
        #expect(nav.post(.pageScrolled(text: "Page 3 of 5")) == [.pageScrolled(text: "Page 3 of 5")])
    }
}
