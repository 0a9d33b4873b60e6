import TandemNavigator
import TandemPolicy
import TandemPresentation
import TandemVocabulary

extension Session {
    /// Turns navigator events into records: events for the transcript, speech through the
    /// policy, braille through the display. `extraHint` follows a focus utterance's own hint
    /// (how to get help, when a session opens).
    mutating func handle(_ events: [NavigatorEvent], user: Bool, window: BrailleDisplay.WindowChoice = .cursor,
                         extraHint: String? = nil) {
        /// The value the user's own change showed in this burst (an announcement it posts flashes with it).
        var userValue: String?
        /// A new screen in this burst: the focus line it brings starts with the screen word.
        var newScreen = false
        for event in events {
            var progressOf: String?
            var lastStep = false
            switch event {
            case .focused(let screen, let id, let reason):
                emit(.event(SessionEvent("focus", [.init("screen", screen), .init("id", id), .init("reason", reason.rawValue)])))
                notices.append(.focus(screen: screen, element: id))
                progressBraille.focusMoved()
                timers.remove(.busyTick)
                if let p = navigator.screen[id]?.progress, p.value == nil {
                    timers.add(.busyTick, at: now + max(250, profile.progressInterval))
                }
            case .screenChanged(let screen):
                emit(.event(SessionEvent("screen", [.init("screen", screen)])))
                newScreen = true
            case .activated(let id):
                emit(.event(SessionEvent("activate", [.init("id", id)])))
            case .actionPerformed(let id, let name):
                emit(.event(SessionEvent("action", [.init("id", id), .init("name", name)])))
            case .appAction(let a):
                var fields: [SessionEvent.Field] = [.init("action", a.kind.rawValue), .init("id", a.element)]
                if let name = a.name { fields.append(.init("name", name)) }
                if let text = a.text {
                    // What a tester types into a secure field is not written down.
                    fields.append(.init("text", (navigator.screen[a.element]?.traits ?? []).disclosed(text)))
                }
                emit(.event(SessionEvent("app-action", fields)))
                notices.append(.action(a))
            case .unhandled(let command):
                emit(.event(SessionEvent("unhandled", [.init("command", command.name)])))
            case .schedule(let timer, let after):
                timers.add(.navigator(timer), at: now + after)
            case .progress(let id, let step, let steps, _):
                progressOf = id
                lastStep = step >= steps
            default:
                break
            }
            for output in presenter.present(event, in: navigator) {
                switch output {
                case .speak(var u):
                    if case .elementChanged = event { lastFocusSpeech = u.text }
                    if case .valueChanged = event, user { userValue = u.text }
                    if u.source == .focus {
                        if let intro = appIntro {
                            u.text = intro + ", " + u.text
                            appIntro = nil
                        }
                        lastFocusSpeech = u.text
                        if readAll != nil { u.hint = nil }
                        if let extraHint { u.hint = [u.hint, extraHint].compactMap { $0 }.joined(separator: ". ") }
                    }
                    if u.source == .progress && !profile.progressFeedback.speaks {
                        // Not said, but shown: with no speech the history holds it, as it holds
                        // every other thing the display told (Docs/braille.md#rules).
                        if !profile.speech { history.record(u) }
                        continue
                    }
                    submit(u, user: user)
                case .focusLine(var text):
                    if let progressOf {
                        showProgress(text, element: progressOf, last: lastStep)
                    } else if case .focused(_, let id, _) = event {
                        if let extraHint { text.hint = [text.hint, extraHint].compactMap { $0 }.joined(separator: ". ") }
                        // Where speech plays the screen-change sound, the display marks the new
                        // screen's line; a value change redraws the line without it.
                        display.showFocus(newScreen ? presenter.newScreen(text) : text, window: window)
                        newScreen = false
                        focusLineText = text.text
                        display.focusMoved()
                        // A loading indicator just shown counts as a progress update on the display.
                        if navigator.screen[id]?.progress != nil { progressBraille.shown(id, at: now) }
                    } else {
                        if Self.changesValue(event) {
                            // A value changed (by a custom action, the app, the user): the cursor
                            // goes on the change and the window with it, so the new value is felt
                            // where it is (a stepper's or field's edited value keeps its own cursor).
                            if !text.editing, let old = focusLineText { text.cursor = BrailleText.changeStart(from: old, to: text.text) }
                            focusLineText = text.text
                        }
                        display.showFocus(text)
                    }
                case .flash(var text):
                    // A stepper whose change posts an announcement: the message shows the new
                    // value first, so adjusting never hides the value the user is setting.
                    if case .announcement = event, let v = userValue { text.text = v + ". " + text.text }
                    flash(text)
                case .sound(let icon):
                    if icon == .progress && !profile.progressFeedback.sounds { continue }
                    emit(.sound(icon))
                }
            }
        }
    }

    /// Whether `event` gives the focused element's line new content (not the rotor's entry).
    static func changesValue(_ event: NavigatorEvent) -> Bool {
        switch event {
        case .valueChanged, .elementChanged: true
        default: false
        }
    }

    /// Progress on the display at most once a second per indicator; the last step always shows.
    mutating func showProgress(_ text: BrailleText, element: String, last: Bool) {
        switch progressBraille.offer(text, element: element, last: last, at: now) {
        case .showNow:
            display.updateFocus(text)
        case .showAt(let due):
            if !timers.contains(.progressBraille) { timers.add(.progressBraille, at: due) }
        }
    }

