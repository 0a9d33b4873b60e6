import Testing
import TandemModel
import TandemNavigator
import TandemTestSupport

/// A live reload (`tandem run` watching its catalog): the user stays where they were, and the
/// screens they came through are still the way back, by id, whatever the new file's order.
@Suite("live reload")
struct ReloadTests {
    /// A catalog of the screens `ids` in that order; each has a title and, when the screen after
    /// it in `a`, `b`, `c`, `d` is there too, a button that opens it (the flow is the same in any
    /// order).
    static func catalog(_ ids: [String]) throws -> Catalog {
        let flow = ["a", "b", "c", "d"]
        let screens = ids.map { id -> String in
            let next = flow.firstIndex(of: id).flatMap { $0 + 1 < flow.count ? flow[$0 + 1] : nil }.flatMap { ids.contains($0) ? $0 : nil }
            let open = next.map { #", { "id": "\#(id).open", "label": "Open \#($0)", "traits": ["button"], "activate": [{ "screen": "\#($0)" }] }"# } ?? ""
            return #"""
                { "id": "\#(id)", "focus": "\#(id).title", "root": { "id": "\#(id).root", "children": [
                  { "id": "\#(id).title", "label": "Screen \#(id)", "traits": ["header"] }\#(open) ] } }
                """#
        }
        return try decodeCatalog(#"{ "format": "tandem.catalog/1", "language": "en", "start": "a", "screens": [ "# + screens.joined(separator: ",\n") + "] }")
    }

    /// A navigator that went a → b → c through the buttons, each button focused when pressed.
    static func walkedToC(_ ids: [String] = ["a", "b", "c", "d"]) throws -> Navigator {
        var nav = try Navigator(catalog: catalog(ids))
        _ = nav.start()
        for id in ["a", "b"] {
            try nav.focus("\(id).open")
            _ = nav.perform(.activate)
        }
        try #require(nav.screen.id == "c")
        return nav
    }

    @Test("a reload that reorders the screens keeps the way back by id: escape returns to b, then a")
    func reorderedScreensKeepTheBackStack() throws {
        var nav = try Self.walkedToC()
        #expect(nav.reload(try Self.catalog(["d", "c", "b", "a"])).isEmpty, "focus stays on c's title")
        #expect(nav.screen.id == "c" && nav.focusedID == "c.title")
        _ = nav.perform(.escape)
        #expect(nav.screen.id == "b" && nav.focusedID == "b.open", "back to b, on the button that opened c")
        _ = nav.perform(.escape)
        #expect(nav.screen.id == "a" && nav.focusedID == "a.open")
        #expect(nav.perform(.escape) == [.unhandled(.escape)])
    }

    @Test("a reload that removes a screen on the way back drops it: escape skips to a")
    func removedScreenLeavesTheBackStack() throws {
        var nav = try Self.walkedToC()
        _ = nav.reload(try Self.catalog(["c", "a", "d"]))
        #expect(nav.screen.id == "c")
        _ = nav.perform(.escape)
        // b is gone: back to a, whose button to b went with it, so on a's focus element.
        #expect(nav.screen.id == "a" && nav.focusedID == "a.title", "b is gone: back to a")
        #expect(nav.perform(.escape) == [.unhandled(.escape)])
    }

    @Test("a reload that removes the current screen goes to the start screen's focus")
    func removedCurrentScreenGoesToStart() throws {
        var nav = try Self.walkedToC()
        let events = nav.reload(try Self.catalog(["a", "b", "d"]))
        #expect(events.last == .focused(screen: "a", element: "a.title", reason: .screenChanged))
    }
}
