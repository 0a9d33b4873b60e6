import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
import TandemTestSupport

extension Navigator {
    /// A started navigator on a catalog in `Tests/Fixtures/navigator/` (the start events are dropped).
    init(fixture: String, screen: String? = nil, language: String? = nil) throws {
        self.init(catalog: try FixtureFolder.navigator.catalog(fixture), language: language, screen: screen)
        _ = start()
    }

    /// A started navigator on inline catalog JSON.
    init(json: String, screen: String? = nil, language: String? = nil) throws {
        self.init(catalog: try decodeCatalog(json), language: language, screen: screen)
        _ = start()
    }

    var focusedID: String? { focusedElement?.id }

    /// The ids of the current screen's reachable elements, in reading order.
    mutating func orderIDs() -> [String] {
        let s = screen
        return readingOrder().elements.map { s.elements[$0].id }
    }

    /// Puts focus on `id` the way an app would (`layoutChanged` with a focus), for test setup.
    mutating func focus(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        _ = post(.layoutChanged(focus: id))
        try #require(focusedID == id, "could not focus \(id)", sourceLocation: sourceLocation)
    }

    /// Performs commands in turn and returns the events of the last.
    @discardableResult
    mutating func perform(_ commands: [Command]) -> [NavigatorEvent] {
        var events: [NavigatorEvent] = []
        for c in commands { events = perform(c) }
        return events
    }
}
