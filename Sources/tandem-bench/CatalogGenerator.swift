/// Writes the JSON text of a realistic catalog with an exact number of elements, in memory.
///
/// The shape is a long shopping screen, as the Mercado example but grown: a header whose
/// explicit `order` puts search before the title, a search field, aisles (a heading and 20
/// grouped product rows each), a cart total, a checkout button that starts a `load`, a hidden
/// loading indicator and a hidden modal sheet; and a small details screen that every product
/// cell opens. A product row is 7 elements: the `group` row, an accessible cell (button, hint,
/// `activate`, custom actions on every third) over four unlabelled-or-labelled parts (name,
/// weight, localized price, a photo marked inaccessible), and a stepper whose `adjust` updates
/// the cart total (every 20th also announces). Labels use `strings` for prices, quantities and
/// aisle names, so localisation and its validation are part of the load.
///
/// Reading order on the big screen: the header (3), search, then per aisle the heading and two
/// stops per product (cell, stepper), then the total and checkout — about 2 stops per 7 elements.
struct CatalogGenerator {
    /// Elements the generator writes besides the aisles: 16 on the shopping screen (root,
    /// header and its 3 buttons, search, the aisles' container, total, checkout, loading
    /// indicator, the sheet and its 5) and 6 on the details screen.
    static let fixedElements = 22
    static let rowsPerAisle = 20
    static let elementsPerRow = 7
    /// An aisle's container and its heading.
    static let elementsPerAisleHead = 2
    static let smallest = fixedElements + elementsPerAisleHead + elementsPerRow

    /// What was written, and ids the benchmarks act on.
    struct Output {
        var json: [UInt8]
        var elements: Int
        var products: Int
        /// A stepper and a cell with custom actions half-way down the screen.
        var middleStepper: String
        var middleCellWithActions: String
    }

    static let names = ["Banana", "Café torrado", "Arroz integral", "Feijão preto", "Leite integral", "Pão de forma",
                        "Maçã gala", "Queijo minas", "Iogurte natural", "Tomate italiano", "Azeite extra virgem", "Sabão em pó"]
    static let weights = ["1 kg", "500 g", "1 L", "400 g", "200 g", "900 ml", "5 kg"]

    private var writer = JSONTextWriter()
    private var written = 0
    private var products = 0
    private var y = 140

    /// Generates a catalog of exactly `elements` elements (at least `smallest`).
    static func generate(elements: Int) -> Output {
        precondition(elements >= smallest, "a generated catalog has at least \(smallest) elements")
        var g = CatalogGenerator()
        g.writer.reserve(elements * 190)
        // Aisles: full ones, then one with the rows that fit, then dividers to reach the count.
        let perAisle = elementsPerAisleHead + rowsPerAisle * elementsPerRow
        var budget = elements - fixedElements
        var aisles: [(rows: Int, dividers: Int)] = []
        while budget >= perAisle { aisles.append((rowsPerAisle, 0)); budget -= perAisle }
        if budget >= elementsPerAisleHead + elementsPerRow {
            let rows = (budget - elementsPerAisleHead) / elementsPerRow
            aisles.append((rows, 0))
            budget -= elementsPerAisleHead + rows * elementsPerRow
        }
        aisles[aisles.count - 1].dividers = budget
        let total = aisles.reduce(0) { $0 + $1.rows }
        // The middle product, moved to one that has custom actions.
        let middle = (total / 2) / 3 * 3
        let base = Self.productID(middle, in: aisles)

        g.catalog(aisles: aisles)
        precondition(g.written == elements, "generator wrote \(g.written) elements, not \(elements)")
        return Output(json: g.writer.bytes, elements: g.written, products: g.products,
                      middleStepper: base + ".stepper", middleCellWithActions: base + ".cell")
    }

    /// The id prefix of the `k`-th product (0-based, in document order).
    static func productID(_ k: Int, in aisles: [(rows: Int, dividers: Int)]) -> String {
        var k = k
        for (a, aisle) in aisles.enumerated() {
            if k < aisle.rows { return "aisle\(a).product\(k)" }
            k -= aisle.rows
        }
        return "aisle0.product0"
    }

    // MARK: the document

