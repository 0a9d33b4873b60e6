import Foundation

/// The fenced code blocks of a page under Docs/, so that tests run or compile what the page
/// shows, word for word.
public enum DocBlock {
    /// The fenced ```language blocks between `start` and `end` (the page's end when nil) in
    /// `page` (a path from the package root), in order.
    public static func all(_ page: String, language: String, after start: String, before end: String? = nil) throws -> [String] {
        let text = try String(contentsOfFile: PackageRoot.path(page), encoding: .utf8)
        guard let from = text.range(of: start) else { throw TestSupportError("\(page) has no \(start)") }
        let until = end.flatMap { text.range(of: $0, range: from.upperBound..<text.endIndex)?.lowerBound } ?? text.endIndex
        var blocks: [String] = []
        var rest = text[from.upperBound..<until]
        while let open = rest.range(of: "```\(language)\n"), let close = rest.range(of: "```", range: open.upperBound..<rest.endIndex) {
            blocks.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return blocks
    }

    /// The first fenced ```language block after `start` in `page`.
    public static func first(_ page: String, language: String, after start: String) throws -> String {
        guard let block = try all(page, language: language, after: start).first else {
            throw TestSupportError("\(page) has no ```\(language) block after \(start)")
        }
        return block
    }
}
