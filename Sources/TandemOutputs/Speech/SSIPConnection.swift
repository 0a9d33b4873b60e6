import TandemVocabulary
/// What went over the wire, for benchmarks and debugging: a command written (`SPEAK`,
/// `CANCEL SELF`, `DATA` for the text and its end line, …) or a reply read, with its time on
/// the worker's `WorkerClock`.
public struct SSIPTrace: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case wrote, replied }
    public var kind: Kind
    /// The command's words without arguments that vary (`SET SELF PRIORITY`, `SPEAK`, `DATA`).
    public var command: String
    public var component: SpeechComponent
    /// The reply's code (0 for a write).
    public var code: Int
    /// The worker's `WorkerClock.now()` right after the write or the read.
    public var time: UInt64

    public init(kind: Kind, command: String, component: SpeechComponent, code: Int, time: UInt64) {
        self.kind = kind; self.command = command; self.component = component; self.code = code; self.time = time
    }
}

/// One SSIP connection (one `SpeechComponent`): commands and their replies with deadlines,
/// and the events that arrive meanwhile set aside in `events` for the caller to handle once
/// the command is done (so handling an event never runs inside another command, and a
/// message's notices that overtake the reply naming its id are handled after that reply).
///
/// Settings are cached: `SET SELF PRIORITY`, `LANGUAGE` and `SPELLING` go out only when they
/// change, so a typical utterance costs two round trips (`SPEAK`, then its text).
final class SSIPConnection {
    let component: SpeechComponent
    let socket: SSIPSocket
    let replyTimeoutMs: Int
    /// How long `post` may wait for the socket (`Timing.goodbyeWrite`).
    var goodbyeWriteMs = 20
    var trace: (@Sendable (SSIPTrace) -> Void)?
    /// Events read while waiting for replies, oldest first.
    var events: [SSIPEvent] = []
    private var parser = SSIPParser()
    private var priority: String?
    private var language: String?
    private var spelling = false

    private init(component: SpeechComponent, socket: SSIPSocket, replyTimeoutMs: Int, trace: (@Sendable (SSIPTrace) -> Void)?) {
        self.component = component; self.socket = socket; self.replyTimeoutMs = replyTimeoutMs; self.trace = trace
    }

    /// Connects, names itself `user:tandem:component`, turns every notification on and sets
    /// the voice. Every wait for the daemon ends at once when `stopFD` becomes readable.
    /// `sendBuffer`: the socket's SO_SNDBUF (nil: the system's).
    static func open(_ address: SpeechdAddress, component: SpeechComponent, user: String, voice: SpeechVoice,
                     replyTimeoutMs: Int, sendBuffer: Int? = nil, stopFD: Int32 = -1, clock: WorkerClock,
                     trace: (@Sendable (SSIPTrace) -> Void)?) throws(SSIPError) -> SSIPConnection {
        let socket = try SSIPSocket.connect(address, timeoutMs: replyTimeoutMs, sendBuffer: sendBuffer, stopFD: stopFD, clock: clock)
        let c = SSIPConnection(component: component, socket: socket, replyTimeoutMs: replyTimeoutMs, trace: trace)
        let name = try c.request("SET SELF CLIENT_NAME \(user):tandem:\(component.rawValue)")
        guard name.isSuccess else { throw .broken("speech-dispatcher refused the client name: \(name.code) \(name.message)") }
        let notify = try c.request("SET SELF NOTIFICATION ALL on")
        guard notify.isSuccess else { throw .broken("speech-dispatcher refused notifications: \(notify.code) \(notify.message)") }
        try c.apply(voice)
        return c
    }

    /// Sets rate, pitch, volume, punctuation and voice type; a value speech-dispatcher refuses
    /// is left at its default.
    func apply(_ voice: SpeechVoice) throws(SSIPError) {
        _ = try request("SET SELF RATE \(SpeechdVocabulary.scale(voice.rate))")
        _ = try request("SET SELF PITCH \(SpeechdVocabulary.scale(voice.pitch))")
        _ = try request("SET SELF VOLUME \(SpeechdVocabulary.scale(voice.volume))")
        if let p = SpeechdVocabulary.punctuation(voice.punctuation) { _ = try request("SET SELF PUNCTUATION \(p)") }
        if let v = voice.voiceType.flatMap(SpeechdVocabulary.voiceType) { _ = try request("SET SELF VOICE_TYPE \(v)") }
    }

