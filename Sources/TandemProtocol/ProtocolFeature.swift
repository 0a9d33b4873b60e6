/// An addition to the protocol's core (Docs/protocol.md#features) that a client may need to know the service has
/// before it relies on it (Docs/protocol.md#features). `welcome` lists the names of those the
/// service has; the protocol stays version 1, and a service that lists none (an older one, or
/// another implementation of the core) has none of them.
///
/// This enum is the table of names: each case is one addition, its raw value the name on the
/// wire. Replies' extra fields (`status`'s `screen`, `welcome`'s limits) are not features: a
/// client reads them when they are there.
public enum ProtocolFeature: String, CaseIterable, Sendable, Comparable {
    /// A message with a request `id` and no reply of its own is answered `{"type":"ack","id":…}`
    /// once it is carried out (Docs/protocol.md#messages).
    case ack
    /// An app may send `status` (a barrier: its reply comes after everything sent before).
    case appStatus
    /// `subscribe` takes `channels`, the transcript channels to send (Docs/protocol.md#controller).
    case channels
    /// A controller may send `notify` with an `announcement`, heard whichever app is in front.
    case controllerAnnounce
    /// `command` takes `input`: the input method the user's key came from (keyboard, braille,
    /// touch), which hints and typing into a text field follow (Docs/protocol.md#controller).
    case commandInput
    /// `update` takes `edits`: a children list changed by id without resending it
    /// (Docs/protocol.md#edits). A service without it ignores them.
    case edits
    /// The `foreground` message: a controller brings an app to the front.
    case foreground
    /// An app may send `foreground` naming no app: itself to the front (its window was
    /// activated; Docs/protocol.md#several-apps).
    case appForeground
    /// The `unsubscribe` message: a controller stops the transcript.
    case unsubscribe

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

extension ServerMessage {
    /// The protocol features a service announced in `welcome`: every name as it came, those
    /// this side knows as `ProtocolFeature`s, and the others (a newer service's) kept as names.
    public struct Features: Sendable, Hashable, CustomStringConvertible {
        /// Every name announced, sorted, each once.
        public let names: [String]

        public init(names: some Sequence<String>) { self.names = Set(names).sorted() }

        public init(_ features: some Sequence<ProtocolFeature>) { self.init(names: features.map(\.rawValue)) }

        /// What a service that lists no features has (the core `welcome`).
        public static let none = Features(names: [])

        /// Every feature this Tandem has: what its service announces.
        public static let all = Features(ProtocolFeature.allCases)

        public func contains(_ feature: ProtocolFeature) -> Bool { names.contains(feature.rawValue) }

        /// The announced features this side knows.
        public var known: Set<ProtocolFeature> { Set(names.compactMap(ProtocolFeature.init(rawValue:))) }

        /// The announced names this side does not know (a newer service's), sorted.
        public var unknown: [String] { names.filter { ProtocolFeature(rawValue: $0) == nil } }

        public var description: String { names.isEmpty ? "none" : names.joined(separator: ", ") }
    }
}
