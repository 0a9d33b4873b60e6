import TandemPolicy
import TandemPresentation
import TandemVocabulary

extension SpeechdEngine {
    // MARK: jobs

    func handle(_ job: SpeechJob) {
        switch job {
        case .speak(let spoken, let external):
            speak(spoken, external: external)
        case .cancel(let spoken):
            cancel(spoken)
        case .sound(let icon):
            playSound(icon)
        case .voice(let v):
            voice = v
            for c in connections.values {
                do throws(SSIPError) { try c.apply(v) } catch { lose(error); return }
            }
        }
    }

    func speak(_ spoken: Spoken, external: Bool) {
        let text = SafeSpeechText.clean(spoken.utterance.text)
        let t = TrackedUtterance(spoken: spoken, text: text, external: external)
        latest[spoken.id] = t
        if text.isEmpty {
            // Nothing to say: over at once.
            finish(t, .end, synthetic: true)
            return
        }
        if t.isKept {
            keep(t)
        } else if isConnected {
            send(t)
        } else {
            // Stale by the time a daemon is back: never said.
            finish(t, .cancel, synthetic: true)
        }
    }

    /// speech-dispatcher's name for a language tag: worked out when the tag changes (with the
    /// app or the element), not for every message.
    func language(_ tag: String) -> String? {
        if let last = lastLanguage, last.tag == tag { return last.name }
        let name = SpeechdVocabulary.language(tag)
        lastLanguage = (tag, name)
        return name
    }

    func playSound(_ icon: SoundIcon) {
        guard let c = connections[.sounds], let name = SpeechdVocabulary.soundIcon(icon) else { return }
        // Its notices name an id no utterance has, so they are passed over.
        do throws(SSIPError) { try c.soundIcon(name, priority: SpeechdVocabulary.priority(.notification)) } catch {
            lose(error)
        }
    }

    func send(_ t: TrackedUtterance) {
        guard let c = connections[t.component] else { return }
        let u = t.spoken.utterance
        do throws(SSIPError) {
            guard let id = try c.speak(t.text, priority: SpeechdVocabulary.priority(t.spoken.priority),
                                       language: language(u.language), spell: u.spell) else {
                // Refused (speech-dispatcher said no): over, as far as anyone waits for it.
                kept.removeAll { $0 === t }
                finish(t, .cancel, synthetic: true)
                sendKept()
                return
            }
            t.messageID = id
            t.sentAt = clock.now()
            lastActivity = t.sentAt
            byMessage[id] = t
            starting = t
        } catch {
            lose(error)
            // It had no message id yet, so `lose` did not see it: stale like the rest of the
            // text in flight (a kept one stays in `kept` and is said after reconnecting).
            if !t.isKept { finish(t, .cancel, synthetic: true) }
        }
    }

    // MARK: events

    /// Handles the events read so far, from every connection, in speech order: a batch read
    /// from several sockets at once is sorted by message id (speech-dispatcher numbers messages
    /// as they come, and one speaker ends a message before it begins a later one), each
    /// message's begin before its end. So "the message ended, then the text began" is never
    /// reported the other way round because the two sockets were read in that order.
    func handleEvents() {
        while true {
            var batch: [SSIPEvent] = []
            for component in SpeechComponent.allCases {
                guard let c = connections[component], !c.events.isEmpty else { continue }
                batch += c.events
                c.events.removeAll()
            }
            guard !batch.isEmpty else { return }
            let ordered = batch.enumerated().sorted { a, b in
                (a.element.messageID, Self.rank(a.element.kind), a.offset) < (b.element.messageID, Self.rank(b.element.kind), b.offset)
            }
            for (_, e) in ordered { handle(e) }
        }
    }

    static func rank(_ kind: SSIPEvent.Kind) -> Int {
        switch kind {
        case .begin: return 0
        case .pause, .resume, .indexMark: return 1
        case .end, .cancel: return 2
        }
    }

    /// A notice for an id no tracked utterance has is passed over: a sound icon's, a message's
    /// sent again (cancel repair) or forgotten (`forgetCancelled`), or one Tandem never sent.
    /// It is never one whose reply is still to come: speech-dispatcher sends a message's
    /// notices on the connection that sent it, and what that connection reads before the reply
    /// naming the id waits in `SSIPConnection.events` until the command is done (a notice can
    /// overtake that reply, as speech-dispatcher's speaking thread writes notices while its
    /// main thread has still to write the reply).
    func handle(_ e: SSIPEvent) {
        lastActivity = clock.now()
        guard let t = byMessage[e.messageID] else { return }
        apply(e.kind, to: t)
    }

    func apply(_ kind: SSIPEvent.Kind, to t: TrackedUtterance) {
        if starting === t {
            starting = nil
            if kind == .begin { settleUntil = clock.now() &+ UInt64(timing.startSettle) * 1_000_000 }
        }
        switch kind {
        case .begin:
            t.begunAt = clock.now()
            if latest[t.spoken.id] === t { report(.speechBegan(t.spoken.id)) }
            if t.cancelRequested { repairCancel(t) }
        case .end, .cancel:
            if let id = t.messageID { byMessage[id] = nil }
            kept.removeAll { $0 === t }
            finish(t, kind)
            sendKept()
        case .pause, .resume, .indexMark:
            break
        }
    }

    /// Reports the end (`.end`) or cancel of `t` to the session, while it is the newest run of
    /// its `Spoken.id`. A `synthetic` end (Tandem's own conclusion, not speech-dispatcher's
    /// notice) is reported only when the session waits for it; otherwise the session's own
    /// estimate ends the utterance, and an early report would cut it short.
    func finish(_ t: TrackedUtterance, _ kind: SSIPEvent.Kind, synthetic: Bool = false) {
        guard latest[t.spoken.id] === t else { return }
        if !synthetic || t.external {
            report(kind == .end ? .speechEnded(t.spoken.id) : .speechCancelled(t.spoken.id))
        }
        t.endReported = true
        latest[t.spoken.id] = nil
    }
}
