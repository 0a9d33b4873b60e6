import Testing
import TandemModel
import TandemTestSupport

@Suite("CatalogDecoder: what a valid catalog decodes to")
struct CatalogDecoderTests {
    @Test("every field of the format decodes into the model")
    func everyField() throws {
        let (catalog, warnings) = try FixtureFolder.model.decode("everything.catalog.json")
        #expect(warnings.isEmpty)
        #expect(catalog.name == "Every field once")
        #expect(catalog.language == "en")
        #expect(catalog.start == "home")
        #expect(catalog.strings["pt-BR"]?["job.cell"] == "%1$@ na %2$@")
        #expect(catalog.screens.map(\.id) == ["home", "detail"])
        #expect(catalog.screen("detail")?.title == nil)

        let home = try #require(catalog.screen("home"))
        #expect(home.title == "Home")
        #expect(home.focus == "home.title")
        #expect(home.magicTap == [.announcement(text: "Screen magic tap", priority: .default, delay: 0)])
        #expect(home.escape == [.back])

        let title = try #require(home["home.title"])
        #expect(title.label == .plain("Home"))
        #expect(title.brailleLabel == .plain("Hm"))
        #expect(title.traits == [.header, .staticText])
        #expect(title.frame == Frame(x: 0, y: 44, width: 390, height: 44))
        #expect(title.hint == "The screen's title")

        let job = try #require(home["job.cell"])
        #expect(job.label == .localized(key: "job.cell", args: ["Designer", "Acme"]))
        #expect(job.value == "New")
        #expect(job.actions.map(\.name) == ["Save", "Hide"])
        #expect(job.actions[0].effects == [.set(id: "job.cell", changes: ElementChanges(value: .some("Saved"), traits: [.button, .selected]))])
        #expect(job.actions[1].effects == [.set(id: "job.cell", changes: ElementChanges(hidden: true)), .layoutChanged(focus: nil)])
        #expect(job.activate == [.screen("detail")])

        let stepper = try #require(home["count.stepper"])
        #expect(stepper.adjust == Adjust(value: 2, min: 0, max: 10, step: 2, format: "%@ items",
                                         effects: [.announcement(text: "Changed", priority: .high, delay: 100)]))

        let sync = try #require(home["sync.button"])
        #expect(sync.accessible == true)
        #expect(sync.activate == [
            .load(id: "sync.spinner", ms: 2000, steps: 4, then: [.screenChanged(focus: "home.title")]),
            .adjust(id: "count.stepper", by: -1),
            .pageScrolled(text: "Page 1 of 2"),
        ])
        #expect(sync.magicTap == [.set(id: "sync.spinner", changes: ElementChanges(hidden: false))])
        #expect(sync.escape == [.set(id: "sync.spinner", changes: ElementChanges(hidden: true))])
        #expect(sync.scrollUp == [.pageScrolled(text: "Page 1 of 2")])
        #expect(sync.scrollDown == [.pageScrolled(text: "Page 2 of 2")])

        let spinner = try #require(home["sync.spinner"])
        #expect(spinner.hidden)
        #expect(spinner.progress == Progress(label: "Syncing", value: nil))
        #expect(catalog.screen("detail")?["detail.root"]?.progress == Progress(label: nil, value: 0.5))

        let list = try #require(home["ordered.list"])
        #expect(list.group)
        #expect(list.order == ["ordered.second", "ordered.first"])
        let first = try #require(home["ordered.first"])
        #expect(first.value == nil && first.hint == nil)
    }

    @Test("elements form a flat pre-order table with parent and child indices")
    func elementTable() throws {
        let home = try #require(try FixtureFolder.model.decode("everything.catalog.json").catalog.screen("home"))
        #expect(home.elements.map(\.id) == [
            "home.root", "home.title", "job.cell", "count.stepper", "sync.button", "sync.spinner",
            "ordered.list", "ordered.first", "ordered.second",
        ])
        #expect(home.elements[0].parent == nil)
        #expect(home.elements[0].children == [1, 2, 3, 4, 5, 6])
        #expect(home.elements[6].children == [7, 8])
        #expect(home.elements[7].parent == 6 && home.elements[8].parent == 6)
        #expect(home.index["ordered.second"] == 8)
    }

    @Test("omitted fields take the contract's defaults")
    func defaults() throws {
        let catalog = try decodeCatalog(#"{"format": "tandem.catalog/1", "screens": [{"id": "only", "root": {"id": "bare"}}]}"#)
        #expect(catalog.language == "en")
        #expect(catalog.start == "only", "start defaults to the first screen")
        #expect(catalog.name == nil && catalog.strings.isEmpty)
        let bare = try #require(catalog.screens.first?["bare"])
        #expect(bare.label == nil && bare.value == nil && bare.hint == nil && bare.frame == nil)
        #expect(bare.traits.isEmpty && bare.children.isEmpty && bare.actions.isEmpty)
        #expect(bare.accessible == nil, "nil means the default rule applies")
        #expect(!bare.group && !bare.hidden && !bare.modal)
        #expect(bare.order == nil && bare.adjust == nil && bare.activate == nil && bare.progress == nil && bare.brailleLabel == nil)
        #expect(bare.container == nil && bare.cell == nil)
        #expect(!bare.hasContent)
        #expect(catalog.device == .phone)
    }

    @Test("Tandem's container, cell and device fields decode; a container of none is no container")
    func containerCellDevice() throws {
        let catalog = try decodeCatalog("""
            {"format": "tandem.catalog/1", "device": "tablet", "screens": [{"id": "s", "root": {"id": "r", "children": [
              {"id": "table", "container": "dataTable", "children": [
                {"id": "c", "cell": {"row": 2, "column": 1, "columnSpan": 3, "header": "row"}},
                {"id": "d", "cell": {"row": 0, "column": 0}}]},
              {"id": "list", "container": "list"}, {"id": "mark", "container": "landmark"},
              {"id": "sem", "container": "semanticGroup"}, {"id": "plain", "container": "none"}]}}]}
            """)
        #expect(catalog.device == .tablet)
        let s = catalog.screens[0]
        #expect(s["table"]?.container == .dataTable && s["list"]?.container == .list && s["mark"]?.container == .landmark)
        #expect(s["sem"]?.container == .semanticGroup && s["plain"]?.container == nil)
        #expect(s["c"]?.cell == TableCell(row: 2, column: 1, rowSpan: 1, columnSpan: 3, header: .row))
        #expect(s["d"]?.cell == TableCell(row: 0, column: 0))
    }

    @Test("an adjust block's omitted fields default to 0…100 in steps of 1 from 0")
    func adjustDefaults() throws {
        let catalog = try decodeCatalog(#"{"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "r", "adjust": {}}}]}"#)
        #expect(catalog.screens[0].elements[0].adjust == Adjust(value: 0, min: 0, max: 100, step: 1, format: nil, effects: []))
    }

    @Test("an effect's optional fields take their defaults")
    func effectDefaults() throws {
        let catalog = try decodeCatalog("""
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "r", "progress": {}, "adjust": {},
              "activate": [{"load": "r"}, {"adjust": "r"}, {"post": "screenChanged"}, {"set": "r", "value": null, "hint": "h"}]}}]}
            """)
        #expect(catalog.screens[0].elements[0].activate == [
            .load(id: "r", ms: 1000, steps: 1, then: []),
            .adjust(id: "r", by: 1),
            .screenChanged(focus: nil),
            .set(id: "r", changes: ElementChanges(value: .some(nil), hint: .some("h"))),
        ])
    }

    @Test("unknown fields are warnings with their line and path, not errors")
    func unknownFieldsWarn() throws {
        let (catalog, warnings) = try FixtureFolder.model.decode("unknown-fields.catalog.json")
        #expect(catalog.screens.first?.elements.first?.label == .plain("Root"))
        #expect(warnings.map(\.description) == [
            #"unknown-fields.catalog.json:3: author: unknown field "author" ignored"#,
            #"unknown-fields.catalog.json:7: screens[0].colour: unknown field "colour" ignored"#,
            #"unknown-fields.catalog.json:11: screens[0].root.tooltip: unknown field "tooltip" ignored"#,
            #"unknown-fields.catalog.json:13: screens[0].root.activate[0].volume: unknown field "volume" ignored"#,
        ])
    }

    @Test("a field that belongs to another kind of notification is warned about once")
    func misplacedEffectFieldWarnsOnce() throws {
        var decoder = CatalogDecoder(file: "x.catalog.json")
        _ = try decoder.decode(Array("""
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "r", "label": "R",
              "activate": [{"post": "layoutChanged", "text": "not for layoutChanged"},
                           {"post": "pageScrolled", "text": "Page 2", "focus": "r"}]}}]}
            """.utf8))
        #expect(decoder.diagnostics.warnings.map(\.description) == [
            #"x.catalog.json:2: screens[0].root.activate[0].text: unknown field "text" ignored"#,
            #"x.catalog.json:3: screens[0].root.activate[1].focus: unknown field "focus" ignored"#,
        ])
    }

    @Test("locate finds an element's screen and index anywhere in the catalog")
    func locate() throws {
        let catalog = try FixtureFolder.model.decode("everything.catalog.json").catalog
        #expect(catalog.locate("detail.root").map { [$0.screen, $0.element] } == [1, 0])
        #expect(catalog.locate("ordered.first").map { [$0.screen, $0.element] } == [0, 7])
        #expect(catalog.locate("nothing") == nil)
        #expect(catalog.screen("nothing") == nil)
    }
}
