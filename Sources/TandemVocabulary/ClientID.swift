/// A client of `tandem serve`, as the socket, the service, recordings and the protocol all name
/// it: a connection numbered from 1 in the order connections were accepted, written `c1`, `c2`,
/// … (the protocol's client ids). `catalog` is the `--catalog` app the service plays itself.
/// Tests and benchmarks may name a client anything (`"app"`): the name is what identifies it.
public struct ClientID: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// As the protocol and recordings write it.
    public let name: String
    /// The connection's number (0 for a name that is not `cN`).
    public let number: Int

    /// The `number`th connection: `cN`.
    public init(_ number: Int) {
        self.number = number
        self.name = "c\(number)"
    }

    /// A client named as a recording or a message writes it.
    public init(_ name: String) {
        self.name = name
        if name.first == "c", let n = Int(name.dropFirst()), n > 0, "c\(n)" == name { number = n } else { number = 0 }
    }

    public init(stringLiteral name: String) { self.init(name) }

    /// The `--catalog` app.
    public static let catalog = ClientID("catalog")

    public var description: String { name }

    /// Connections in the order they came; other names after them, by name.
    public static func < (a: ClientID, b: ClientID) -> Bool {
        switch (a.number, b.number) {
        case (0, 0): a.name < b.name
        case (0, _): false
        case (_, 0): true
        default: a.number < b.number
        }
    }
}