    /// Says `text` (already safe, one line) and returns speech-dispatcher's message id, or
    /// nil when it refused the message.
    func speak(_ text: String, priority: String, language: String?, spell: Bool) throws(SSIPError) -> Int? {
        if priority != self.priority, try request("SET SELF PRIORITY \(priority)").isSuccess { self.priority = priority }
        if let language, language != self.language, try request("SET SELF LANGUAGE \(language)").isSuccess { self.language = language }
        if spell != spelling, try request("SET SELF SPELLING \(spell ? "on" : "off")").isSuccess { spelling = spell }
        guard try request("SPEAK").code == 230 else { return nil }
        let reply = try exchange(SSIPWire.speakData(text), command: "DATA")
        guard reply.code == 225, let id = reply.parameters.first.flatMap({ Int($0) }) else { return nil }
        return id
    }

    /// Plays a sound icon. Nothing waits for it (its notices name an id no utterance has), so
    /// a refusal is no error either: the sound is simply not heard.
    func soundIcon(_ name: String, priority: String) throws(SSIPError) {
        if priority != self.priority, try request("SET SELF PRIORITY \(priority)").isSuccess { self.priority = priority }
        try request("SOUND_ICON \(name)")
    }

    /// One command and its reply.
    @discardableResult
    func request(_ line: String) throws(SSIPError) -> SSIPBlock {
        try exchange(SSIPWire.command(line), command: Self.traceName(line))
    }

    /// Writes without waiting for the reply (on the way out: `CANCEL SELF`, `QUIT`); false when
    /// the socket did not take it within `goodbyeWriteMs` (the daemon stopped reading) or broke.
    @discardableResult
    func post(_ line: String) -> Bool {
        do throws(SSIPError) {
            try socket.send(SSIPWire.command(line), until: socket.clock.deadline(afterMilliseconds: goodbyeWriteMs), stoppable: false)
            return true
        } catch {
            return false
        }
    }

    /// On the way out: `CANCEL SELF` and `QUIT`, without waiting for replies. A daemon that
    /// did not take the cancel is not given the `QUIT` (it would wait just as long, for nothing).
    func sayGoodbye() {
        if post("CANCEL SELF") { post("QUIT") }
    }

    /// Reads whatever has arrived; events land in `events`. Throws when the connection broke.
    func pump() throws(SSIPError) {
        _ = try socket.receive(into: &parser)
        while let b = parser.next() {
            if b.isEvent, let e = SSIPEvent(b) { events.append(e) }
        }
    }

    /// `command` names it in traces and errors only, so it is not worked out otherwise.
    private func exchange(_ bytes: [UInt8], command: @autoclosure () -> String) throws(SSIPError) -> SSIPBlock {
        let deadline = socket.clock.deadline(afterMilliseconds: replyTimeoutMs)
        let traced = trace.map { ($0, command()) }
        try socket.send(bytes, until: deadline)
        if let (trace, name) = traced { trace(SSIPTrace(kind: .wrote, command: name, component: component, code: 0, time: socket.clock.now())) }
        while true {
            while let b = parser.next() {
                if b.isEvent {
                    if let e = SSIPEvent(b) { events.append(e) }
                    continue
                }
                if let (trace, name) = traced { trace(SSIPTrace(kind: .replied, command: name, component: component, code: b.code, time: socket.clock.now())) }
                // Events that came in the same read are already off the socket: set them aside
                // now, or nothing would wake the caller for them until more data arrives.
                while let more = parser.next() {
                    if more.isEvent, let e = SSIPEvent(more) { events.append(e) }
                }
                return b
            }
            guard try socket.wait(until: deadline) else {
                throw .timeout("speech-dispatcher did not answer \(traced?.1 ?? command()) within \(replyTimeoutMs) ms")
            }
            _ = try socket.receive(into: &parser)
        }
    }

    /// The command's fixed words, for traces (`SET SELF PRIORITY`, `SPEAK`, `CANCEL SELF`): the
    /// line up to its third space for `SET`, its second for the rest. (Worked out on every
    /// command while tracing, so by one pass over the bytes rather than splitting the line.)
    static func traceName(_ line: String) -> String {
        let bytes = line.utf8
        let words = bytes.starts(with: "SET ".utf8) ? 3 : 2
        var spaces = 0
        for i in bytes.indices where bytes[i] == UInt8(ascii: " ") {
            spaces += 1
            if spaces == words { return String(line[..<i]) }
        }
        return line
    }

    func close() { socket.close() }
}
