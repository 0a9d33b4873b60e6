/// A key from a terminal, decoded from the bytes of raw-mode input.
public enum TerminalKey: Sendable, Hashable, CustomStringConvertible {
    case up, down, left, right, home, end, pageUp, pageDown, insert, delete
    case enter, tab, backTab, escape, backspace, space
    case function(Int)
    case character(Character)
    case control(Character)

    /// The key's name as key maps write it (`up`, `enter`, `shift-tab`, `f1`, `ctrl-c`, `q`).
    public var description: String {
        switch self {
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .home: "home"
        case .end: "end"
        case .pageUp: "page-up"
        case .pageDown: "page-down"
        case .insert: "insert"
        case .delete: "delete"
        case .enter: "enter"
        case .tab: "tab"
        case .backTab: "shift-tab"
        case .escape: "escape"
        case .backspace: "backspace"
        case .space: "space"
        case .function(let n): "f\(n)"
        case .character(let c): String(c)
        case .control(let c): "ctrl-\(c)"
        }
    }
}

/// Decodes raw terminal input into keys: UTF-8 characters, control keys and the escape
/// sequences of xterm-like terminals (CSI and SS3 forms). A lone ESC is a key only once no more
/// bytes follow it (`flush()` after a short pause), so Escape and arrow keys are told apart.
public struct TerminalKeyDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// Whether bytes are waiting for the rest of a sequence (call `flush()` after a pause).
    public var hasPending: Bool { !pending.isEmpty }

    /// Feeds bytes; returns the complete keys they finish.
    public mutating func feed(_ bytes: [UInt8]) -> [TerminalKey] {
        pending += bytes
        var keys: [TerminalKey] = []
        while let (key, used) = Self.decode(pending[...]) {
            pending.removeFirst(used)
            if let key { keys.append(key) }
        }
        return keys
    }

    /// After a pause: a lone ESC is the Escape key; an unfinished sequence is dropped.
    public mutating func flush() -> [TerminalKey] {
        defer { pending.removeAll() }
        return pending.first == 0x1B ? [.escape] : []
    }

    /// One key from the front of `b` and how many bytes it took; nil when more bytes are needed.
    /// A nil key with a byte count skips bytes that mean nothing.
    static func decode(_ b: ArraySlice<UInt8>) -> (TerminalKey?, Int)? {
        guard let first = b.first else { return nil }
        let s = b.startIndex
        switch first {
        case 0x1B:
            guard b.count >= 2 else { return nil }
            let second = b[s + 1]
            if second == UInt8(ascii: "[") { return csi(b) }
            if second == UInt8(ascii: "O") {
                guard b.count >= 3 else { return nil }
                let k: TerminalKey? = switch b[s + 2] {
                case let final where cursorKey(final) != nil: cursorKey(final)
                case UInt8(ascii: "P"): .function(1)
                case UInt8(ascii: "Q"): .function(2)
                case UInt8(ascii: "R"): .function(3)
                case UInt8(ascii: "S"): .function(4)
                default: nil
                }
                return (k, 3)
            }
            if second == 0x1B { return (.escape, 1) }
            // Alt+key arrives as ESC key: take it as Escape followed by the key.
            return (.escape, 1)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x20: return (.space, 1)
        case 0x00..<0x20: return (.control(Character(UnicodeScalar(first + 0x60))), 1)
        default:
            let length = first < 0x80 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
            guard b.count >= length else { return nil }
            guard let str = String(validating: b.prefix(length), as: UTF8.self), let c = str.first else { return (nil, 1) }
            return (.character(c), length)
        }
    }

    /// The final byte shared by the CSI and SS3 forms of the cursor keys.
    static func cursorKey(_ final: UInt8) -> TerminalKey? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: nil
        }
    }

    /// `ESC [ params final`: arrows, Home/End, Page keys, F-keys, Shift-Tab.
    static func csi(_ b: ArraySlice<UInt8>) -> (TerminalKey?, Int)? {
        let s = b.startIndex
        var i = s + 2
        while i < b.endIndex, (0x30...0x3F).contains(b[i]) { i += 1 }  // parameter bytes
        guard i < b.endIndex else { return b.count > 16 ? (nil, b.count) : nil }
        let params = String(decoding: b[(s + 2)..<i], as: UTF8.self)
        let used = i - s + 1
        let k: TerminalKey? = switch b[i] {
        case let final where cursorKey(final) != nil: cursorKey(final)
        case UInt8(ascii: "Z"): .backTab
        case UInt8(ascii: "~"):
            switch params.split(separator: ";").first.map(String.init) ?? "" {
            case "1", "7": .home
            case "4", "8": .end
            case "2": .insert
            case "3": .delete
            case "5": .pageUp
            case "6": .pageDown
            case "11": .function(1)
            case "12": .function(2)
            case "15": .function(5)
            default: nil
            }
        default: nil
        }
        return (k, used)
    }
}
