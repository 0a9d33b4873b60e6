import Testing
@testable import TandemPresentation

/// What a container adds to its elements' speech and braille: a tab's position, a list's and a
/// landmark's ends, a data table cell's headers, row and column.
@Suite("containers: tabs, lists, landmarks, tables")
struct ContainerPhraseTests {
    static func tabBar(_ labels: [String]) -> String {
        let tabs = labels.enumerated().map { i, l in
            #"{"id": "tab.\#(i)", "label": "\#(l)", "traits": ["button"\#(i == 0 ? #", "selected""# : "")], "frame": [\#(i * 130), 800, 130, 44]}"#
        }
        return #"{"id": "title", "label": "T", "frame": [0, 0, 390, 44]}, {"id": "tabs", "traits": ["tabBar"], "children": [\#(tabs.joined(separator: ", "))]}"#
    }

    struct Tab: Sendable, CustomTestStringConvertible {
        let language: String
        let labels: [String]
        let first: Described
        let second: Described
        var testDescription: String { "\(language): \(first.speech)" }
    }

    static let tabs: [Tab] = [
        Tab(language: "en", labels: ["Home", "Search", "Profile"],
            first: Described(speech: "selected, Home, tab, 1 of 3", hint: nil, braille: "sel Home tab 1/3"),
            second: Described(speech: "Search, tab, 2 of 3", hint: nil, braille: "Search tab 2/3")),
        Tab(language: "pt-BR", labels: ["Início", "Buscar", "Perfil"],
            first: Described(speech: "selecionado, Início, aba, 1 de 3", hint: nil, braille: "sel Início aba 1/3"),
            second: Described(speech: "Buscar, aba, 2 de 3", hint: nil, braille: "Buscar aba 2/3")),
        Tab(language: "ru", labels: ["Главная", "Поиск", "Профиль"],
            first: Described(speech: "выбрано, Главная, вкладка, 1 из 3", hint: nil, braille: "выб Главная вклд 1/3"),
            second: Described(speech: "Поиск, вкладка, 2 из 3", hint: nil, braille: "Поиск вклд 2/3")),
    ]

    @Test("a tab bar's element is a tab with its position, selected first, and no button", arguments: tabs)
    func tabPosition(tab: Tab) throws {
        #expect(try Described.of(Self.tabBar(tab.labels), focus: "tab.0", language: tab.language) == tab.first)
        #expect(try Described.of(Self.tabBar(tab.labels), focus: "tab.1", language: tab.language) == tab.second)
    }

    @Test("a dimmed tab says dimmed before tab; the position comes last")
    func dimmedTab() throws {
        let got = try Described.of("""
            {"id": "tabs", "traits": ["tabBar"], "children": [
              {"id": "a", "label": "A", "traits": ["button"], "frame": [0, 0, 100, 40]},
              {"id": "b", "label": "B", "value": "3 new", "hint": "Opens B", "traits": ["button", "notEnabled", "header"], "frame": [100, 0, 100, 40]}]}
            """, focus: "b")
        #expect(got == Described(speech: "B, 3 new, dimmed, tab, heading, 2 of 2", hint: "Opens B", braille: "B, 3 new dim tab hdr 2/2"))
    }

    @Test("a segment of a segmented control is still a button, with its position after it")
    func segmentPosition() throws {
        let control = """
            {"id": "size", "container": "segmentedControl", "children": [
              {"id": "s25", "label": "25 см", "traits": ["button"], "frame": [16, 480, 119, 36]},
              {"id": "s30", "label": "30 см", "traits": ["button", "selected"], "frame": [135, 480, 120, 36]},
              {"id": "s40", "label": "40 см", "traits": ["button"], "frame": [255, 480, 119, 36]}]}
            """
        #expect(try Described.of(control, focus: "s30", language: "ru") == Described(speech: "выбрано, 30 см, кнопка, 2 из 3", hint: nil, braille: "выб 30 см кнп 2/3"))
        #expect(try Described.of(control, focus: "s25", language: "pt-BR").speech == "25 см, botão, 1 de 3")
        #expect(try Described.of(control, focus: "s40").speech == "40 см, button, 3 of 3")
    }

