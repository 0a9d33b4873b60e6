import Testing
import TandemModel
import TandemNavigator
import TandemTestSupport

@Suite("Modal scoping")
struct ModalTests {
    let fixture = "modal.catalog.json"

    @Test("a hidden modal is not reachable and does not scope the screen")
    func hiddenModalIgnored() throws {
        var nav = try Navigator(fixture: fixture)
        #expect(nav.orderIDs() == ["page.title", "page.open.sheet", "page.footer"])
        #expect(nav.readingOrder().modalRoot == nil)
    }

    @Test("focus moves into a modal sheet when it shows, and only the sheet can be reached")
    func focusMovesIntoModal() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("page.open.sheet")
        #expect(nav.perform(.activate) == [
            .activated(element: "page.open.sheet"),
            .focused(screen: "page", element: "sheet.title", reason: .modal),
        ])
        #expect(nav.orderIDs() == ["sheet.title", "sheet.close", "sheet.open.alert", "sheet.go.detail"])
        #expect(nav.perform(.previous) == [.boundary(.start)])
        #expect(nav.perform(.last) == [.focused(screen: "page", element: "sheet.go.detail", reason: .user)])
        #expect(nav.perform(.next) == [.boundary(.end)])
        #expect(nav.perform(.first) == [.focused(screen: "page", element: "sheet.title", reason: .user)])
    }

    @Test("focus returns to the element that was focused before the sheet when it hides")
    func focusReturnsWhenModalHides() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("page.open.sheet")
        _ = nav.perform(.activate)
        _ = nav.perform(.next)
        #expect(nav.focusedID == "sheet.close")
        #expect(nav.perform(.activate) == [
            .activated(element: "sheet.close"),
            .focused(screen: "page", element: "page.open.sheet", reason: .modal),
        ])
        #expect(nav.orderIDs() == ["page.title", "page.open.sheet", "page.footer"])
    }

    @Test("escape inside the sheet runs the sheet's escape handler and focus returns")
    func escapeClosesSheet() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("page.open.sheet")
        _ = nav.perform(.activate)
        #expect(nav.perform(.escape) == [.focused(screen: "page", element: "page.open.sheet", reason: .modal)])
    }

    @Test("an alert over a sheet scopes to the alert, and closing each gives focus back in turn")
    func nestedModals() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("page.open.sheet")
        _ = nav.perform(.activate)
        try nav.focus("sheet.open.alert")
        #expect(nav.perform(.activate) == [
            .activated(element: "sheet.open.alert"),
            .focused(screen: "page", element: "alert.message", reason: .modal),
        ])
        #expect(nav.orderIDs() == ["alert.message", "alert.cancel", "alert.delete"])
        _ = nav.perform(.next)
        #expect(nav.perform(.activate).last == .focused(screen: "page", element: "sheet.open.alert", reason: .modal))
        #expect(nav.orderIDs() == ["sheet.title", "sheet.close", "sheet.open.alert", "sheet.go.detail"])
        #expect(nav.perform(.escape) == [.focused(screen: "page", element: "page.open.sheet", reason: .modal)])
    }

    @Test("closing an alert and its sheet in one action gives focus back to where it was before both")
    func closeBothAtOnce() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("page.open.sheet")
        _ = nav.perform(.activate)
        try nav.focus("sheet.open.alert")
        _ = nav.perform(.activate)
        _ = nav.perform(.last)
        #expect(nav.focusedID == "alert.delete")
        #expect(nav.perform(.activate) == [
            .activated(element: "alert.delete"),
            .focused(screen: "page", element: "page.open.sheet", reason: .modal),
        ])
    }

    @Test("a modal shown from the start scopes the screen, and its elements are focused first")
    func modalFromTheStart() throws {
        var nav = Navigator(catalog: try FixtureFolder.navigator.catalog(fixture), screen: "starts.modal")
        #expect(nav.start() == [.focused(screen: "starts.modal", element: "dialog.text", reason: .start)])
        #expect(nav.orderIDs() == ["dialog.text", "dialog.ok"])
        _ = nav.perform(.next)
        _ = nav.perform(.activate)
        #expect(nav.focusedID == "behind.dialog")
        #expect(nav.orderIDs() == ["behind.dialog"])
    }

    @Test("a sheet left open while visiting another screen still gives focus back when it closes later")
    func modalAcrossScreens() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("page.open.sheet")
        _ = nav.perform(.activate)
        try nav.focus("sheet.go.detail")
        #expect(nav.perform(.activate).last == .focused(screen: "detail", element: "detail.title", reason: .screenChanged))
        // The detail screen opens a modal of its own and goes back from inside it.
        _ = nav.perform(.next)
        #expect(nav.perform(.activate).last == .focused(screen: "detail", element: "detail.alert.back", reason: .modal))
        #expect(nav.perform(.activate).last == .focused(screen: "page", element: "sheet.go.detail", reason: .back))
        #expect(nav.orderIDs() == ["sheet.title", "sheet.close", "sheet.open.alert", "sheet.go.detail"])
        #expect(nav.perform(.escape) == [.focused(screen: "page", element: "page.open.sheet", reason: .modal)])
        // And the sheet takes focus again the next time it opens.
        #expect(nav.perform(.activate).last == .focused(screen: "page", element: "sheet.title", reason: .modal))
    }

    @Test("a container an effect makes modal scopes the screen and takes focus; unmade, focus stays")
    func setModal() throws {
        var nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "root", "children": [
              {"id": "outside", "label": "Outside", "activate": [{"set": "panel", "modal": true}]},
              {"id": "panel", "children": [
                {"id": "panel.first", "label": "First", "activate": [{"set": "panel", "modal": false}]},
                {"id": "panel.second", "label": "Second"}]}]}}]}
            """)
        #expect(nav.perform(.activate).last == .focused(screen: "s", element: "panel.first", reason: .modal))
        #expect(nav.orderIDs() == ["panel.first", "panel.second"])
        // No longer modal but still shown: nothing disappeared, so focus stays where it is.
        #expect(nav.perform(.activate) == [.activated(element: "panel.first")])
        #expect(nav.focusedID == "panel.first")
        #expect(nav.orderIDs() == ["outside", "panel.first", "panel.second"])
    }
}
