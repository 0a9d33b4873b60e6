import TandemModel
import TandemVocabulary

/// How much of a bad message an error line gives back (Docs/protocol.md#errors): a sentence
/// longer than `maxSentence` bytes keeps its start (the JSON path and the start of the value it
/// quotes) and its end (what was expected), with the middle replaced by a note of how many bytes
/// were left out; a request `id` whose JSON is longer than `maxEchoedID` bytes is not echoed,
/// and the sentence says so. An error line therefore stays well under a client's line limit,
/// whatever the offending line held.
public enum ErrorBounds {
    /// The longest sentence given whole, in UTF-8 bytes.
    public static let maxSentence = 600
    /// Bytes kept from the start and from the end of a longer sentence.
    static let head = 400
    static let tail = 150
    /// The longest request `id` (as JSON text) an error echoes.
    public static let maxEchoedID = 1024

    /// `sentence` as an error line gives it.
    public static func sentence(_ sentence: String) -> String {
        let bytes = Array(sentence.utf8)
        guard bytes.count > maxSentence else { return sentence }
        let start = boundary(in: bytes, atMost: head)
        let end = boundary(in: bytes, atLeast: bytes.count - tail)
        let kept = String(decoding: bytes[..<start], as: UTF8.self)
        let last = String(decoding: bytes[end...], as: UTF8.self)
        return "\(kept)… (\(end - start) bytes left out) …\(last)"
    }

    /// The error's sentence and the `id` it echoes (nil when none, or too long to echo).
    public static func parts(of error: ProtocolError) -> (sentence: String, id: String?) {
        guard let node = error.requestID else { return (sentence(error.message), nil) }
        let id = JSONText.value(node)
        guard id.utf8.count > maxEchoedID else { return (sentence(error.message), id) }
        return (sentence(error.message) + " (the message's id, \(id.utf8.count) bytes of JSON, is too long to echo; this line names it)", nil)
    }

    /// The largest index ≤ `limit` that starts a UTF-8 character.
    private static func boundary(in bytes: [UInt8], atMost limit: Int) -> Int {
        var i = min(limit, bytes.count)
        while i > 0 && i < bytes.count && bytes[i] & 0xC0 == 0x80 { i -= 1 }
        return i
    }

    /// The smallest index ≥ `limit` that starts a UTF-8 character.
    private static func boundary(in bytes: [UInt8], atLeast limit: Int) -> Int {
        var i = max(0, limit)
        while i < bytes.count && bytes[i] & 0xC0 == 0x80 { i += 1 }
        return i
    }
}
