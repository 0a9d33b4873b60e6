import FuzzSupport
import TandemModel
import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemProtocol
import TandemService
import TandemSession
import TandemVocabulary

/// Any bytes as what `tandem serve`'s clients send, through the service, the session, the
/// speech policy and the outputs' records as the session thread runs them, with liblouis
/// translating braille (Docs/reliability.md#hostile-clients). Each line goes to one of three
/// clients by its first byte: `a` the app "A", `b` the app "B" (also named "A" by its hello in
/// the seeds, so names must come apart), `k` a controller; the rest of the line is what that
/// client sends (any other first byte: the whole line, from app "A"). The clock moves 40 ms a
/// line, so timers and speech ends fall due.
///
/// Nothing may trap, and after every line the bounds the service promises hold: every reply
/// fits a line the client accepts (`maxLine`), the speech backlog stays bounded, each braille
/// frame is at most the display's width and its text at most the braille cut, every spoken
/// text is what speech-dispatcher may be sent, and focus is never on a removed element.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzService(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(UnsafeRawBufferPointer(start: data, count: size))
    let records = RecordingSink()
    let profile = Profile()
    let (session, service) = Service.start(profile: profile, catalog: nil, sink: records, timing: .virtual,
                                           makeTranslator: { _ in ServiceFuzz.translator })
    // The one entry tandem serve feeds (SessionCore.apply), each line an instant of its own.
    var core = SessionCore(session: session, service: service)
    core.apply(.open(), at: 0)
    for c in ServiceFuzz.clients { core.apply(.clientConnected(c), at: 0) }
    var now = 0
    var lineOf: [ClientID: Int] = [:]
    for raw in input.split(separator: 0x0A, omittingEmptySubsequences: true) {
        let (client, bytes) = ServiceFuzz.route(Array(raw))
        now += 40
        lineOf[client, default: 0] += 1
        core.apply(.clientLine(client, line: lineOf[client]!, bytes: bytes), at: now)
        ServiceFuzz.check(core.takeOutbox(), maxLine: service.options.maxLine)
        precondition(core.session.speechQueue.count <= ServiceFuzz.maxQueue, "speech backlog of \(core.session.speechQueue.count)")
    }
    for c in ServiceFuzz.clients { core.apply(.clientDisconnected(c), at: now + 1) }
    core.advance(to: now + 600_000)
    ServiceFuzz.check(core.takeOutbox(), maxLine: service.options.maxLine)
    ServiceFuzz.check(records.records.map(\.record), width: profile.brailleWidth)
    return 0
}

enum ServiceFuzz {
    static let clients: [ClientID] = ["a", "b", "k"]
    /// One translator for every input: liblouis loads its tables once per process.
    static let translator = withoutLeakChecks { LouisTranslator() }
    /// The policy keeps `maxWaitingAnnouncements` a priority, besides what is playing and
    /// Tandem's own statuses.
    static let maxQueue = 5 * SpeechPolicy.maxWaitingAnnouncements + 8

    static func route(_ line: [UInt8]) -> (ClientID, [UInt8]) {
        switch line.first {
        case UInt8(ascii: "a"): ("a", Array(line.dropFirst()))
        case UInt8(ascii: "b"): ("b", Array(line.dropFirst()))
        case UInt8(ascii: "k"): ("k", Array(line.dropFirst()))
        default: ("a", line)
        }
    }

    /// Every reply, transcript lines to subscribers included, fits one line the client takes.
    static func check(_ items: [ServiceOutbox.Item], maxLine: Int) {
        for case .send(let client, let message) in items {
            let n = message.json.utf8.count
            precondition(n <= maxLine, "a \(n)-byte line to \(client), over maxLine \(maxLine)")
            precondition(!message.json.utf8.contains(0x0A), "a reply to \(client) holds a line break")
        }
    }

    /// What reached the outputs: braille within the display and the cut, speech text that
    /// speech-dispatcher may be sent as it is.
    static func check(_ records: [Record], width: Int) {
        for r in records {
            switch r {
            case .braille(let f):
                precondition(f.cells.count <= width, "a frame of \(f.cells.count) cells on a \(width)-cell display")
                precondition(f.text.unicodeScalars.count <= BrailleText.maxCharacters + 2, "braille text of \(f.text.unicodeScalars.count) characters")
                precondition((0..<max(1, f.windowCount)).contains(f.window), "window \(f.window) of \(f.windowCount)")
                if let c = f.cursor { precondition((0...width).contains(c), "cursor \(c) on \(width) cells") }
            case .speech(.speak(let s)):
                let text = SafeSpeechText.clean(s.utterance.text)
                precondition(SafeSpeechText.clean(text) == text, "cleaning is not idempotent on \(s.utterance.text.prefix(80))")
                precondition(text.utf8.count <= SafeSpeechText.maxUTF8Bytes)
            default:
                continue
            }
        }
    }
}
