import TandemSession
/// A readable line diff between a golden transcript and a new one.
public enum TranscriptDiff {
    public enum Change: Sendable, Hashable {
        /// A golden line (1-based line number) missing from the new transcript.
        case expectedOnly(line: Int, text: String)
        /// A new line (1-based) that the golden file does not have.
        case gotOnly(line: Int, text: String)
    }

    /// The changes turning `expected` into `got`, by longest common subsequence.
    public static func changes(expected: [String], got: [String]) -> [Change] {
        // Trim the common head and tail: typical edits are local, and this keeps the table small.
        var head = 0
        while head < expected.count, head < got.count, expected[head] == got[head] { head += 1 }
        var tail = 0
        while tail < expected.count - head, tail < got.count - head,
              expected[expected.count - 1 - tail] == got[got.count - 1 - tail] { tail += 1 }
        let a = Array(expected[head..<(expected.count - tail)])
        let b = Array(got[head..<(got.count - tail)])
        if a.count * b.count > 25_000_000 {
            // Too large for the table: report the whole middle as replaced.
            return a.enumerated().map { .expectedOnly(line: head + $0.offset + 1, text: $0.element) }
                + b.enumerated().map { .gotOnly(line: head + $0.offset + 1, text: $0.element) }
        }
        var lcs = [[Int32]](repeating: [Int32](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var out: [Change] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                i += 1; j += 1
            } else if j < b.count, i == a.count || lcs[i][j + 1] >= lcs[i + 1][j] {
                out.append(.gotOnly(line: head + j + 1, text: b[j])); j += 1
            } else {
                out.append(.expectedOnly(line: head + i + 1, text: a[i])); i += 1
            }
        }
        return out
    }

    /// The changes as text: `- golden:LINE  text` and `+ got:LINE  text`, at most `limit` lines.
    public static func render(_ changes: [Change], limit: Int = 60) -> String {
        var lines: [String] = []
        for c in changes.prefix(limit) {
            switch c {
            case .expectedOnly(let n, let t): lines.append("- expected line \(n): \(t)")
            case .gotOnly(let n, let t): lines.append("+ got line \(n):      \(t)")
            }
        }
        if changes.count > limit { lines.append("… and \(changes.count - limit) more changed lines") }
        return lines.joined(separator: "\n")
    }
}
