/// Text made safe to hand to speech-dispatcher: whatever an app put in a label, the result
/// cannot break SSIP or the daemon, and still says what the label said.
///
/// What it does, in order:
///
/// 1. Control characters go (C0, DEL, C1, the byte order mark, zero-width spaces and word
///    joiners, noncharacters and the interlinear annotation marks): they say nothing and some mean something to SSIP or to
///    the output module's protocol.
/// 2. Line breaks of every kind (`\n`, `\r\n`, `\r`, VT, FF, NEL, U+2028, U+2029) and tabs become
///    spaces, and runs of whitespace one space; the text is trimmed. So the result is one
///    line: speech-dispatcher 0.11.4 passes line breaks to its output module as CR LF, hands
///    the module stale protocol bytes after a blank line, and loses the end of a message at a
///    line that starts with a dot. One line also means a lone "." can never end an SSIP
///    message early (the sender still doubles a leading dot, as SSIP asks).
///    No-break spaces stay: number formats use them ("R$ 5,99").
/// 3. A grapheme cluster keeps at most `maxScalarsPerCharacter` scalars (a "Zalgo" label of
///    one letter and ten thousand combining marks becomes one letter and a few marks).
/// 4. The text is cut to `maxCharacters` characters and `maxUTF8Bytes` bytes, at the last
///    space when one is near the end.
///
/// Speech-dispatcher gets plain text (SSML mode stays off), so `<`, `>` and `&` need no escaping:
/// it passes them to the module as text.
public enum SafeSpeechText {
    /// The longest utterance sent, in characters.
    public static let maxCharacters = 4000
    /// The longest utterance sent, in UTF-8 bytes.
    public static let maxUTF8Bytes = 16_000
    /// Scalars kept of one grapheme cluster (the longest emoji sequences have about ten).
    public static let maxScalarsPerCharacter = 16

    /// `text` cleaned as described above; empty when nothing speakable is left.
    public static func clean(_ text: String, maxCharacters: Int = maxCharacters, maxUTF8Bytes: Int = maxUTF8Bytes) -> String {
        if isClean(text, maxCharacters: maxCharacters, maxUTF8Bytes: maxUTF8Bytes) { return text }
        return rewritten(text, maxCharacters: maxCharacters, maxUTF8Bytes: maxUTF8Bytes)
    }

    /// Whether cleaning would give `text` back unchanged — nearly every label — found with one
    /// pass over its scalars instead of splitting it into grapheme clusters: within both
    /// limits (scalars bound the characters), nothing removed, single spaces between words
    /// and none at either end, and no cluster over `maxScalarsPerCharacter` scalars. For that
    /// last one the scalars are counted in stretches that end where two printable ASCII
    /// scalars meet — always a cluster boundary — so no cluster is longer than its stretch.
    static func isClean(_ text: String, maxCharacters: Int, maxUTF8Bytes: Int) -> Bool {
        guard text.utf8.count <= maxUTF8Bytes else { return false }
        var count = 0
        var stretch = 0
        var previousWasASCII = false
        var previousWasSpace = true      // a space first is a space at the start
        for scalar in text.unicodeScalars {
            count += 1
            let isSpace = scalar.value == 0x20
            if isSpace {
                if previousWasSpace { return false }
            } else if isBreakOrSpace(scalar) || isRemoved(scalar) || mayPrepend(scalar) {
                return false
            }
            previousWasSpace = isSpace
            // Control characters are ASCII too, but were refused above.
            stretch = scalar.isASCII && previousWasASCII ? 1 : stretch + 1
            if stretch > maxScalarsPerCharacter { return false }
            previousWasASCII = scalar.isASCII
        }
        return count <= maxCharacters && !previousWasSpace
    }

    /// The cleaning itself, grapheme cluster by cluster.
    static func rewritten(_ text: String, maxCharacters: Int, maxUTF8Bytes: Int) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        var characters = 0
        var bytes = 0
        var scalarCount = 0
        var cutAtSpace: (scalars: Int, characters: Int)?
        for character in text {
            var scalars = String.UnicodeScalarView()
            var kept = 0
            for scalar in character.unicodeScalars {
                if isBreakOrSpace(scalar) {
                    pendingSpace = true
                    continue
                }
                if isRemoved(scalar) { continue }
                if kept < maxScalarsPerCharacter {
                    scalars.append(scalar)
                    kept += 1
                }
            }
            guard !scalars.isEmpty else { continue }
            if pendingSpace && !out.isEmpty {
                if characters + 1 > maxCharacters || bytes + 1 > maxUTF8Bytes { break }
                cutAtSpace = (scalarCount, characters)
                out.append(" ")
                scalarCount += 1
                characters += 1
                bytes += 1
            }
            pendingSpace = false
            let size = scalars.reduce(0) { $0 + UTF8.width($1) }
            if characters + 1 > maxCharacters || bytes + size > maxUTF8Bytes {
                // Cut at the last space when it is near the end (within a tenth), else here.
                if let cut = cutAtSpace, characters - cut.characters <= maxCharacters / 10 {
                    out = String.UnicodeScalarView(out.prefix(cut.scalars))
                }
                break
            }
            out.append(contentsOf: scalars)
            scalarCount += kept
            characters += 1
            bytes += size
        }
        return String(out)
    }

    /// Scalars that may join the character after them into their cluster (Unicode's
    /// Prepend: Arabic number signs, some Brahmic prefixes), a space included, which the
    /// rewrite then moves in front of them; with a margin (the whole Brahmic supplement block).
    static func mayPrepend(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0600...0x0605, 0x06DD, 0x070F, 0x0890...0x0891, 0x08E2, 0x0D4E, 0x11000...0x11FFF: return true
        default: return false
        }
    }

    /// Whitespace that separates words, line and paragraph breaks included; no-break spaces
    /// are not in it.
    static func isBreakOrSpace(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09...0x0D, 0x20, 0x85, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x2028, 0x2029, 0x205F, 0x3000:
            return true
        default:
            return false
        }
    }

    /// Characters that say nothing and may mean something to a protocol.
    static func isRemoved(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x00...0x1F, 0x7F...0x9F: return true           // C0, DEL, C1
        case 0xFEFF: return true                             // byte order mark
        case 0x200B, 0x2060...0x2064: return true            // zero width space, word joiner, invisible operators
        case 0xFFF9...0xFFFB: return true                    // interlinear annotation marks
        case 0xFDD0...0xFDEF: return true                    // noncharacters
        default: return s.value & 0xFFFE == 0xFFFE           // U+xFFFE, U+xFFFF
        }
    }
}
