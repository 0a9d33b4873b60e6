import TandemPolicy
import TandemPresentation
import TandemVocabulary

/// Tandem's words turned into speech-dispatcher's: priorities, languages, voice types,
/// punctuation levels, sound icons. Everything here ends up on an SSIP command line, so every
/// function returns only characters SSIP takes there (or nil for "leave it unset").
enum SpeechdVocabulary {
    /// `SET SELF PRIORITY` argument (SSIP's names are Tandem's).
    static func priority(_ p: Priority) -> String {
        switch p {
        case .important: return "important"
        case .message: return "message"
        case .text: return "text"
        case .notification: return "notification"
        case .progress: return "progress"
        }
    }

    /// A BCP 47 tag (`en`, `pt-BR`, `ru`, `zh-Hant-TW`, `en_US`) as speech-dispatcher writes
    /// languages: lower case, language and region only (`en`, `pt-br`, `ru`, `zh-tw`, `en-us`).
    /// Nil when the tag has no usable language subtag.
    static func language(_ tag: String) -> String? {
        let parts = tag.lowercased().split(omittingEmptySubsequences: false) { $0 == "-" || $0 == "_" }
        guard let lang = parts.first, (2...3).contains(lang.count), lang.allSatisfy({ $0 >= "a" && $0 <= "z" }) else { return nil }
        // The region is the first later subtag of 2 letters or 3 digits (scripts have 4 letters).
        let region = parts.dropFirst().first { p in
            (p.count == 2 && p.allSatisfy { $0 >= "a" && $0 <= "z" }) || (p.count == 3 && p.allSatisfy { $0 >= "0" && $0 <= "9" })
        }
        return region.map { "\(lang)-\($0)" } ?? String(lang)
    }

    /// `SET SELF VOICE_TYPE` argument for a profile's voice (`male1`, `Female2`, `child_male`…).
    static func voiceType(_ name: String) -> String? {
        let n = name.uppercased().replacingOccurrences(of: "-", with: "_")
        let known = ["MALE1", "MALE2", "MALE3", "FEMALE1", "FEMALE2", "FEMALE3", "CHILD_MALE", "CHILD_FEMALE"]
        return known.contains(n) ? n : nil
    }

    /// `SET SELF PUNCTUATION` argument: `none`, `some`, `most`, `all`.
    static func punctuation(_ level: String) -> String? {
        let l = level.lowercased()
        return ["none", "some", "most", "all"].contains(l) ? l : nil
    }

    /// Rate, pitch and volume are -100…100 in SSIP (speech-dispatcher refuses the rest).
    static func scale(_ v: Int) -> Int { min(100, max(-100, v)) }

    /// A sound icon name for `SOUND_ICON` (letters, digits, `-`, `_`, `.`).
    static func soundIcon(_ icon: SoundIcon) -> String? {
        let name = icon.rawValue
        let ok = !name.isEmpty && name.unicodeScalars.allSatisfy { s in
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "-" || s == "_" || s == "."
        }
        return ok ? name : nil
    }
}
