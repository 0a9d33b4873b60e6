
/// The transcript format (Docs/formats.md#transcript): one JSON object a line, `t` and `ch` first.
public enum Transcript {
    /// The line for a record at time `t` (milliseconds).
    public static func line(for record: Record, at t: Int) -> TranscriptLine {
        var f: [(String, TranscriptLine.Value)] = [("t", .int(t)), ("ch", .string(channel(of: record)))]
        switch record {
        case .speech(let decision):
            switch decision {
            case .speak(let s):
                f += [("op", .string("speak"))] + spoken(s)
            case .cancel(let s):
                f += [("op", .string("cancel")), ("text", .string(s.utterance.text))]
            case .drop(let s, let reason):
                f += [("op", .string("drop"))] + spoken(s) + [("reason", .string(reason))]
            case .postpone(let s, let reason):
                f += [("op", .string("postpone"))] + spoken(s) + [("reason", .string(reason))]
            }
        case .braille(let frame):
            f += [("text", .string(frame.text)), ("cells", .string(unicodeBraille(frame.cells)))]
            if let c = frame.cursor { f.append(("cursor", .int(c))) }
            f.append(("window", .string("\(frame.window + 1)/\(frame.windowCount)")))
            if frame.flash { f.append(("flash", .bool(true))) }
        case .sound(let icon):
            f += [("icon", .string(icon.rawValue))]
        case .event(let e):
            f += [("type", .string(e.type))]
            f += e.fields.map { ($0.key, .string($0.value)) }
        case .outputStatus(let s):
            f += [("type", .string("output")), ("output", .string(s.output.rawValue)),
                  ("available", .string(s.available ? "yes" : "no")), ("message", .string(s.message))]
        case .speechSettings(let s):
            f += [("type", .string("voice")), ("rate", .string(String(s.voice.rate))),
                  ("punctuation", .string(s.voice.punctuation)), ("hints", .string(s.hints ? "on" : "off"))]
        }
        return TranscriptLine(f)
    }

    /// The line's channel (`ch`): known without building the line, so a subscriber that does
    /// not want it costs nothing more.
    public static func channel(of record: Record) -> String {
        switch record {
        case .speech: return "speech"
        case .braille: return "braille"
        case .sound: return "sound"
        case .event, .outputStatus, .speechSettings: return "event"
        }
    }

    static func spoken(_ s: Spoken) -> [(String, TranscriptLine.Value)] {
        var f: [(String, TranscriptLine.Value)] = [
            ("prio", .string(s.priority.rawValue)), ("text", .string(s.utterance.text)),
            ("lang", .string(s.utterance.language)), ("src", .string(s.utterance.source.rawValue)),
        ]
        if s.utterance.spell { f.append(("spell", .bool(true))) }
        return f
    }
}
