import TandemModel
import TandemVocabulary

/// One input of a live `tandem serve` session, as `--record` writes it and
/// `tandem replay --session` plays it back (Docs/protocol.md#record).
public enum RecordedInput: Sendable, Hashable {
    /// The session's set-up: the profile, the `--catalog` app if any, the user-action window
    /// when `--user-action-window` changed it, and `speechNotices` when speech-dispatcher's
    /// notices are recorded (`speechd` lines): the replay then times speech by them, as the
    /// live session did, instead of estimating (time 0).
    case start(profile: String, catalog: String?, userActionWindow: Milliseconds? = nil, speechNotices: Bool = false)
    /// A key; `display` when it came from the braille display (its help lists the display's keys).
    case key(Command, display: Bool = false)
    case connect(client: ClientID)
    case line(client: ClientID, number: Int, bytes: [UInt8])
    case disconnect(client: ClientID)
    case output(OutputStatus)
    case displayWidth(Int)
    /// speech-dispatcher began, finished or cancelled the utterance with this `Spoken.id`
    /// (`{"speechd":"end","id":12}`): what made the live session go on, as it happened.
    case speech(SpeechNotice, id: Int)
    /// The session opened (said where the user is). What the devices reported before it (their
    /// status, the display's width) comes before this line; a recording without it opens first.
    case open
    /// The live session stopped (SIGTERM, SIGINT): the replay ends here too, instead of playing
    /// on what was still due (a hint, a speech end) after the tester stopped.
    case stop

    /// The JSON line (without `t`, which the recorder puts first).
    public var fields: String {
        let q = JSONText.quote
        switch self {
        case .start(let profile, let catalog, let window, let notices):
            let catalogField = catalog.map { ",\"catalog\":\(q($0))" } ?? ""
            let windowField = window.map { ",\"userActionWindow\":\($0)" } ?? ""
            let noticesField = notices ? ",\"speechNotices\":true" : ""
            return "\"start\":{\"profile\":\(q(profile))\(catalogField)\(windowField)\(noticesField)}"
        case .key(let c, let display): return "\"key\":\(q(c.name))" + (display ? ",\"from\":\"display\"" : "")
        case .connect(let c): return "\"client\":\(q(c.name)),\"connect\":true"
        case .line(let c, let n, let bytes):
            return "\"client\":\(q(c.name)),\"line\":\(n),\"text\":\(q(String(decoding: bytes, as: UTF8.self)))"
        case .disconnect(let c): return "\"client\":\(q(c.name)),\"disconnect\":true"
        case .output(let s):
            return "\"output\":\(q(s.output.rawValue)),\"available\":\(s.available),\"message\":\(q(s.message))"
        case .displayWidth(let n): return "\"displayWidth\":\(n)"
        case .speech(let notice, let id): return "\"speechd\":\(q(notice.rawValue)),\"id\":\(id)"
        case .open: return "\"open\":true"
        case .stop: return "\"stop\":true"
        }
    }
}

extension RecordedInput {
    /// Reads a recording: each line's time and input; errors name the file and line.
    public static func read(_ text: String, file: String) throws(Diagnostic) -> [(time: Int, input: RecordedInput)] {
        var out: [(time: Int, input: RecordedInput)] = []
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if raw.allSatisfy({ $0 == " " || $0 == "\r" }) { continue }
            do throws(Diagnostic) {
                out.append(try MessageReader.read(Array(raw.utf8), line: number) { (r) throws(Diagnostic) in
                    guard let t = try r.integer("t"), t >= 0 else { throw r.failure(nil, "missing field \"t\" (milliseconds)") }
                    if r.has("start") {
                        guard let start = r.value("start"), case .object = start.kind else { throw r.failure("start", "expected an object") }
                        guard case .string(let profile)? = start["profile"]?.kind else { throw r.failure("start", "missing field \"profile\"") }
                        var catalog: String?
                        if case .string(let c)? = start["catalog"]?.kind { catalog = c }
                        var window: Milliseconds?
                        if let w = start["userActionWindow"] {
                            guard case .number(let n) = w.kind, n >= 0, n == n.rounded(), n < 1e9, case let ms = Int(n) else { throw r.failure("start.userActionWindow", "expected milliseconds (a whole number, 0 or more)") }
                            window = ms
                        }
                        var notices = false
                        if let n = start["speechNotices"] {
                            guard case .bool(let b) = n.kind else { throw r.failure("start.speechNotices", "expected true or false") }
                            notices = b
                        }
                        return (t, .start(profile: profile, catalog: catalog, userActionWindow: window, speechNotices: notices))
                    }
                    if let k = try r.string("key") {
                        guard let c = Command(name: k) else { throw r.failure("key", "unknown command \"\(k)\"") }
                        let from = try r.string("from")
                        guard from == nil || from == "display" else { throw r.failure("from", "expected \"display\", found \"\(from!)\"") }
                        return (t, .key(c, display: from == "display"))
                    }
                    if let o = try r.string("output") {
                        guard let kind = OutputKind(rawValue: o) else { throw r.failure("output", "unknown output \"\(o)\"") }
                        return (t, .output(OutputStatus(kind, available: try r.bool("available") ?? false, message: try r.string("message") ?? "")))
                    }
                    if let w = try r.integer("displayWidth") { return (t, .displayWidth(w)) }
                    if let n = try r.string("speechd") {
                        guard let notice = SpeechNotice(rawValue: n) else { throw r.failure("speechd", "unknown notice \"\(n)\" (begin, end, cancel)") }
                        guard let id = try r.integer("id") else { throw r.failure(nil, "a speechd notice needs \"id\" (the utterance's number)") }
                        return (t, .speech(notice, id: id))
                    }
                    if try r.bool("open") == true { return (t, .open) }
                    if try r.bool("stop") == true { return (t, .stop) }
                    guard let client = try r.string("client").map({ ClientID($0) }) else { throw r.failure(nil, "not a recorded input (key, client, output, displayWidth, speechd, start, open, stop)") }
                    if try r.bool("connect") == true { return (t, .connect(client: client)) }
                    if try r.bool("disconnect") == true { return (t, .disconnect(client: client)) }
                    guard let n = try r.integer("line"), let text = try r.string("text") else { throw r.failure(nil, "a client's line needs \"line\" and \"text\"") }
                    return (t, .line(client: client, number: n, bytes: Array(text.utf8)))
                })
            } catch {
                var d = error
                d.file = file
                throw d
            }
        }
        return out
    }
}

/// What speech-dispatcher said of an utterance (the transcript's `speechd` notices).
public enum SpeechNotice: String, Sendable, Hashable {
    case begin, end, cancel
}
