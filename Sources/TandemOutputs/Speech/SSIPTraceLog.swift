import Foundation
import Synchronization

/// Every SSIP command a speech output wrote and every reply it read, with the moment on
/// CLOCK_MONOTONIC, kept in memory and written to a file at the end: `tandem serve` keeps one
/// when `TANDEM_SSIP_TRACE=FILE` is set, and `tandem-bench serve-load` reads it to time
/// Tandem's own share of a key press on Tandem's own clock (Docs/benchmarks.md#serve-load).
///
/// One line an entry: `<ns> wrote|replied <component> <code> <command words>`.
public final class SSIPTraceLog: Sendable {
    private let entries = Mutex<[SSIPTrace]>([])
    /// Entries kept at most (a long run keeps its first ones).
    public let limit: Int

    public init(limit: Int = 2_000_000) { self.limit = limit }

    /// Keeps `trace` (called on the speech worker's thread: an append, no I/O).
    public func record(_ trace: SSIPTrace) {
        entries.withLock { if $0.count < limit { $0.append(trace) } }
    }

    public var all: [SSIPTrace] { entries.withLock { $0 } }

    /// The entries as lines (see the type's comment).
    public func text() -> String {
        all.map { t in "\(t.time) \(t.kind == .wrote ? "wrote" : "replied") \(t.component.rawValue) \(t.code) \(t.command)\n" }.joined()
    }

    /// Reads lines written by `text()`; nil names the first line that is not one.
    public static func parse(_ text: String) -> Result<[SSIPTrace], ParseError> {
        var out: [SSIPTrace] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let f = line.split(separator: " ", maxSplits: 4)
            guard f.count == 5, let time = UInt64(f[0]), let code = Int(f[3]),
                  let component = SpeechComponent(rawValue: String(f[2])), f[1] == "wrote" || f[1] == "replied" else {
                return .failure(ParseError(line: n + 1, text: String(line)))
            }
            out.append(SSIPTrace(kind: f[1] == "wrote" ? .wrote : .replied, command: String(f[4]), component: component, code: code, time: time))
        }
        return .success(out)
    }

    public struct ParseError: Error, CustomStringConvertible {
        public let line: Int
        public let text: String
        public var description: String { "line \(line) is not an SSIP trace entry: \(text)" }
    }
}
