import Glibc

/// What one connection has sent and its reader has not yet handed on: bytes in, numbered
/// lines out. The server reads its clients with it, the client library and the benchmarks'
/// and tests' socket clients read the server with it.
///
/// - A line ends at `\n`; a `\r` before it is dropped (`\r\n` is accepted).
/// - Every line ending counts, empty lines too, so line numbers are what the client counts;
///   an empty line is skipped, never handed on.
/// - A line longer than `maxLine` bytes (without its `\n` or `\r\n`) is an error as soon as
///   it is known to be too long, even before its end arrives, so no more than about
///   `maxLine` plus one read is ever held.
public struct LineBuffer: Sendable {
    public enum Next: Equatable, Sendable {
        /// The next line (not empty, without its ending).
        case line(number: Int, bytes: [UInt8])
        /// Line `number` is longer than the limit: the connection cannot go on.
        case tooLong(number: Int)
        /// No whole line is waiting.
        case none
    }

    public let maxLine: Int
    private var bytes: [UInt8] = []
    /// The first byte not yet handed on.
    private var start = 0
    /// Bytes before this index (from `start`) hold no `\n`: searching resumes here.
    private var searched = 0
    /// The number of the last line ended (handed on or skipped).
    public private(set) var lastNumber = 0

    /// `maxLine`: the longest line accepted, in bytes (`Int.max`: any).
    public init(maxLine: Int) { self.maxLine = maxLine }

    /// Bytes held that are not yet a whole line (nor whole lines waiting).
    public var isEmpty: Bool { start == bytes.count }

    /// The number the next line will have.
    public var nextNumber: Int { lastNumber + 1 }

    public mutating func append(_ chunk: UnsafeRawBufferPointer) {
        // Drop what was handed on before growing, once it is most of the buffer.
        if start > 0 && start >= bytes.count - start {
            bytes.removeSubrange(0..<start)
            searched = max(0, searched - start)
            start = 0
        }
        bytes.append(contentsOf: chunk)
    }

    /// The next whole line, skipping empty ones; `.tooLong` when the line now being read is
    /// over the limit.
    public mutating func next() -> Next {
        while true {
            guard let end = newline() else {
                let partial = bytes.count - start
                // A partial line may end with the `\r` of its `\r\n`, which does not count.
                let counted = partial > 0 && bytes[bytes.count - 1] == 13 ? partial - 1 : partial
                return counted > maxLine ? .tooLong(number: nextNumber) : .none
            }
            lastNumber += 1
            var lineEnd = end
            if lineEnd > start && bytes[lineEnd - 1] == 13 { lineEnd -= 1 }
            let range = start..<lineEnd
            start = end + 1
            searched = start
            if range.count > maxLine { return .tooLong(number: lastNumber) }
            if range.isEmpty { continue }
            return .line(number: lastNumber, bytes: Array(bytes[range]))
        }
    }

    /// Drops everything held (the connection is closing).
    public mutating func discard() {
        bytes = []
        start = 0
        searched = 0
    }

    /// The index of the next `\n` at or after `start`, or nil.
    private mutating func newline() -> Int? {
        let from = max(start, searched)
        guard from < bytes.count else { return nil }
        let found: Int? = bytes.withUnsafeBytes { raw in
            guard let p = memchr(raw.baseAddress! + from, 10, raw.count - from) else { return nil }
            return raw.baseAddress!.distance(to: UnsafeRawPointer(p))
        }
        if found == nil { searched = bytes.count }
        return found
    }
}
