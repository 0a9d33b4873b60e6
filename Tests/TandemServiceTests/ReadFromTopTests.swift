import Testing

/// `read-from-top` (VoiceOver's two-finger swipe up), the command added through the one
/// command table: focus goes to the first element and reading goes on to the end.
@Suite("read-from-top")
struct ReadFromTopTests {
    @Test("from the last album, read-from-top reads the whole screen from its title, in row order")
    func readsTheWholeScreenFromTheTop() throws {
        let run = try ReplayHarness.replay(catalog: "Examples/albums/albums.catalog.json", scenarioText: """
            last
            wait 5000
            read-from-top
            """)
        #expect(run.focusedIDs(reason: "readAll") == ["albums.title", "recent.heading"] + AlbumsStoryTests.rowOrder)
        let read = run.afterKey("read-from-top").filter { $0.string("op") == "speak" }.compactMap { $0.string("text") }
        #expect(read.first == "Albums, heading")
        #expect(read.last == "Purple Rain, Prince and The Revolution, button")
        #expect(read.count == 11, "\(read)")
        // Reading is not a place for hints, and nothing is cut along the way.
        #expect(!run.afterKey("read-from-top").contains { $0.string("src") == "hint" || $0.string("op") == "cancel" })
    }

    @Test("a key during read-from-top stops the reading where it is")
    func aKeyStopsIt() throws {
        let run = try ReplayHarness.replay(catalog: "Examples/albums/albums.catalog.json", scenarioText: """
            read-from-top
            wait 3000
            next
            wait 20000
            """)
        let readAll = run.focusedIDs(reason: "readAll")
        #expect(readAll.count >= 2 && readAll.count < 11, "\(readAll)")
        #expect(run.focusedIDs(reason: "user").count == 1)
    }
}
