/// Appends JSON text one line an item, indented by nesting, with the commas between siblings;
/// or, `compact`, all on one line (a protocol message).
struct JSONTextWriter {
    private(set) var bytes: [UInt8] = []
    var compact = false
    /// Per open level: whether the next item is the first (no comma before it).
    private var firstAtLevel: [Bool] = [true]

    init(compact: Bool = false) { self.compact = compact }

    mutating func reserve(_ n: Int) { bytes.reserveCapacity(n) }

    /// One value at the current level.
    mutating func item(_ text: String) {
        if !firstAtLevel[firstAtLevel.count - 1] { bytes.append(UInt8(ascii: ",")) }
        firstAtLevel[firstAtLevel.count - 1] = false
        newline()
        bytes.append(contentsOf: text.utf8)
    }

    /// A value whose text opens a level (ends with `[` or `"root":`).
    mutating func open(_ text: String) {
        item(text)
        firstAtLevel.append(true)
    }

    mutating func close(_ text: String) {
        firstAtLevel.removeLast()
        newline()
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func newline() {
        if bytes.isEmpty || compact { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * (firstAtLevel.count - 1)))
    }
}
