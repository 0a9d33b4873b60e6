import TandemModel

/// A running app's screen as it publishes it (`{"type":"screen",…}`, Docs/protocol.md#screen),
/// with exactly the number of elements asked for, and the protocol lines the app sends to
/// change it.
///
/// The shape is `CatalogGenerator`'s shopping screen as an app sends it: plain labels, and the
/// app's own handlers (`"activate": true`, custom actions by name, `adjust` without effects).
/// A header whose `order` puts search first, a search field, aisles of 20 product rows each
/// under a heading, a cart total, a checkout button, a hidden loading indicator and a hidden
/// modal sheet. A product row is 7 elements: the `group` row, an accessible cell (button, hint,
/// actions on every third) over a name, a weight, a price and a photo, and a stepper
/// (`adjustable`, with a `value`). Every element has a frame.
///
/// Two layouts of the same rows, in the same reading order:
/// - `sections`: each aisle is a container of its heading and rows (a table's sections);
/// - `flat`: headings and rows are all children of one list container (one long table).
/// Neither kind of container is a scope of the reading order (not a `group`, no `order`), so
/// the rows of both are sorted together in the screen's scope, as VoiceOver sorts them.
struct AppScreen {
    enum Layout: String, CaseIterable {
        case sections, flat
    }

    static let rowsPerAisle = 20
    static let elementsPerRow = 7
    /// root, header and its 3 buttons, search, the aisles' list, total, checkout, loading
    /// indicator, the sheet and its 5.
    static let fixedElements = 16
    static let smallest = fixedElements + 2 + elementsPerRow

    let layout: Layout
    /// The `screen` message, one line.
    let line: [UInt8]
    let elements: Int
    let products: Int
    /// Rows per aisle, and the dividers that make up the exact count (in the last aisle).
    let aisles: [(rows: Int, dividers: Int)]

    static let names = CatalogGenerator.names
    static let weights = CatalogGenerator.weights

    /// Elements an aisle has besides its rows: its heading, and in `sections` its container.
    static func aisleHead(_ layout: Layout) -> Int { layout == .sections ? 2 : 1 }

    init(elements: Int, layout: Layout) {
        precondition(elements >= Self.smallest, "an app screen has at least \(Self.smallest) elements")
        self.layout = layout
        let head = Self.aisleHead(layout)
        let perAisle = head + Self.rowsPerAisle * Self.elementsPerRow
        var budget = elements - Self.fixedElements
        var aisles: [(rows: Int, dividers: Int)] = []
        while budget >= perAisle { aisles.append((Self.rowsPerAisle, 0)); budget -= perAisle }
        if budget >= head + Self.elementsPerRow {
            let rows = (budget - head) / Self.elementsPerRow
            aisles.append((rows, 0))
            budget -= head + rows * Self.elementsPerRow
        }
        aisles[aisles.count - 1].dividers = budget
        self.aisles = aisles
        var w = Writer(layout: layout, aisles: aisles)
        w.screen()
        precondition(w.written == elements, "wrote \(w.written) elements, not \(elements)")
        line = w.json.bytes
        self.elements = w.written
        products = aisles.reduce(0) { $0 + $1.rows }
    }

    // MARK: places

    /// Where product `k` (0-based, document order) is: its aisle, row and id prefix.
    func product(_ k: Int) -> (aisle: Int, row: Int, id: String) {
        var k = k
        for (a, aisle) in aisles.enumerated() {
            if k < aisle.rows { return (a, k, "aisle\(a).product\(k)") }
            k -= aisle.rows
        }
        preconditionFailure("no product \(k)")
    }

    /// The top of product `k`'s row (as the writer lays rows out).
    func rowTop(_ k: Int) -> Int {
        let (a, r, _) = product(k)
        var y = Writer.firstRowTop
        for b in 0..<a { y += 40 + aisles[b].rows * 72 + aisles[b].dividers * 2 }
        return y + 40 + r * 72
    }

    /// The product half-way down the screen that has custom actions.
    var middle: Int { (products / 2) / 3 * 3 }

    /// The children ids of the container that holds product `k`'s row: its aisle (`sections`)
    /// or the whole list (`flat`).
    func listChildren(of k: Int) -> (container: String, children: [String]) {
        let target = product(k).aisle
        switch layout {
        case .sections: return ("aisle\(target)", aisleChildren(target))
        case .flat: return ("aisles", aisles.indices.flatMap(aisleChildren))
        }
    }

