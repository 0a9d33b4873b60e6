import Testing
import TandemModel
import TandemNavigator

@Suite("Acting on the focused element: activate, adjust, custom actions, magic tap, escape")
struct ActionTests {
    let fixture = "controls.catalog.json"

    // MARK: activate

    @Test("activate runs the element's effects after reporting the activation")
    func activateRunsEffects() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("mail.row")
        #expect(nav.perform(.activate) == [.activated(element: "mail.row"), .announcement(text: "Opened", high: false)])
    }

    @Test("activating an element with no activation is reported as unhandled")
    func activateUnhandled() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("plain.text")
        #expect(nav.perform(.activate) == [.unhandled(.activate)])
    }

    // MARK: adjustable

    @Test("increment and decrement step within the bounds and report a boundary at them")
    func adjustWithinBounds() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("volume.slider")
        #expect(nav.perform(.increment) == [.valueChanged(element: "volume.slider"), .announcement(text: "Volume changed", high: false)])
        #expect(nav.focusedElement?.adjust?.value == 3)
        #expect(nav.perform(.increment) == [.boundary(.end)], "at the maximum: no change and no effects")
        #expect(nav.focusedElement?.adjust?.value == 3)
        for _ in 0..<3 { _ = nav.perform(.decrement) }
        #expect(nav.focusedElement?.adjust?.value == 0)
        #expect(nav.perform(.decrement) == [.boundary(.start)])
    }

    @Test("an adjustable's value renders through its format")
    func adjustFormat() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("volume.slider")
        #expect(nav.focusedElement?.displayValue(language: nav.language) == "2 of 3")
        _ = nav.perform(.decrement)
        #expect(nav.focusedElement?.displayValue(language: nav.language) == "1 of 3")
    }

    @Test("a decimal value is written with a decimal comma in pt-BR and a point in English")
    func decimalComma() throws {
        var pt = try Navigator(fixture: fixture, language: "pt-BR")
        try pt.focus("ratio.slider")
        _ = pt.perform(.increment)
        #expect(pt.focusedElement?.displayValue(language: pt.language) == "0,75")
        var en = try Navigator(fixture: fixture)
        try en.focus("ratio.slider")
        _ = en.perform(.increment)
        #expect(en.focusedElement?.displayValue(language: en.language) == "0.75")
        #expect(en.perform(.increment) == [.valueChanged(element: "ratio.slider")])
        #expect(en.focusedElement?.displayValue(language: en.language) == "1")
        #expect(en.perform(.increment) == [.boundary(.end)])
    }

    @Test("repeated decimal steps land exactly on the bound, without drift")
    func noDecimalDrift() throws {
        var nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "tenths", "label": "Tenths",
              "adjust": {"value": 0, "min": 0, "max": 1, "step": 0.1}}}]}
            """)
        for _ in 0..<10 { _ = nav.perform(.increment) }
        #expect(nav.focusedElement?.adjust?.value == 1)
        #expect(nav.perform(.increment) == [.boundary(.end)])
        for _ in 0..<3 { _ = nav.perform(.decrement) }
        #expect(nav.focusedElement?.displayValue(language: "en") == "0.7")
    }

    @Test("a step that would pass the bound stops at the bound")
    func stepClampsToBound() throws {
        var nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "odd", "label": "Odd",
              "adjust": {"value": 8, "min": 0, "max": 10, "step": 3}}}]}
            """)
        #expect(nav.perform(.increment) == [.valueChanged(element: "odd")])
        #expect(nav.focusedElement?.adjust?.value == 10)
    }

    @Test("increment on an element that is not adjustable is a boundary with nothing to do")
    func incrementNotAdjustable() throws {
        var nav = try Navigator(fixture: fixture)
        #expect(nav.perform(.increment) == [.boundary(.none)])
        #expect(nav.perform(.decrement) == [.boundary(.none)])
    }

    @Test("an adjust effect steps its target by that many steps and stops at the bound")
    func adjustEffect() throws {
        var nav = try Navigator(fixture: fixture, screen: "no.handlers")
        try nav.focus("lonely.remote.stepper")
        #expect(nav.perform(.activate) == [.activated(element: "lonely.remote.stepper"), .valueChanged(element: "lonely.remote.stepper")])
        #expect(nav.focusedElement?.adjust?.value == 2)
        #expect(nav.perform(.activate) == [.activated(element: "lonely.remote.stepper")], "already at the maximum")
    }

    @Test("extreme adjust bounds and steps never trap")
    func extremeAdjust() throws {
        var nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "huge", "label": "Huge",
              "adjust": {"value": 1e300, "min": -1.7e308, "max": 1.7e308, "step": 1e307}}}]}
            """)
        for _ in 0..<40 { _ = nav.perform(.increment) }
        let value = try #require(nav.focusedElement?.adjust?.value)
        #expect(value.isFinite && value <= 1.7e308)
        let shown = nav.focusedElement?.displayValue(language: "pt-BR")
        #expect(shown?.isEmpty == false)
        for _ in 0..<80 { _ = nav.perform(.decrement) }
        #expect(nav.focusedElement?.adjust?.value == -1.7e308)
    }

    // MARK: custom actions rotor

    @Test("action-next cycles through the custom actions, then back to the default activation")
    func rotorCycles() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("mail.row")
        #expect(nav.perform(.actionNext) == [.actionSelected(element: "mail.row", name: "Archive")])
        #expect(nav.perform(.actionNext) == [.actionSelected(element: "mail.row", name: "Delete")])
        #expect(nav.perform(.actionNext) == [.actionSelected(element: "mail.row", name: nil)])
        #expect(nav.rotor == nil)
        #expect(nav.perform(.actionNext) == [.actionSelected(element: "mail.row", name: "Archive")])
    }

    @Test("action-previous cycles the other way, from the default activation to the last action")
    func rotorCyclesBackwards() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("mail.row")
        #expect(nav.perform(.actionPrevious) == [.actionSelected(element: "mail.row", name: "Delete")])
        #expect(nav.perform(.actionPrevious) == [.actionSelected(element: "mail.row", name: "Archive")])
        #expect(nav.perform(.actionPrevious) == [.actionSelected(element: "mail.row", name: nil)])
    }

    @Test("activate performs the selected custom action instead of the default activation")
    func activatePerformsSelectedAction() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("mail.row")
        _ = nav.perform(.actionNext)
        #expect(nav.perform(.activate) == [.actionPerformed(element: "mail.row", name: "Archive"), .valueChanged(element: "mail.row")])
        #expect(nav.focusedElement?.value == "Archived")
    }

    @Test("a custom action that removes its element moves focus to the next element")
    func actionRemovesElement() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("mail.row")
        _ = nav.perform([.actionNext, .actionNext])
        #expect(nav.perform(.activate) == [
            .actionPerformed(element: "mail.row", name: "Delete"),
            .announcement(text: "Deleted", high: false),
            .focused(screen: "controls", element: "player.play", reason: .lost),
        ])
        #expect(nav.rotor == nil)
    }

    @Test("the rotor resets to the default activation when focus moves")
    func rotorResetsOnFocusMove() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("mail.row")
        _ = nav.perform(.actionNext)
        #expect(nav.rotor == 0)
        _ = nav.perform([.next, .previous])
        #expect(nav.focusedID == "mail.row")
        #expect(nav.rotor == nil)
        #expect(nav.perform(.activate).first == .activated(element: "mail.row"))
    }

    @Test("the rotor on an element without custom actions is a boundary with nothing to do")
    func rotorWithoutActions() throws {
        var nav = try Navigator(fixture: fixture)
        #expect(nav.perform(.actionNext) == [.boundary(.none)])
        #expect(nav.perform(.actionPrevious) == [.boundary(.none)])
    }

    // MARK: magic tap and escape

    @Test("magic tap uses the focused element's handler, else the nearest ancestor's, else the screen's")
    func magicTapLookup() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("player.own.magic")
        #expect(nav.perform(.magicTap) == [.announcement(text: "Own magic tap", high: false)])
        try nav.focus("player.play")
        #expect(nav.perform(.magicTap) == [.announcement(text: "Player magic tap", high: false)])
        try nav.focus("plain.text")
        #expect(nav.perform(.magicTap) == [.announcement(text: "Screen magic tap", high: false)])
    }

    @Test("escape uses the focused element's handler, else the nearest ancestor's, else the screen's")
    func escapeLookup() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("player.own.magic")
        #expect(nav.perform(.escape) == [.announcement(text: "Player escape", high: false)])
        try nav.focus("controls.heading")
        #expect(nav.perform(.escape) == [.announcement(text: "Screen escape", high: false)])
    }

    @Test("magic tap, escape and scrolling with no handler anywhere and no back stack are unhandled")
    func noHandlers() throws {
        var nav = try Navigator(fixture: fixture, screen: "no.handlers")
        #expect(nav.perform(.magicTap) == [.unhandled(.magicTap)])
        #expect(nav.perform(.escape) == [.unhandled(.escape)])
        #expect(nav.perform(.scrollUp) == [.unhandled(.scrollUp)])
        #expect(nav.perform(.scrollDown) == [.unhandled(.scrollDown)])
    }

    @Test("scroll-up and scroll-down use handlers looked up outwards from the focused element")
    func scrollHandlers() throws {
        var nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "list",
              "scrollDown": [{"post": "pageScrolled", "text": "Page 2 of 3"}],
              "scrollUp": [{"post": "pageScrolled", "text": "Page 1 of 3"}],
              "children": [{"id": "list.row", "label": "Row"}]}}]}
            """)
        #expect(nav.perform(.scrollDown) == [.pageScrolled(text: "Page 2 of 3")])
        #expect(nav.perform(.scrollUp) == [.pageScrolled(text: "Page 1 of 3")])
    }
}