    mutating func pan(forward: Bool) {
        // With no display no one sees a message, so a pan never stops at one.
        if display.isFlashing, display.translates {
            // Panning a message restarts its timer; at its end the message goes and the key
            // pans the focus line, so a one-window message ("End") never traps the panning keys.
            if display.pan(forward: forward) {
                restartFlashTimer()
                return
            }
            // Past either end of a message it goes and the focus line shows as it was (its
            // window, focus not moved), so the line the user was on is always seen again; the
            // next pan pans it (issue 26).
            display.dismissFlash()
            return
        }
        let reading = readAll != nil && !profile.speech
        // With no display there is no hint to pan to: the pan goes on to the next element.
        if display.pan(forward: forward, hint: !reading && display.translates) {
            // Read-all with no speech: the user's pan restarts the window's time.
            if reading { scheduleBrailleReadAll() }
            return
        }
        if reading && forward {
            // Read-all with no speech goes on at the user's pace: past the line's end, the next
            // element, and reading goes on from there.
            advanceReadAll()
            return
        }
        // At the end of the line: on to the next element (or back to the previous one's end).
        readAll = nil
        apply(policy.userPressedKey(at: now))
        handle(navigator.perform(forward ? .next : .previous), user: true, window: forward ? .first : .last)
    }

    mutating func submit(_ u: Utterance, user: Bool) {
        guard profile.speech else {
            // The history is what the user was told; with no speech, the display told it. A
            // deaf-blind tester reviews it as a speech user reviews what was said, the hint
            // (shown after the focus line on a pan) as its own entry, as speech says it apart.
            if !u.isReview {
                history.record(u)
                if let h = u.hint, !h.isEmpty { history.record(Utterance(text: h, language: u.language, source: .hint)) }
            }
            // Read-all with no speech moves on by itself at the pace speech would take (as
            // BRLTTY's autoscroll does), so the display shows each element in turn.
            if readAll != nil, u.source == .focus { scheduleBrailleReadAll(characters: u.text.count) }
            return
        }
        var u = u
        if postingStatus && u.source == .announcement { u.isStatus = true }
        apply(policy.submit(u, causedByUser: user, at: now))
    }

    mutating func apply(_ decisions: [Decision]) {
        for d in decisions {
            switch d {
            case .speak(var s):
                // The one place that decides who times this utterance's end; the speech output
                // reads it off the utterance.
                s.awaitsEnd = speechEndsReported
                emit(.speech(.speak(s)))
                if s.utterance.source != .hint { lastSpoken = s.utterance }
                if !s.utterance.isReview { history.record(s.utterance) }
                if !s.awaitsEnd { timers.add(.speechEnd(s.id), at: now + duration(of: s.utterance)) }
                if s.utterance.source == .focus { readAll?.began(focusSpeech: s.id) }
            case .cancel(let s):
                emit(.speech(d))
                timers.remove(.speechEnd(s.id))
                if readAll?.isReading(s.id) == true { readAll = nil }
            case .drop(let s, _):
                emit(.speech(d))
                if readAll != nil, s.utterance.source == .focus { readAll = nil }
            case .postpone:
                emit(.speech(d))
            }
        }
    }

    /// Speech ends come from the speech output: a live session while speech is connected.
    var speechEndsReported: Bool { timing == .live && outputAvailability[.speech] == true }

    /// Read-all with no speech leaves each window on the display for the time a braille reader
    /// takes: 2.5 times speech's time for its characters at the user's rate (150 ms a
    /// character at the default rate; `rate-up`/`rate-down`, SAY_FASTER/SAY_SLOWER on the
    /// display), at least 2 s (Docs/braille.md#rules).
    func brailleReadAllDwell(characters: Int) -> Milliseconds {
        max(2000, min(characters, display.width) * profile.msPerCharacter * 5 / 2)
    }

    /// Schedules read-all's next step on the display (after the window shown now, or a line of
    /// `characters` about to be shown).
    mutating func scheduleBrailleReadAll(characters: Int? = nil) {
        timers.remove(.readAllStep)
        let shown = characters ?? display.frame()?.cells.count ?? display.width
        timers.add(.readAllStep, at: now + brailleReadAllDwell(characters: shown))
    }

    /// Read-all's next step: the focus line's next window, else the next element; the end
    /// of the screen ends it.
    mutating func advanceReadAll() {
        // A message read-all met (the new rate, an announcement; in the history too) gives way
        // as the display moves on.
        if !profile.speech { display.dismissFlash() }
        if !profile.speech, display.pan(forward: true, hint: false) {
            scheduleBrailleReadAll()
            return
        }
        if let events = navigator.advanceForReadAll() {
            handle(events, user: false, window: .first)
        } else {
            readAll = nil
        }
    }

    /// Docs/formats.md#transcript: 60 ms a character at the default rate; spelling says each letter apart.
    func duration(of u: Utterance) -> Milliseconds {
        max(1, u.text.count) * profile.msPerCharacter * (u.spell ? 2 : 1)
    }

    mutating func flushBraille() {
        guard profile.braille else { return }
        if framePerMillisecond, lastFrameAt == now {
            // This millisecond has its frame: a change waits, untranslated, for the next one,
            // where the newest state is written (a burst's superseded frames cost nothing).
            if display.mayChangeFrame, !timers.contains(.heldFrame) { timers.add(.heldFrame, at: now + 1) }
            return
        }
        guard let frame = display.takeChangedFrame() else { return }
        lastFrameAt = now
        emit(.braille(frame))
    }

    func emit(_ record: Record) {
        sink.emit(record, at: now)
    }
}
