import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPresentation

extension Session {
    /// The session-level commands of `tandem run`: speech history, marks, help and settings.
    mutating func performSessionCommand(_ command: Command) {
        let lang = navigator.language
        let phrases = presenter.phrases
        switch command {
        case .historyPrevious, .historyNext:
            guard !history.isEmpty else { emit(.sound(.boundary)); return }
            let current = historyIndex ?? history.count
            let target = current + (command == .historyPrevious ? -1 : 1)
            guard history.indices.contains(target) else { emit(.sound(.boundary)); return }
            historyIndex = target
            var u = history[target]
            u.hint = nil
            u.source = .value
            u.isReview = true
            emit(.event(SessionEvent("history", [.init("index", String(target - history.count)), .init("text", u.text)])))
            submit(u, user: true)
            flash(u.text)
        case .mark:
            let last = history.suffix(3).map(\.text).joined(separator: " | ")
            emit(.event(SessionEvent("mark", [.init("screen", navigator.screen.id), .init("id", navigator.focusedElement?.id ?? ""),
                                              .init("last", last)])))
            say(phrases.markRecorded, lang)
        case .help:
            say(helpText, lang)
        case .rateUp, .rateDown:
            var p = profile
            p.rate = max(-100, min(100, p.rate + (command == .rateUp ? 10 : -10)))
            applySetting(p)
            say(StringFormat.render(phrases.rate, [String(p.rate)]), lang)
        case .punctuation:
            var p = profile
            let levels = ["none", "some", "most", "all"]
            p.punctuation = levels[((levels.firstIndex(of: p.punctuation) ?? 1) + 1) % levels.count]
            applySetting(p)
            say(StringFormat.render(phrases.punctuation, [p.punctuation]), lang)
        case .verbosity:
            var p = profile
            p.verbosity.hints.toggle()
            applySetting(p)
            say(p.verbosity.hints ? phrases.hintsOn : phrases.hintsOff, lang)
        default:
            break
        }
    }

    /// The keys, as the help key says them (set by `tandem run` from its key map).
    var helpText: String {
        help ?? Command.table.map { "\($0.name): \($0.summary)" }.joined(separator: ". ")
    }

    mutating func say(_ text: String, _ lang: String) {
        submit(Utterance(text: text, language: lang, source: .value), user: true)
    }

    mutating func flash(_ text: String) {
        flash(BrailleText(text: text, cursor: nil))
    }

    /// Shows a flash message for the profile's message time.
    mutating func flash(_ text: BrailleText) {
        display.showFlash(text)
        restartFlashTimer()
    }

    /// The message time starts again (a new message, or panning the one shown); an earlier
    /// timer is left to fire harmlessly, since it carries an older token.
    mutating func restartFlashTimer() {
        flashToken += 1
        if profile.messageTime > 0 { timers.add(.flashEnd(flashToken), at: now + profile.messageTime) }
    }

    /// A changed speech setting: the session uses it and live outputs are told (a `voice` event).
    mutating func applySetting(_ p: Profile) {
        profile = p
        presenter.verbosity = p.verbosity
        policy.settings = p.policySettings
        emit(.event(SessionEvent("voice", [.init("rate", String(p.rate)), .init("punctuation", p.punctuation),
                                           .init("hints", p.verbosity.hints ? "on" : "off")])))
    }

    /// A scenario's `expect` on `line` of `file`: nil when the last focus speech contains `text`,
    /// else the failure, which is also logged in the transcript.
    public mutating func check(expect text: String, file: String, line: Int, at time: Int) -> Diagnostic? {
        now = max(now, time)
        guard !lastFocusSpeech.contains(text) else { return nil }
        emit(.event(SessionEvent("expect-failed", [.init("line", String(line)), .init("expected", text), .init("got", lastFocusSpeech)])))
        return Diagnostic(file: file, line: line, path: "",
                          message: "expect failed: \"\(text)\" not in the last focus speech \"\(lastFocusSpeech)\"")
    }

    /// A catalog edit that failed to load: said and shown; the last good catalog stays.
    public mutating func reportCatalogError(_ message: String, at time: Int) {
        now = max(now, time)
        emit(.event(SessionEvent("reload-failed", [.init("message", message)])))
        let text = StringFormat.render(presenter.phrases.catalogError, [message])
        submit(Utterance(text: text, language: navigator.language, source: .error), user: false)
        flash(text)
    }
}