    private mutating func catalog(aisles: [(rows: Int, dividers: Int)]) {
        writer.open("""
            { "format": "tandem.catalog/1", "name": "Mercado — generated benchmark catalog", "language": "pt-BR",
              "strings": {
                "pt-BR": { "price": "R$ %1$@", "quantity": "Quantidade de %1$@", "aisle": "Corredor %1$@, %2$@ produtos" },
                "en": { "price": "R$ %1$@", "quantity": "Quantity of %1$@", "aisle": "Aisle %1$@, %2$@ products" } },
              "start": "shop",
              "screens": [
            """)
        shoppingScreen(aisles: aisles)
        detailsScreen()
        writer.close("] }")
    }

    private mutating func shoppingScreen(aisles: [(rows: Int, dividers: Int)]) {
        writer.open(#"{ "id": "shop", "title": "Mercado", "focus": "header.title", "root":"#)
        container(#"{ "id": "shop.root", "children": ["#)
        container(#"{ "id": "header", "frame": [0, 44, 390, 44], "order": ["header.search", "header.title", "header.lists"], "children": ["#)
        leaf(#"{ "id": "header.title", "label": "Mercado", "traits": ["header"], "frame": [0, 44, 390, 44] }"#)
        leaf(#"{ "id": "header.search", "label": "Buscar", "traits": ["button"], "frame": [8, 50, 32, 32], "activate": [{ "post": "layoutChanged", "focus": "search.field" }] }"#)
        leaf(#"{ "id": "header.lists", "label": "Minhas listas", "traits": ["button"], "frame": [350, 50, 32, 32], "hint": "Abre suas listas de compras", "activate": [{ "show": "lists.sheet" }] }"#)
        writer.close("] }")
        leaf(#"{ "id": "search.field", "label": "Buscar produtos", "traits": ["searchField"], "frame": [16, 96, 358, 36] }"#)
        container(#"{ "id": "aisles", "children": ["#)
        var k = 0
        for (a, aisle) in aisles.enumerated() {
            self.aisle(a, rows: aisle.rows, dividers: aisle.dividers, firstProduct: k)
            k += aisle.rows
        }
        writer.close("] }")
        leaf(#"{ "id": "cart.total", "label": "Total do carrinho", "value": "R$ 0,00", "traits": ["updatesFrequently"], "frame": [16, \#(y + 8), 200, 32] }"#)
        leaf(#"{ "id": "checkout", "label": "Finalizar compra", "traits": ["button"], "frame": [16, \#(y + 48), 358, 48], "activate": [{ "load": "checkout.loading", "ms": 2500, "steps": 5, "then": [{ "post": "announcement", "text": "Pedido enviado" }] }] }"#)
        leaf(#"{ "id": "checkout.loading", "hidden": true, "frame": [145, 300, 100, 100], "progress": { "label": "Finalizando compra", "value": 0 } }"#)
        container(#"{ "id": "lists.sheet", "hidden": true, "modal": true, "frame": [0, 300, 390, 544], "escape": [{ "hide": "lists.sheet" }], "children": ["#)
        leaf(#"{ "id": "lists.title", "label": "Minhas listas", "traits": ["header"], "frame": [16, 316, 300, 32] }"#)
        leaf(#"{ "id": "lists.close", "label": "Fechar", "traits": ["button"], "frame": [330, 316, 44, 32], "activate": [{ "hide": "lists.sheet" }] }"#)
        for (i, list) in ["Feira da semana", "Churrasco de domingo", "Limpeza"].enumerated() {
            leaf(#"{ "id": "list\#(i)", "label": "\#(list)", "value": "\#(7 + i * 3) itens", "frame": [16, \#(360 + i * 60), 358, 56], "actions": [{ "name": "Selecionar", "do": [{ "set": "list\#(i)", "traits": ["selected"] }] }, { "name": "Excluir", "do": [{ "hide": "list\#(i)" }, { "post": "announcement", "text": "Lista \#(list) excluída" }] }] }"#)
        }
        writer.close("] }")
        writer.close("] }")  // root
        writer.close("}")    // screen
    }

    private mutating func aisle(_ a: Int, rows: Int, dividers: Int, firstProduct: Int) {
        container(#"{ "id": "aisle\#(a)", "children": ["#)
        leaf(#"{ "id": "aisle\#(a).heading", "label": { "key": "aisle", "args": ["\#(a + 1)", "\#(rows)"] }, "traits": ["header"], "frame": [16, \#(y), 358, 32] }"#)
        y += 40
        for r in 0..<rows { product(aisle: a, row: r, k: firstProduct + r) }
        for d in 0..<dividers {
            leaf(#"{ "id": "aisle\#(a).divider\#(d)", "frame": [16, \#(y), 358, 1] }"#)
            y += 2
        }
        writer.close("] }")
    }

    private mutating func product(aisle a: Int, row r: Int, k: Int) {
        let id = "aisle\(a).product\(r)"
        let name = Self.names[k % Self.names.count]
        let cents = 199 + (k * 37) % 4000
        let price = "\(cents / 100),\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
        container(#"{ "id": "\#(id).row", "group": true, "children": ["#)
        var cell = #"{ "id": "\#(id).cell", "accessible": true, "traits": ["button"], "frame": [16, \#(y), 250, 64], "hint": "Abre os detalhes do produto", "activate": [{ "screen": "details" }]"#
        if k % 3 == 0 {
            cell += #", "actions": [{ "name": "Favoritar", "do": [{ "set": "\#(id).cell", "traits": ["button", "selected"] }] }, { "name": "Compartilhar", "do": [{ "post": "announcement", "text": "Link de \#(name) copiado" }] }]"#
        }
        container(cell + #", "children": ["#)
        leaf(#"{ "id": "\#(id).name", "label": "\#(name)", "frame": [88, \#(y + 4), 170, 20] }"#)
        leaf(#"{ "id": "\#(id).weight", "label": "\#(Self.weights[k % Self.weights.count])", "frame": [88, \#(y + 26), 80, 16] }"#)
        leaf(#"{ "id": "\#(id).price", "label": { "key": "price", "args": ["\#(price)"] }, "frame": [88, \#(y + 44), 80, 16] }"#)
        leaf(#"{ "id": "\#(id).photo", "accessible": false, "traits": ["image"], "frame": [16, \#(y), 64, 64] }"#)
        writer.close("] }")
        var effects = #"{ "set": "cart.total", "value": "R$ \#(price)" }"#
        if k % 20 == 0 { effects += #", { "post": "announcement", "text": "\#(name) no carrinho" }"# }
        leaf(#"{ "id": "\#(id).stepper", "label": { "key": "quantity", "args": ["\#(name)"] }, "traits": ["adjustable"], "frame": [276, \#(y + 16), 98, 32], "adjust": { "value": 0, "min": 0, "max": 99, "step": 1, "format": "%@ no carrinho", "do": [\#(effects)] } }"#)
        writer.close("] }")
        y += 72
        products += 1
    }

    private mutating func detailsScreen() {
        writer.open(#"{ "id": "details", "title": "Detalhes", "focus": "details.title", "root":"#)
        container(#"{ "id": "details.root", "children": ["#)
        leaf(#"{ "id": "details.title", "label": "Detalhes do produto", "traits": ["header"], "frame": [0, 44, 390, 44] }"#)
        leaf(#"{ "id": "details.photo", "label": "Foto do produto", "traits": ["image"], "frame": [16, 96, 358, 240] }"#)
        leaf(#"{ "id": "details.text", "label": "Produto fresco, entregue hoje", "traits": ["staticText"], "frame": [16, 344, 358, 60] }"#)
        leaf(#"{ "id": "details.add", "label": "Adicionar ao carrinho", "traits": ["button"], "frame": [16, 420, 358, 48], "activate": [{ "post": "announcement", "text": "Adicionado" }] }"#)
        leaf(#"{ "id": "details.back", "label": "Voltar", "traits": ["button"], "frame": [8, 50, 32, 32], "activate": [{ "back": true }] }"#)
        writer.close("] }")
        writer.close("}")
    }

    private mutating func leaf(_ json: String) {
        writer.item(json)
        written += 1
    }

    private mutating func container(_ opening: String) {
        writer.open(opening)
        written += 1
    }
}
