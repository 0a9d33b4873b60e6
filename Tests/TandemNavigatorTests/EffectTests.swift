import Testing
import TandemModel
import TandemNavigator
import TandemTestSupport

@Suite("Effects over time and changes to elements")
struct EffectTests {
    let fixture = "screens.catalog.json"

    // MARK: load

    @Test("load shows the indicator, makes it modal, focuses it and schedules its steps")
    func loadStarts() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("home.checkout")
        #expect(nav.perform(.activate) == [
            .activated(element: "home.checkout"),
            .schedule(timer: .loadStep(load: 0, step: 1), afterMs: 250),
            .schedule(timer: .loadStep(load: 0, step: 2), afterMs: 500),
            .schedule(timer: .loadStep(load: 0, step: 3), afterMs: 750),
            .schedule(timer: .loadStep(load: 0, step: 4), afterMs: 1000),
            .focused(screen: "home", element: "home.spinner", reason: .modal),
        ])
        let spinner = try #require(nav.element("home.spinner"))
        #expect(!spinner.hidden && spinner.modal)
        #expect(spinner.progress?.value == 0)
        #expect(nav.orderIDs() == ["home.spinner"])
    }

    @Test("each load step reports progress; the last hides the indicator, runs then, and gives focus back")
    func loadSteps() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("home.checkout")
        _ = nav.perform(.activate)
        for step in 1...3 {
            #expect(nav.fire(.loadStep(load: 0, step: step)) == [.progress(element: "home.spinner", step: step, steps: 4, focused: true)])
            #expect(nav.element("home.spinner")?.progress?.value == Double(step) / 4)
            #expect(nav.focusedID == "home.spinner")
        }
        #expect(nav.fire(.loadStep(load: 0, step: 4)) == [
            .progress(element: "home.spinner", step: 4, steps: 4, focused: true),
            .announcement(text: "Order placed", high: false),
            .focused(screen: "home", element: "home.checkout", reason: .modal),
        ])
        let spinner = try #require(nav.element("home.spinner"))
        #expect(spinner.hidden && !spinner.modal)
        #expect(spinner.progress?.value == 1)
        #expect(!nav.orderIDs().contains("home.spinner"))
        #expect(nav.fire(.loadStep(load: 0, step: 4)).isEmpty, "a finished load ignores its timers")
    }

    @Test("a load whose then goes to another screen ends on that screen's focus element")
    func loadThenScreen() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("home.pay")
        let events = nav.perform(.activate)
        #expect(events.filter { if case .schedule = $0 { true } else { false } } == [
            .schedule(timer: .loadStep(load: 0, step: 1), afterMs: 250),
            .schedule(timer: .loadStep(load: 0, step: 2), afterMs: 500),
        ])
        _ = nav.fire(.loadStep(load: 0, step: 1))
        #expect(nav.fire(.loadStep(load: 0, step: 2)) == [
            .progress(element: "home.spinner", step: 2, steps: 2, focused: true),
            .screenChanged(screen: "confirmed"),
            .focused(screen: "confirmed", element: "confirmed.title", reason: .screenChanged),
        ])
        _ = nav.perform(.escape)
        #expect(nav.screen.id == "home" && nav.focusedID == "home.pay", "back returns to where the load started")
    }

    @Test("each load gets its own token, so two loads' timers do not mix")
    func loadTokens() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("home.checkout")
        _ = nav.perform(.activate)
        _ = nav.fire(.loadStep(load: 0, step: 4))
        try nav.focus("home.checkout")
        #expect(nav.perform(.activate).contains(.schedule(timer: .loadStep(load: 1, step: 4), afterMs: 1000)))
        #expect(nav.fire(.loadStep(load: 0, step: 1)).isEmpty)
        #expect(nav.fire(.loadStep(load: 1, step: 1)) == [.progress(element: "home.spinner", step: 1, steps: 4, focused: true)])
    }

    @Test("two loads at once: each step says whether its indicator had focus, the last one's too")
    func twoLoadsSayWhichHasFocus() throws {
        var nav = Navigator(catalog: try FixtureFolder.service.catalog("two-indicators.catalog.json"))
        _ = nav.start()
        try nav.focus("sync.all")
        // Both indicators appear at once; the later one in the tree is the top modal and takes focus.
        #expect(nav.perform(.activate).last == .focused(screen: "sync", element: "music.loading", reason: .modal))
        // Load 0 is the photos upload (4 steps), load 1 the music download (3 steps).
        #expect(nav.fire(.loadStep(load: 0, step: 1)) == [.progress(element: "photos.loading", step: 1, steps: 4, focused: false)])
        #expect(nav.fire(.loadStep(load: 1, step: 1)) == [.progress(element: "music.loading", step: 1, steps: 3, focused: true)])
        #expect(nav.fire(.loadStep(load: 0, step: 4)) == [.progress(element: "photos.loading", step: 4, steps: 4, focused: false)])
        #expect(nav.focusedID == "music.loading", "the other indicator ending leaves focus where it is")
        // The last step hides the indicator and gives focus back before it is presented: the
        // event still says the indicator had focus when the step happened.
        let end = nav.fire(.loadStep(load: 1, step: 3))
        #expect(end.first == .progress(element: "music.loading", step: 3, steps: 3, focused: true))
        #expect(nav.focusedID == "sync.all")
    }

    // MARK: announcements

    @Test("an announcement with a delay comes back as a schedule, and firing it announces")
    func delayedAnnouncement() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("home.remind")
        #expect(nav.perform(.activate) == [
            .activated(element: "home.remind"),
            .announcement(text: "Reminder set", high: false),
            .schedule(timer: .announce(text: "Time to go", high: false), afterMs: 1500),
            .schedule(timer: .announce(text: "Urgent later", high: true), afterMs: 3000),
        ])
        #expect(nav.fire(.announce(text: "Time to go", high: false)) == [.announcement(text: "Time to go", high: false)])
        #expect(nav.fire(.announce(text: "Urgent later", high: true)) == [.announcement(text: "Urgent later", high: true)])
        #expect(nav.focusedID == "home.remind")
    }

    // MARK: changes to elements

    @Test("when the focused element is removed, focus goes to its next neighbour")
    func focusedElementRemoved() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("home.remove.me")
        #expect(nav.perform(.activate) == [
            .activated(element: "home.remove.me"),
            .focused(screen: "home", element: "home.neighbour", reason: .lost),
        ])
    }

    @Test("when the last element is removed, focus goes to the one before it")
    func lastElementRemoved() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("home.last.removable")
        #expect(nav.perform(.activate).last == .focused(screen: "home", element: "home.fill.badge", reason: .lost))
    }

    @Test("an app hiding the focused element moves focus on, and removing everything leaves no focus")
    func removeEverything() throws {
        var nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "root", "children": [
              {"id": "only", "label": "Only", "activate": [{"hide": "root"}]}]}}]}
            """)
        #expect(nav.perform(.activate) == [.activated(element: "only")])
        #expect(nav.focusedElement == nil)
        #expect(nav.perform(.next) == [.boundary(.none)])
        #expect(nav.post(.set(id: "root", changes: ElementChanges(hidden: false))) == [.focused(screen: "s", element: "only", reason: .lost)])
    }

    @Test("set on the focused element reports elementChanged for a new label and valueChanged for a new value")
    func setOnFocused() throws {
        var nav = try Navigator(fixture: fixture)
        try nav.focus("home.rename")
        #expect(nav.perform(.activate) == [.activated(element: "home.rename"), .elementChanged(element: "home.rename")])
        #expect(nav.focusedElement?.label == .plain("Renamed"))
        try nav.focus("home.counter")
        #expect(nav.perform(.activate) == [.activated(element: "home.counter"), .valueChanged(element: "home.counter")])
        #expect(nav.focusedElement?.value == "2")
        #expect(nav.perform(.activate) == [.activated(element: "home.counter")], "the same value again is no change")
    }

    @Test("set on an element that is not focused changes it quietly")
    func setOnUnfocused() throws {
        var nav = try Navigator(fixture: fixture)
        #expect(nav.post(.set(id: "home.counter", changes: ElementChanges(value: .some("9"), traits: .selected))).isEmpty)
        #expect(nav.element("home.counter")?.value == "9")
        #expect(nav.element("home.counter")?.traits == .selected)
        #expect(nav.post(.set(id: "home.counter", changes: ElementChanges(value: .some(nil)))).isEmpty)
        #expect(nav.element("home.counter")?.value == nil)
    }

    @Test("an element with nothing to present becomes reachable when an effect gives it a value")
    func valueMakesElementReachable() throws {
        var nav = try Navigator(fixture: fixture)
        #expect(!nav.orderIDs().contains("home.badge"))
        try nav.focus("home.fill.badge")
        #expect(nav.perform(.activate) == [.activated(element: "home.fill.badge")])
        #expect(nav.perform(.next) == [.focused(screen: "home", element: "home.badge", reason: .user)])
        #expect(nav.focusedElement?.value == "3 new")
    }

    @Test("showing a hidden element makes it reachable in its place in the order")
    func showElement() throws {
        var nav = try Navigator(fixture: fixture)
        _ = nav.post(.set(id: "home.spinner", changes: ElementChanges(hidden: false)))
        #expect(nav.orderIDs().contains("home.spinner"))
        #expect(nav.focusedID == "home.title", "showing a non-modal element leaves focus alone")
    }

    @Test("effects on an element of another screen change it there without moving focus")
    func effectOnAnotherScreen() throws {
        var nav = try Navigator(fixture: fixture)
        #expect(nav.post(.set(id: "detail.title", changes: ElementChanges(label: .plain("Changed")))).isEmpty)
        #expect(nav.element("detail.title")?.label == .plain("Changed"))
        #expect(nav.focusedID == "home.title")
        try nav.focus("home.open.detail")
        #expect(nav.perform(.activate).last == .focused(screen: "detail", element: "detail.title", reason: .screenChanged))
    }
}
