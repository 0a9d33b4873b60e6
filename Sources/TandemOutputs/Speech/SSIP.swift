/// One answer from speech-dispatcher: a reply to a command, or an event (codes 700–799).
///
/// On the wire it is one or more CR LF lines; every line starts with the same three-digit
/// code, continuation lines put `-` after it, the last line a space:
/// `225-17\r\n225 OK MESSAGE QUEUED\r\n`, `701-17\r\n701-3\r\n701 BEGIN\r\n`.
public struct SSIPBlock: Sendable, Hashable {
    public var code: Int
    /// The text after `NNN-` of each continuation line, in order.
    public var parameters: [String]
    /// The text after `NNN ` of the last line.
    public var message: String

    public var isEvent: Bool { (700..<800).contains(code) }
    public var isSuccess: Bool { (200..<300).contains(code) }
}

/// An event speech-dispatcher sends after `SET SELF NOTIFICATION ALL on`.
public struct SSIPEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case begin, end, cancel, pause, resume, indexMark }
    public var kind: Kind
    public var messageID: Int
    public var clientID: Int
}

extension SSIPEvent {
    /// The event a block carries (codes 700–705 with message and client ids), or nil.
    public init?(_ block: SSIPBlock) {
        let kind: Kind
        switch block.code {
        case 700: kind = .indexMark
        case 701: kind = .begin
        case 702: kind = .end
        case 703: kind = .cancel
        case 704: kind = .pause
        case 705: kind = .resume
        default: return nil
        }
        guard block.parameters.count >= 2, let m = Int(block.parameters[0]), let c = Int(block.parameters[1]) else { return nil }
        self.kind = kind; self.messageID = m; self.clientID = c
    }
}

/// Splits what speech-dispatcher sends into `SSIPBlock`s. Bytes arrive in any chunks; a
/// block comes out once its last line is complete. A line that is not SSIP (no three-digit
/// code) is skipped, so a confused peer cannot wedge the parser.
///
/// Public so the fuzz harness (`Fuzz/`) can feed it arbitrary bytes.
public struct SSIPParser: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    private var parameters: [String] = []
    private var code: Int?
    private var ready: [SSIPBlock] = []
    private var readyStart = 0

    /// Lines longer than this are cut (speech-dispatcher's longest answers are voice lists).
    public static let maxLine = 1 << 20

    public init() {}

    /// Takes the next bytes read from the socket, in any chunk size.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
        while let nl = buffer[start...].firstIndex(of: 0x0A) {
            var end = nl
            if end > start, buffer[end - 1] == 0x0D { end -= 1 }
            line(buffer[start..<end])
            start = nl + 1
        }
        if buffer.count - start > Self.maxLine {
            line(buffer[start..<start + Self.maxLine])
            start = buffer.count
        }
        if start > 4096 || start == buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
    }

    public mutating func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// The next complete block, oldest first.
    public mutating func next() -> SSIPBlock? {
        guard readyStart < ready.count else { return nil }
        let b = ready[readyStart]
        readyStart += 1
        if readyStart == ready.count { ready.removeAll(keepingCapacity: true); readyStart = 0 }
        return b
    }

    private mutating func line(_ bytes: ArraySlice<UInt8>) {
        guard bytes.count >= 4 else { return }
        let b = Array(bytes.prefix(4))
        guard b[0...2].allSatisfy({ (0x30...0x39).contains($0) }), b[3] == 0x2D || b[3] == 0x20 else { return }
        let c = Int(b[0] - 0x30) * 100 + Int(b[1] - 0x30) * 10 + Int(b[2] - 0x30)
        let text = String(decoding: bytes.dropFirst(4), as: UTF8.self)
        if let current = code, current != c {
            // A new code before the last line of the previous block: drop the broken block.
            parameters.removeAll()
        }
        code = c
        if b[3] == 0x2D {
            parameters.append(text)
        } else {
            ready.append(SSIPBlock(code: c, parameters: parameters, message: text))
            parameters.removeAll()
            code = nil
        }
    }
}

/// How Tandem writes SSIP.
enum SSIPWire {
    /// A command line with its CR LF.
    static func command(_ line: String) -> [UInt8] {
        Array(line.utf8) + [0x0D, 0x0A]
    }

    /// The data part of `SPEAK` for one line of text (already cleaned by `SafeSpeechText`):
    /// a leading dot doubled, then the end-of-data line `.`. A CR or LF that got here anyway
    /// becomes a space, so the text stays one line and cannot end the message early.
    static func speakData(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 6)
        if text.utf8.first == 0x2E { out.append(0x2E) }
        for b in text.utf8 { out.append(b == 0x0A || b == 0x0D ? 0x20 : b) }
        out.append(contentsOf: [0x0D, 0x0A, 0x2E, 0x0D, 0x0A])
        return out
    }
}