    struct Ends: Sendable, CustomTestStringConvertible {
        let language: String
        let container: String
        let first: String
        let last: String
        var testDescription: String { "\(language) \(container): \(first) … \(last)" }
    }

    static let ends: [Ends] = [
        Ends(language: "en", container: "list", first: "One, list start", last: "Three, list end"),
        Ends(language: "pt-BR", container: "list", first: "One, início da lista", last: "Three, fim da lista"),
        Ends(language: "ru", container: "list", first: "One, начало списка", last: "Three, конец списка"),
        Ends(language: "en", container: "landmark", first: "One, landmark", last: "Three, end"),
        Ends(language: "pt-BR", container: "landmark", first: "One, ponto de referência", last: "Three, fim"),
        Ends(language: "ru", container: "landmark", first: "One, ориентир", last: "Three, конец"),
    ]

    @Test("a list's and a landmark's first and last elements say so; the middle says nothing", arguments: ends)
    func containerEnds(row: Ends) throws {
        let elements = """
            {"id": "c", "container": "\(row.container)", "children": [
              {"id": "one", "label": "One", "frame": [0, 0, 100, 40]},
              {"id": "two", "label": "Two", "frame": [0, 50, 100, 40]},
              {"id": "three", "label": "Three", "frame": [0, 100, 100, 40]}]}
            """
        #expect(try Described.of(elements, focus: "one", language: row.language).speech == row.first)
        #expect(try Described.of(elements, focus: "two", language: row.language).speech == "Two")
        #expect(try Described.of(elements, focus: "three", language: row.language).speech == row.last)
    }

    static let table = """
        {"id": "table", "container": "dataTable", "children": [
          {"id": "h.item", "label": "Item", "traits": ["header"], "cell": {"row": 0, "column": 0, "header": "column"}, "frame": [0, 0, 100, 40]},
          {"id": "h.price", "label": "Price", "traits": ["header"], "cell": {"row": 0, "column": 1, "header": "column"}, "frame": [100, 0, 100, 40]},
          {"id": "banana", "label": "Banana", "cell": {"row": 1, "column": 0, "header": "row"}, "frame": [0, 50, 100, 40]},
          {"id": "banana.price", "label": "Price of banana", "value": "R$ 5,99", "traits": ["button"], "cell": {"row": 1, "column": 1, "rowSpan": 2}, "frame": [100, 50, 100, 90]},
          {"id": "cafe", "label": "Café", "cell": {"row": 2, "column": 0, "header": "row"}, "frame": [0, 100, 100, 40]}]}
        """

    @Test("a data table cell says its headers, label, spans, row (first of a row), column, value, then its traits")
    func tableCells() throws {
        #expect(try Described.of(Self.table, focus: "banana.price") ==
            Described(speech: "Price, Price of banana, spans 2 rows, column 2, R$ 5,99, button", hint: nil,
                      braille: "Price Price of banana rs2 c2, R$ 5,99 btn"))
        #expect(try Described.of(Self.table, focus: "banana").speech == "Banana, row 2, column 1")
        #expect(try Described.of(Self.table, focus: "cafe").speech == "Item, Café, row 3, column 1")
        #expect(try Described.of(Self.table, focus: "banana.price", language: "pt-BR").speech
            == "Price, Price of banana, abrange 2 linhas, coluna 2, R$ 5,99, botão")
        #expect(try Described.of(Self.table, focus: "cafe", language: "ru").speech == "Item, Café, ряд 3, столбец 1")
        #expect(try Described.of(Self.table, focus: "banana.price", language: "ru").speech
            == "Price, Price of banana, охватывает строк: 2, столбец 2, R$ 5,99, кнопка")
    }

    @Test("without trait words, no position, no markers, no table parts")
    func verbosityOff() throws {
        let off = Verbosity(traitWords: false)
        #expect(try Described.of(Self.tabBar(["Home", "Search"]), focus: "tab.0", verbosity: off).speech == "Home")
        #expect(try Described.of(Self.table, focus: "cafe", verbosity: off).speech == "Café")
    }
}
