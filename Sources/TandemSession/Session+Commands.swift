import TandemModel
import TandemNavigator
import TandemPresentation
import TandemVocabulary

extension Session {
    /// The commands `Command.table` gives to the session's output: reading, silencing,
    /// panning and routing.
    mutating func performOutputCommand(_ command: Command) {
        if command == .panLeft || command == .panRight {
            // Panning keeps a flash message: it pans the message instead.
            pan(forward: command == .panRight)
            return
        }
        if command == .stop {
            display.dismissFlash()
            readAll = nil
            apply(policy.stop(at: now))
            return
        }
        if case .route = command, display.isFlashing {
            // A routing key over a message only dismisses it (NVDA, Orca): the user pressed it
            // on the message's text, not on an element.
            display.dismissFlash()
            return
        }
        beginKey()
        switch command {
        case .repeat:
            // With no speech, the last thing the display told (the history's newest entry).
            let last = lastSpoken ?? (profile.speech ? nil : history.entries.last { $0.source != .hint })
            if let u = last {
                submit(Utterance(text: u.text, language: u.language, source: .value, spell: u.spell), user: true)
                // Shown again too, as a message: a braille user repeats by reading.
                flash(u.spell ? Self.spelled(u.text) : u.text)
            }
        case .spell:
            if let f = navigator.focusIndex {
                let label = presenter.label(for: f, in: navigator)
                submit(Utterance(text: label, language: navigator.language, source: .value, spell: true), user: true)
                flash(Self.spelled(label))
            }
        case .readAll:
            guard let f = navigator.focusIndex else { break }
            readAll = ReadAll()
            let text = presenter.speech(for: f, in: navigator)
            lastFocusSpeech = text
            submit(Utterance(text: text, language: navigator.language, source: .focus), user: true)
        case .readFromTop:
            // Focus goes to the first element and reading goes on from there.
            readAll = ReadAll()
            handle(navigator.focusFirstForReadAll(), user: true)
        case .route(let cell):
            guard let frame = display.frame(), cell < frame.cells.count else {
                emit(.sound(.boundary))
                flash(presenter.phrases.boundary("none"))
                break
            }
            handle(navigator.perform(.activate), user: true)
        default:
            assertionFailure("no output handler for \(command.name)")
        }
    }

    /// The commands `Command.table` gives to the tester's tools: speech history, marks, help
    /// and speech settings.
    mutating func performTesterCommand(_ command: Command) {
        let lang = navigator.language
        let phrases = presenter.phrases
        switch command {
        case .historyPrevious, .historyNext:
            guard let (u, position) = history.step(back: command == .historyPrevious) else {
                emit(.sound(.boundary))
                flash(phrases.boundary(command == .historyPrevious ? "start" : "end"))
                return
            }
            emit(.event(SessionEvent("history", [.init("index", String(position - history.entries.count)), .init("text", u.text)])))
            submit(u, user: true)
            // The display shows where in the history the entry is: "3 of 12: …".
            flash(phrases.format("context.position", String(position + 1), String(history.entries.count)) + ": " + u.text)
        case .mark:
            emit(.event(SessionEvent("mark", [.init("screen", navigator.screen.id), .init("id", navigator.focusedElement?.id ?? ""),
                                              .init("last", history.recent(3).joined(separator: " | "))])))
            say(phrases.markRecorded, lang)
        case .help:
            // Long: it stays on the display until a key, so it can be read window by window.
            submit(Utterance(text: helpText, language: lang, source: .value), user: true)
            flash(BrailleText(text: helpText, cursor: nil), untilKey: true)
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
            assertionFailure("no tester handler for \(command.name)")
        }
    }

    /// The keys, as the help key says them in the session's language: the terminal's key map
    /// when `tandem run` set one, else every command.
    var helpText: String {
        let phrases = presenter.phrases
        if let displayKeys { return displayKeys.brailleHelp(phrases) }
        if let helpKeys { return helpKeys.terminalHelp(phrases) }
        return Command.table.map { "\($0.usage): \(phrases.commandSummary($0.name) ?? $0.summary)" }.joined(separator: ". ")
    }

    /// A label as the display spells it: its characters one by one, a blank between each and
    /// two between words (`M i n h a s  l i s t a s`), so each reads as itself, not as a
    /// contraction or part of a word.
    static func spelled(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).map { $0.map(String.init).joined(separator: " ") }.joined(separator: "  ")
    }

    /// The tester's feedback (mark, rate, …): said, and shown as a message.
    mutating func say(_ text: String, _ lang: String) {
        submit(Utterance(text: text, language: lang, source: .value), user: true)
        flash(text)
    }

    mutating func flash(_ text: String) {
        flash(BrailleText(text: text, cursor: nil))
    }

    /// Shows a flash message for the profile's message time (`untilKey`: until a key other
    /// than panning).
    mutating func flash(_ text: BrailleText, untilKey: Bool = false) {
        var text = text
        // The same message again over itself ("End" for a second key past the end) would leave
        // the display unchanged, as if the key did nothing: it is counted, "End (2)".
        if let r = repeatedFlash, r.text == text.text, display.lastWrittenFlash == r.shown {
            text.text += " (\(r.count + 1))"
            repeatedFlash = (r.text, r.count + 1, text.text)
        } else {
            repeatedFlash = (text.text, 1, text.text)
        }
        // The display is away: the message waits to be shown when it is back.
        if profile.braille, outputAvailability[.braille] == false, !missedMessages.contains(text.text) {
            missedMessages.append(text.text)
            if missedMessages.count > 20 { missedMessages.removeFirst() }
        }
        display.showFlash(text)
        flashStaysUntilKey = untilKey
        restartFlashTimer()
    }

    /// The message time starts again (a new message, or panning the one shown).
    mutating func restartFlashTimer() {
        let time = flashStaysUntilKey ? 0 : profile.messageTime
        if let (token, due) = flashTimer.restart(at: now, messageTime: time) { timers.add(.flashEnd(token), at: due) }
    }

    /// A changed speech setting: the session uses it and speech applies it (a `voice` event).
    mutating func applySetting(_ p: Profile) {
        profile = p
        presenter.verbosity = p.verbosity
        policy.settings = p.policySettings
        emit(.speechSettings(p.speechSettings))
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

    /// A scenario's `expect-action` on `line` of `file`: nil when the actions rotor has the
    /// custom action `name` selected on the focused element (`nil`: none, the element's own
    /// activation), else the failure, which is also logged in the transcript.
    public mutating func check(expectAction name: String?, file: String, line: Int, at time: Int) -> Diagnostic? {
        now = max(now, time)
        var selected: String?
        if let f = navigator.focusIndex, let r = navigator.rotor {
            let actions = navigator.screen.elements[f].actions
            if r < actions.count { selected = actions[r].name }
        }
        guard selected != name else { return nil }
        func named(_ n: String?) -> String { n.map { "\"\($0)\"" } ?? "none (the element's own activation)" }
        emit(.event(SessionEvent("expect-failed", [.init("line", String(line)), .init("action", name ?? "none"), .init("selected", selected ?? "none")])))
        return Diagnostic(file: file, line: line, path: "",
                          message: "expect-action failed: the actions rotor has \(named(selected)) selected, not \(named(name))")
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
