/// One line of the capture file: `SAY|BEGIN|END  lang  voice  rate  pitch  volume  text`.
struct CaptureLine: Sendable, Hashable, CustomStringConvertible {
    enum Kind: String, Sendable { case say = "SAY", begin = "BEGIN", end = "END" }
    var kind: Kind
    var language: String
    var voice: String
    var rate: String
    var pitch: String
    var volume: String
    var text: String

    init?(_ line: Substring) {
        let f = line.split(separator: "\t", maxSplits: 6, omittingEmptySubsequences: false).map(String.init)
        guard f.count == 7, let kind = Kind(rawValue: f[0]) else { return nil }
        self.kind = kind
        language = f[1]; voice = f[2]; rate = f[3]; pitch = f[4]; volume = f[5]; text = f[6]
    }

    /// A line where speech started (`SAY` or `BEGIN`).
    var starts: Bool { kind != .end }
    var description: String { "\(kind.rawValue) \(text)" }
}

extension [CaptureLine] {
    /// Texts that started, in order.
    var started: [String] { filter(\.starts).map(\.text) }
    /// Texts said to the end, in order (`SAY`, or `END`).
    var finished: [String] { filter { $0.kind != .begin }.map(\.text) }
}
