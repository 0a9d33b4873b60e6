import Testing
import TandemModel

@Suite("CatalogLines and element paths: where an element is written")
struct CatalogLinesTests {
    static let json = """
        {
          "format": "tandem.catalog/1",
          "screens": [
            { "id": "first",
              "root": { "id": "first.root", "children": [
                { "id": "first.title", "label": "Title" },
                { "id": "first.list", "children": [
                  { "id": "first.list.row0", "label": "Row 0" },
                  {
                    "id": "first.list.row1", "label": "Row 1" }
                ] }
              ] } },
            {
              "id": "second", "root": { "id": "second.root", "label": "Alone" } }
          ]
        }
        """

    @Test("each element's line is the line of its id, screen by screen in table order")
    func elementLines() throws {
        var decoder = CatalogDecoder(file: "x.catalog.json")
        let catalog = try decoder.decode(Array(Self.json.utf8))
        let lines = decoder.lines
        #expect(lines.screens == [4, 14])
        #expect(lines.elements.count == 2)
        // first.root 5, first.title 6, first.list 7, row0 8, row1 10 (its id is on the line after the brace)
        #expect(lines.elements[0] == [5, 6, 7, 8, 10])
        #expect(lines.elements[1] == [14])
        let row1 = try #require(catalog.screens[0].index["first.list.row1"])
        #expect(lines.line(screen: 0, element: row1) == 10)
        #expect(lines.line(screen: 5, element: 0) == nil)
    }

    @Test("an element's JSON path walks root and children as the diagnostics write it")
    func elementPaths() throws {
        var decoder = CatalogDecoder(file: "x.catalog.json")
        let catalog = try decoder.decode(Array(Self.json.utf8))
        let screen = catalog.screens[0]
        #expect(screen.jsonPath(of: 0, screen: 0) == "screens[0].root")
        #expect(screen.jsonPath(of: screen.index["first.title"]!, screen: 0) == "screens[0].root.children[0]")
        #expect(screen.jsonPath(of: screen.index["first.list.row1"]!, screen: 0) == "screens[0].root.children[1].children[1]")
        #expect(catalog.screens[1].jsonPath(of: 0, screen: 1) == "screens[1].root")
    }
}
