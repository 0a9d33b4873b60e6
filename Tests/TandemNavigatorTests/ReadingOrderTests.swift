import Testing
import TandemModel
import TandemNavigator

@Suite("Reading order")
struct ReadingOrderTests {
    let fixture = "reading-order.catalog.json"

    @Test("frames are read top to bottom in rows: tops 7 points apart are one row, read left to right; 8 apart are two")
    func rowsLeftToRight() throws {
        var nav = try Navigator(fixture: fixture, screen: "rows")
        // The 8-apart pair overlaps by 32 of 40 points, which made one row under the old rule.
        #expect(nav.orderIDs() == ["seven.apart.left.lower", "seven.apart.right.higher", "eight.apart.right.higher", "eight.apart.left.lower"])
    }

    @Test("a right-to-left language reads each row from the right")
    func rowsRightToLeft() throws {
        for language in ["ar", "he-IL", "fa"] {
            var nav = try Navigator(fixture: fixture, screen: "rows", language: language)
            #expect(nav.orderIDs() == ["seven.apart.right.higher", "seven.apart.left.lower", "eight.apart.right.higher", "eight.apart.left.lower"], "\(language)")
        }
    }

    @Test("switching the language rebuilds the order in the new direction")
    func setLanguageRebuilds() throws {
        var nav = try Navigator(fixture: fixture, screen: "rows")
        #expect(nav.orderIDs().first == "seven.apart.left.lower")
        nav.setLanguage("ar")
        #expect(nav.language == "ar")
        #expect(nav.orderIDs().first == "seven.apart.right.higher")
        nav.setLanguage("en")
        #expect(nav.orderIDs().first == "seven.apart.left.lower")
    }

    @Test("right-to-left is decided by the language subtag")
    func rightToLeftLanguages() {
        #expect(ReadingOrder.isRightToLeft("ar"))
        #expect(ReadingOrder.isRightToLeft("AR-eg"))
        #expect(ReadingOrder.isRightToLeft("he"))
        #expect(!ReadingOrder.isRightToLeft("en"))
        #expect(!ReadingOrder.isRightToLeft("pt-BR"))
        #expect(!ReadingOrder.isRightToLeft("arn"), "Mapudungun is not Arabic")
        #expect(!ReadingOrder.isRightToLeft(""))
    }

    @Test("order overrides the frames, excludes unlisted elements, and a listed container expands to its own order")
    func explicitOrder() throws {
        var nav = try Navigator(fixture: fixture, screen: "order")
        #expect(nav.orderIDs() == ["form.submit", "form.fields.name", "form.fields.email", "form.title", "after.form"])
        let order = nav.readingOrder()
        #expect(!order.contains(try #require(nav.screen.index["form.unlisted"])))
    }

    @Test("a group keeps its children together, while a plain container is flattened and sorted with its cousins")
    func groupVersusPlainContainer() throws {
        var nav = try Navigator(fixture: fixture, screen: "groups")
        #expect(nav.orderIDs() == ["title.row1", "plain.row2", "sibling.row3", "plain.row4", "group.row5", "group.row7", "sibling.row6"])
    }

    @Test("a hidden subtree is skipped, also when an order lists it")
    func hiddenSubtreeSkipped() throws {
        var nav = try Navigator(fixture: fixture, screen: "hidden")
        #expect(nav.orderIDs() == ["visible.first", "ordered.visible.item", "visible.last"])
    }

    @Test("without a frame on every element, declaration order is kept")
    func declarationOrderWithoutFrames() throws {
        var nav = try Navigator(fixture: fixture, screen: "declaration")
        #expect(nav.orderIDs() == ["declared.first.lowest", "declared.second.no.frame", "declared.third.highest"])
    }