    // MARK: the lines that change it

    /// `set` of one field of one element.
    static func set(_ id: String, _ field: String, _ json: String) -> [UInt8] {
        Array(#"{"type":"set","id":"\#(id)","\#(field)":\#(json)}"#.utf8)
    }

    /// An `update` that moves product `k`'s row down by `dy` points (each of its elements
    /// with a frame, given whole).
    func moveRow(_ k: Int, by dy: Int) -> [UInt8] {
        let nodes = Writer.rowNodes(product(k).id, k: k, y: rowTop(k) + dy, new: false)
        return Array(#"{"type":"update","nodes":[\#(nodes.joined(separator: ","))]}"#.utf8)
    }

    /// An `update` that adds a row (id `extra`) after product `k`'s, with its container's new
    /// children list.
    func addRow(after k: Int, id extra: String) -> [UInt8] {
        var (container, children) = listChildren(of: k)
        let at = children.firstIndex(of: product(k).id + ".row")! + 1
        children.insert(extra + ".row", at: at)
        let nodes = [Self.childrenNode(container, children)] + Writer.rowNodes(extra, k: k, y: rowTop(k) + 36, new: true)
        return Array(#"{"type":"update","nodes":[\#(nodes.joined(separator: ","))]}"#.utf8)
    }

    /// An `update` that gives product `k`'s container its children list as published (which
    /// removes a row `addRow` added).
    func removeAddedRow(after k: Int) -> [UInt8] {
        let (container, children) = listChildren(of: k)
        return Array(#"{"type":"update","nodes":[\#(Self.childrenNode(container, children))]}"#.utf8)
    }

    /// The same row added by an edit of its container's children (Docs/protocol.md#edits):
    /// its 7 nodes and one `edits` item, whatever the list's length.
    func addRowByEdit(after k: Int, id extra: String) -> [UInt8] {
        let container = listChildren(of: k).container
        let nodes = Writer.rowNodes(extra, k: k, y: rowTop(k) + 36, new: true)
        let edit = #"{"parent":"\#(container)","insert":["\#(extra).row"],"after":"\#(product(k).id).row"}"#
        return Array(#"{"type":"update","nodes":[\#(nodes.joined(separator: ","))],"edits":[\#(edit)]}"#.utf8)
    }

    /// That row removed by an edit (its id alone).
    func removeRowByEdit(after k: Int, id extra: String) -> [UInt8] {
        let container = listChildren(of: k).container
        return Array(#"{"type":"update","edits":[{"parent":"\#(container)","remove":["\#(extra).row"]}]}"#.utf8)
    }

    /// The screen as an app whose lines may not pass `maxBytes` (the service's `maxLine`) sends
    /// it: a `screen` with as many aisles as fit, then `update`s that add the others, each a line
    /// under `maxBytes`. The screen they make is this one.
    func published(maxBytes: Int) -> [[UInt8]] {
        guard line.count > maxBytes else { return [line] }
        var shown = max(1, aisles.count * maxBytes / line.count)
        var first: [UInt8]
        repeat {
            var w = Writer(layout: layout, aisles: aisles, shownAisles: shown)
            w.screen()
            first = w.json.bytes
            shown -= 1
        } while first.count > maxBytes && shown > 0
        shown += 1
        var lines = [first]
        var nodes: [String] = []
        var size = 0
        func flush(upTo a: Int) {
            let ids = (0..<a).flatMap { layout == .sections ? ["aisle\($0)"] : aisleChildren($0) }
            nodes.append(Self.childrenNode("aisles", ids))
            lines.append(Array(#"{"type":"update","nodes":[\#(nodes.joined(separator: ","))]}"#.utf8))
            nodes = []
            size = 0
        }
        for a in shown..<aisles.count {
            let more = aisleNodes(a)
            let bytes = more.reduce(0) { $0 + $1.utf8.count + 1 }
            // Room for the `aisles` node's list too (~30 bytes an id).
            // … and within maxUpdateNodes (the `aisles` node is one more).
            if !nodes.isEmpty && (size + bytes + 40 * (a + 1) * (layout == .flat ? Self.rowsPerAisle + 1 : 1) > maxBytes * 9 / 10
                                  || nodes.count + more.count + 1 > Screen.maxUpdateNodes) {
                flush(upTo: a)
            }
            nodes += more
            size += bytes
        }
        flush(upTo: aisles.count)
        return lines
    }

    /// The ids of aisle `a`'s heading, rows and dividers.
    func aisleChildren(_ a: Int) -> [String] {
        ["aisle\(a).heading"] + (0..<aisles[a].rows).map { "aisle\(a).product\($0).row" } + (0..<aisles[a].dividers).map { "aisle\(a).divider\($0)" }
    }

    /// Aisle `a` as `update` nodes: its container (`sections`), heading, rows and dividers.
    func aisleNodes(_ a: Int) -> [String] {
        let firstProduct = aisles[..<a].reduce(0) { $0 + $1.rows }
        let top = rowTop(firstProduct) - 40
        var nodes: [String] = []
        if layout == .sections { nodes.append(Self.childrenNode("aisle\(a)", aisleChildren(a))) }
        nodes.append(Writer.heading(a, rows: aisles[a].rows, y: top))
        for r in 0..<aisles[a].rows {
            let k = firstProduct + r
            nodes += Writer.rowNodes("aisle\(a).product\(r)", k: k, y: rowTop(k), new: true)
        }
        let below = top + 40 + aisles[a].rows * 72
        for d in 0..<aisles[a].dividers { nodes.append(Writer.divider(a, d, y: below + d * 2)) }
        return nodes
    }

    static func childrenNode(_ id: String, _ children: [String]) -> String {
        #"{"id":"\#(id)","children":[\#(children.map { "\"\($0)\"" }.joined(separator: ","))]}"#
    }
}

/// Writes the screen message.
private struct Writer {
    static let firstRowTop = 140
    let layout: AppScreen.Layout
    let aisles: [(rows: Int, dividers: Int)]
    var json = JSONTextWriter(compact: true)
    var written = 0
    var y = firstRowTop
    /// The aisles the screen message has (the first ones); the others are only space.
    let shownAisles: Int

    init(layout: AppScreen.Layout, aisles: [(rows: Int, dividers: Int)], shownAisles: Int? = nil) {
        self.layout = layout
        self.aisles = aisles
        self.shownAisles = shownAisles ?? aisles.count
        json.reserve(aisles.count * 20 * 7 * 110)
    }

    mutating func screen() {
        json.open(#"{"type":"screen","screen":"#)
        json.open(#"{"id":"shop","title":"Mercado","focus":"header.title","root":"#)
        container(#"{"id":"shop.root","children":["#)
        container(#"{"id":"header","frame":[0,44,390,44],"order":["header.search","header.title","header.lists"],"children":["#)
        leaf(#"{"id":"header.title","label":"Mercado","traits":["header"],"frame":[0,44,390,44]}"#)
        leaf(#"{"id":"header.search","label":"Buscar","traits":["button"],"frame":[8,50,32,32],"activate":true}"#)
        leaf(#"{"id":"header.lists","label":"Minhas listas","traits":["button"],"frame":[350,50,32,32],"hint":"Abre suas listas de compras","activate":true}"#)
        json.close("]}")
        leaf(#"{"id":"search.field","label":"Buscar produtos","traits":["searchField"],"frame":[16,96,358,36]}"#)
        container(#"{"id":"aisles","children":["#)
        var k = 0
        for (a, aisle) in aisles.enumerated() {
            if a >= shownAisles {
                // Left for `update`s (`AppScreen.published`): the space it takes stays.
                y += 40 + aisle.rows * 72 + aisle.dividers * 2
                k += aisle.rows
                continue
            }
            if layout == .sections { container(#"{"id":"aisle\#(a)","children":["#) }
            leaf(Self.heading(a, rows: aisle.rows, y: y))
            y += 40
            for r in 0..<aisle.rows {
                row("aisle\(a).product\(r)", k: k)
                k += 1
            }
            for d in 0..<aisle.dividers {
                leaf(Self.divider(a, d, y: y))
                y += 2
            }
            if layout == .sections { json.close("]}") }
        }
        json.close("]}")
        leaf(#"{"id":"cart.total","label":"Total do carrinho","value":"R$ 0,00","traits":["updatesFrequently"],"frame":[16,\#(y + 8),200,32]}"#)
        leaf(#"{"id":"checkout","label":"Finalizar compra","traits":["button"],"frame":[16,\#(y + 48),358,48],"activate":true}"#)
        leaf(#"{"id":"checkout.loading","hidden":true,"frame":[145,300,100,100],"progress":{"label":"Finalizando compra","value":0}}"#)
        container(#"{"id":"lists.sheet","hidden":true,"modal":true,"frame":[0,300,390,544],"escape":true,"children":["#)
        leaf(#"{"id":"lists.title","label":"Minhas listas","traits":["header"],"frame":[16,316,300,32]}"#)
        leaf(#"{"id":"lists.close","label":"Fechar","traits":["button"],"frame":[330,316,44,32],"activate":true}"#)
        for (i, list) in ["Feira da semana", "Churrasco de domingo", "Limpeza"].enumerated() {
            leaf(#"{"id":"list\#(i)","label":"\#(list)","value":"\#(7 + i * 3) itens","frame":[16,\#(360 + i * 60),358,56],"actions":[{"name":"Selecionar"},{"name":"Excluir"}]}"#)
        }
        json.close("]}")
        json.close("]}")   // root
        json.close("}")    // screen
        json.close("}")    // message
    }

    static func heading(_ a: Int, rows: Int, y: Int) -> String {
        #"{"id":"aisle\#(a).heading","label":"Corredor \#(a + 1), \#(rows) produtos","traits":["header"],"frame":[16,\#(y),358,32]}"#
    }

    static func divider(_ a: Int, _ d: Int, y: Int) -> String {
        #"{"id":"aisle\#(a).divider\#(d)","frame":[16,\#(y),358,1]}"#
    }

    /// A product row as nested elements (the screen's form).
    mutating func row(_ id: String, k: Int) {
        let parts = Self.parts(id, k: k, y: y)
        container(#"{"id":"\#(id).row","group":true,"children":["#)
        container(parts.cell + #","children":["#)
        for p in parts.leaves { leaf(p) }
        json.close("]}")
        leaf(parts.stepper)
        json.close("]}")
        y += 72
    }

    /// The fields of a row's elements, each an unclosed object for the cell.
    static func parts(_ id: String, k: Int, y: Int) -> (cell: String, leaves: [String], stepper: String) {
        let name = AppScreen.names[k % AppScreen.names.count]
        let cents = 199 + (k * 37) % 4000
        let price = "\(cents / 100),\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
        var cell = #"{"id":"\#(id).cell","accessible":true,"traits":["button"],"frame":[16,\#(y),250,64],"hint":"Abre os detalhes do produto","activate":true"#
        if k % 3 == 0 { cell += #","actions":[{"name":"Favoritar"},{"name":"Compartilhar"}]"# }
        let leaves = [
            #"{"id":"\#(id).name","label":"\#(name)","frame":[88,\#(y + 4),170,20]}"#,
            #"{"id":"\#(id).weight","label":"\#(AppScreen.weights[k % AppScreen.weights.count])","frame":[88,\#(y + 26),80,16]}"#,
            #"{"id":"\#(id).price","label":"R$ \#(price)","frame":[88,\#(y + 44),80,16]}"#,
            #"{"id":"\#(id).photo","accessible":false,"traits":["image"],"frame":[16,\#(y),64,64]}"#,
        ]
        let stepper = #"{"id":"\#(id).stepper","label":"Quantidade de \#(name)","value":"0 no carrinho","traits":["adjustable"],"frame":[276,\#(y + 16),98,32],"adjust":{"value":0,"min":0,"max":99,"step":1}}"#
        return (cell, leaves, stepper)
    }

    /// A row as `update` nodes. A new row: the row element too, and the children lists (ids);
    /// a row that moves: its elements with frames, which keep their children.
    static func rowNodes(_ id: String, k: Int, y: Int, new: Bool) -> [String] {
        let p = parts(id, k: k, y: y)
        guard new else { return [p.cell + "}"] + p.leaves + [p.stepper] }
        let kids = ["name", "weight", "price", "photo"].map { "\"\(id).\($0)\"" }.joined(separator: ",")
        return [#"{"id":"\#(id).row","group":true,"children":["\#(id).cell","\#(id).stepper"]}"#, p.cell + #","children":[\#(kids)]}"#]
            + p.leaves + [p.stepper]
    }

    mutating func leaf(_ text: String) {
        json.item(text)
        written += 1
    }

    mutating func container(_ opening: String) {
        json.open(opening)
        written += 1
    }
}
