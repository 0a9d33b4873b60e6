import Testing

/// Examples/albums: a blind tester browses a music library's album grid, laid out by frames
/// in rows, then opens Abbey Road and queues a track.
@Suite("albums story")
struct AlbumsStoryTests {
    let run: ReplayRun

    init() throws { run = try ReplayHarness.replay(example: "albums") }

    static let rowOrder = ["abbey-road", "rumours", "kind-of-blue", "blue", "nevermind", "back-to-black",
                           "favorites.heading", "pet-sounds", "purple-rain"]

    @Test("albums: a grouped cell reads title, artist")
    func groupedCellReadsTitleArtist() {
        #expect(run.spoken.contains("Abbey Road, The Beatles, button"))
        #expect(run.brailleTexts.contains("Abbey Road, The Beatles btn"))
        // Rumours declares its artist before its title; the frames put the title first.
        #expect(run.spoken.contains("Rumours, Fleetwood Mac, button"))
        #expect(!run.spoken.contains { $0.hasPrefix("Fleetwood Mac") })
    }

    @Test("albums: read-all reads every album in row order, top to bottom, left to right")
    func readAllInRowOrder() {
        #expect(run.focusedIDs(reason: "readAll") == ["recent.heading"] + Self.rowOrder)
        let read = run.afterKey("read-all").filter { $0.string("op") == "speak" }.compactMap { $0.string("text") }
        #expect(read == [
            "Albums, heading", "Recently Added, heading",
            "Abbey Road, The Beatles, button", "Rumours, Fleetwood Mac, button", "Kind of Blue, Miles Davis, button",
            "Blue, Joni Mitchell, button", "Nevermind, Nirvana, button", "Back to Black, Amy Winehouse, button",
            "Favorites, heading",
            "Pet Sounds, The Beach Boys, button", "Purple Rain, Prince and The Revolution, button",
        ])
        // Each element waits for the one before it to finish: nothing is cut or dropped.
        #expect(!run.afterKey("read-all").contains { $0.string("op") == "cancel" || $0.string("op") == "drop" })
    }

    @Test("albums: the decorative banner is never read")
    func bannerIsSkipped() {
        #expect(!run.focusedIDs().contains("albums.banner"))
        #expect(!run.spoken.contains { $0.contains("vinyl") })
        #expect(!run.brailleTexts.contains { $0.contains("vinyl") })
    }

    @Test("albums: next-heading jumps over the grid to the next section")
    func headingsJump() {
        #expect(run.afterKey("next-heading", occurrence: 0).first { $0.string("type") == "focus" }?.string("id") == "recent.heading")
        // From Kind of Blue, the next heading skips the second row.
        #expect(run.afterKey("next-heading", occurrence: 1).first { $0.string("type") == "focus" }?.string("id") == "favorites.heading")
        #expect(run.afterKey("previous-heading", occurrence: 1).contains { $0.string("op") == "speak" && $0.string("text") == "Recently Added, heading" })
    }

    @Test("albums: the next row starts again at the left")
    func rowsWrapLeft() {
        let user = run.focusedIDs(reason: "user")
        let i = user.firstIndex(of: "kind-of-blue")!
        #expect(user[i + 1] == "blue")
    }

    @Test("albums: next after the last album plays the boundary sound and stays put")
    func boundaryAtEnd() {
        #expect(run.afterKey("last").contains { $0.string("op") == "speak" && $0.string("text") == "Purple Rain, Prince and The Revolution, button" })
        let past = run.afterKey("next", occurrence: 4)
        #expect(past.contains { $0.string("icon") == "boundary" })
        #expect(!past.contains { $0.string("type") == "focus" })
        #expect(run.afterKey("previous", occurrence: 1).first { $0.string("type") == "focus" }?.string("id") == "pet-sounds")
    }

    @Test("albums: opening an album focuses its title; a track's actions are offered after a pause")
    func albumAndTrackActions() {
        let opened = run.afterKey("activate", occurrence: 0)
        #expect(opened.contains { $0.string("icon") == "screen" })
        #expect(opened.contains { $0.string("op") == "speak" && $0.string("text") == "Abbey Road, heading" })
        let track = run.indexOfSpeech("Come Together, 4:19")!
        let hint = run.indexOfSpeech("Actions available", from: track)!
        #expect(run.lines[hint].string("prio") == "notification")
        #expect(run.lines[hint].int("t")! - run.lines[track].int("t")! == "Come Together, 4:19".count * 60 + 1000)
        #expect(run.afterKey("action-next").contains { $0.string("op") == "speak" && $0.string("text") == "Play Next" })
        let queued = run.afterKey("activate", occurrence: 1)
        #expect(queued.contains { $0.string("type") == "action" && $0.string("name") == "Play Next" })
        #expect(queued.contains { $0.string("op") == "speak" && $0.string("prio") == "message" && $0.string("text") == "Come Together will play next" })
    }

    @Test("albums: the navigation bar's back button says the screen it goes back to, then back button")
    func backButton() {
        let first = run.afterKey("first", occurrence: 1)
        #expect(first.first { $0.string("type") == "focus" }?.string("id") == "album.back")
        #expect(first.contains { $0.string("op") == "speak" && $0.string("text") == "Albums, back button" })
        #expect(first.contains { $0.string("ch") == "braille" && $0.string("text") == "Albums bkbtn" })
        #expect(!run.spoken.contains { $0.contains("Albums, button") })
    }

    @Test("albums: escape goes back to the grid, onto the album that was opened")
    func escapeGoesBack() {
        let back = run.afterKey("escape")
        let focus = back.first { $0.string("type") == "focus" }
        #expect(focus?.string("id") == "abbey-road")
        #expect(focus?.string("reason") == "back")
        #expect(back.contains { $0.string("op") == "speak" && $0.string("text") == "Abbey Road, The Beatles, button" })
    }
}