    @Test("a group without a frame of its own is placed by its first element")
    func containerUnionFrame() throws {
        var nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "root", "children": [
              {"id": "bottom.group", "group": true, "children": [
                {"id": "bottom.group.left", "label": "L", "frame": [0, 500, 100, 40]},
                {"id": "bottom.group.right", "label": "R", "frame": [200, 500, 100, 40]}]},
              {"id": "middle", "label": "M", "frame": [0, 250, 300, 40]},
              {"id": "top", "label": "T", "frame": [0, 0, 300, 40]}]}}]}
            """)
        #expect(nav.orderIDs() == ["top", "middle", "bottom.group.left", "bottom.group.right"])
    }

    @Test("a group is placed where its first element would be, not by its union frame")
    func groupPlacedByFirstElement() throws {
        // The group's union starts at x 0, left of the sibling; its first element is right of it.
        var nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "root", "children": [
              {"id": "group", "group": true, "children": [
                {"id": "group.first.right", "label": "G1", "frame": [250, 4, 100, 40]},
                {"id": "group.second.below.left", "label": "G2", "frame": [0, 300, 100, 40]}]},
              {"id": "sibling.top", "label": "S", "frame": [200, 0, 40, 40]}]}}]}
            """)
        #expect(nav.orderIDs() == ["sibling.top", "group.first.right", "group.second.below.left"])
    }

    @Test("a group whose first element is 8 points below another element's top reads after it")
    func groupFirstElementBelowAnotherTop() throws {
        var nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "root", "children": [
              {"id": "group", "group": true, "children": [
                {"id": "group.first.left.lower", "label": "G1", "frame": [0, 8, 100, 40]},
                {"id": "group.second", "label": "G2", "frame": [0, 60, 100, 40]}]},
              {"id": "sibling.right.higher", "label": "S", "frame": [200, 0, 100, 40]}]}}]}
            """)
        #expect(nav.orderIDs() == ["sibling.right.higher", "group.first.left.lower", "group.second"])
    }

    @Test("an order is placed by its geometrically first element and read in its own order")
    func orderPlacedByTopmostElement() throws {
        var nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "root", "children": [
              {"id": "stack", "order": ["stack.lower", "stack.upper"], "children": [
                {"id": "stack.lower", "label": "Lower", "frame": [0, 300, 100, 40]},
                {"id": "stack.upper", "label": "Upper", "frame": [0, 100, 100, 40]}]},
              {"id": "middle", "label": "Middle", "frame": [0, 200, 100, 40]}]}}]}
            """)
        #expect(nav.orderIDs() == ["stack.lower", "stack.upper", "middle"])
    }

    @Test("on a tablet, tops less than 13 points apart are one row")
    func tabletThreshold() throws {
        func order(device: String) throws -> [String] {
            var nav = try Navigator(json: """
                {"format": "tandem.catalog/1", "device": "\(device)", "screens": [{"id": "s", "root": {"id": "root", "children": [
                  {"id": "right.higher", "label": "R", "frame": [200, 0, 100, 40]},
                  {"id": "left.12.lower", "label": "L", "frame": [0, 12, 100, 40]}]}}]}
                """)
            return nav.orderIDs()
        }
        #expect(try order(device: "phone") == ["right.higher", "left.12.lower"])
        #expect(try order(device: "tablet") == ["left.12.lower", "right.higher"])
    }

    @Test("rows start at their topmost element: a chain of small steps does not make one long row")
    func rowsAreAnchoredAtTheirTop() throws {
        var nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "root", "children": [
              {"id": "c.y12.left", "label": "C", "frame": [0, 12, 50, 40]},
              {"id": "b.y6.middle", "label": "B", "frame": [100, 6, 50, 40]},
              {"id": "a.y0.right", "label": "A", "frame": [200, 0, 50, 40]}]}}]}
            """)
        // A and B are one row (6 apart); C is 12 below A, so it starts the next row.
        #expect(nav.orderIDs() == ["b.y6.middle", "a.y0.right", "c.y12.left"])
    }

    @Test("the default accessible rule: content and no accessible child makes an element; explicit accessible wins")
    func defaultAccessibleRule() throws {
        var nav = try Navigator(fixture: fixture, screen: "cells")
        #expect(nav.orderIDs() == [
            "album.cell",                     // accessible: true, stands for its whole subtree
            "hint.only",                      // a hint is something to present
            "section.button",                 // its labelled parent has an accessible child, so is not one
            "labelled.with.hidden.child",     // the only accessible child is hidden
            "labelled.with.silent.children",  // children with nothing to present
            "forced.on",                      // accessible: true with nothing to present
        ])
        let order = nav.readingOrder()
        let screen = nav.screen
        func accessible(_ id: String) -> Bool { order.accessible[screen.index[id]!] }
        #expect(!accessible("empty.spacer"))
        #expect(!accessible("labelled.container"))
        #expect(!accessible("forced.off"))
        #expect(accessible("album.title"), "accessible in itself, though its cell stands for it")
    }

    @Test("a grouped cell without a label is labelled by its descendants' labels in reading order, joined with \", \"")
    func joinedLabelOfGroupedCell() throws {
        let nav = try Navigator(fixture: fixture, screen: "cells")
        let screen = nav.screen
        let cell = try #require(screen.index["album.cell"])
        let descendants = ReadingOrder.descendants(of: cell, in: screen, language: nav.language)
        #expect(descendants.map { screen.elements[$0].id } == ["album.title", "album.artist", "album.cover"])
        let joined = descendants.compactMap { screen.elements[$0].label.map { nav.catalog.resolve($0, language: nav.language) } }
            .joined(separator: ", ")
        #expect(joined == "Abbey Road, The Beatles")
    }

    @Test("descendants are listed depth first, each level in reading order")
    func descendantsAreDepthFirst() throws {
        let nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "cell", "accessible": true, "children": [
              {"id": "lower", "frame": [0, 100, 100, 40], "children": [{"id": "lower.inner", "label": "3"}]},
              {"id": "upper", "frame": [0, 0, 100, 40], "children": [
                {"id": "upper.inner.right", "label": "2", "frame": [50, 0, 50, 40]},
                {"id": "upper.inner.left", "label": "1", "frame": [0, 0, 50, 40]}]}]}}]}
            """)
        let ids = ReadingOrder.descendants(of: 0, in: nav.screen, language: "en").map { nav.screen.elements[$0].id }
        #expect(ids == ["upper", "upper.inner.left", "upper.inner.right", "lower", "lower.inner"])
    }

    @Test("a tree nested as deep as the parser allows decodes and navigates without exhausting the stack")
    func deepTree() throws {
        // Each element level is two JSON levels (object, children array): 250 levels is 504 deep.
        var json = #"{"format": "tandem.catalog/1", "screens": [{"id": "deep", "root": "#
        for i in 0..<250 { json += #"{"id": "level.\#(i)", "children": ["# }
        json += #"{"id": "bottom", "label": "Bottom", "escape": [{"hide": "level.1"}]}"#
        json += String(repeating: "]}", count: 250) + "}]}"
        var nav = try Navigator(json: json)
        #expect(nav.orderIDs() == ["bottom"])
        #expect(nav.focusedID == "bottom")
        #expect(ReadingOrder.descendants(of: 0, in: nav.screen, language: "en").count == 250)
        #expect(nav.perform(.escape).isEmpty, "hiding an ancestor of the only element leaves nothing to focus")
        #expect(nav.focusedElement == nil)
    }

    @Test("an accessible container stands for its subtree, even with an order of its own")
    func accessibleContainerWithOrder() throws {
        var nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "root", "children": [
              {"id": "card", "accessible": true, "order": ["card.b", "card.a"], "children": [
                {"id": "card.a", "label": "A"}, {"id": "card.b", "label": "B"}]},
              {"id": "after", "label": "After"}]}}]}
            """)
        #expect(nav.orderIDs() == ["card", "after"])
    }

    @Test("next visits every reachable element once, in reading order")
    func nextVisitsTheOrder() throws {
        var nav = try Navigator(fixture: fixture, screen: "groups")
        let expected = nav.orderIDs()
        var visited = [try #require(nav.focusedID)]
        while case .focused(_, let id, .user)? = nav.perform(.next).first { visited.append(id) }
        #expect(visited == expected)
    }
}
