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
                    if u.source == .progress && !profile.progressFeedback.speaks { continue }
                    submit(u, user: user)
                case .focusLine(let text):
                    if let progressOf {
                        showProgress(text, element: progressOf, last: lastStep)
                    } else if case .focused(_, let id, _) = event {
                        display.showFocus(text, window: window)
                        display.focusMoved()
                        // A loading indicator just shown counts as a progress update on the display.
                        if navigator.screen[id]?.progress != nil { progressBraille.shown(id, at: now) }
                    } else {
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
        if display.isFlashing {
            // Panning a message restarts its timer; at its end the message goes and the key
            // pans the focus line, so a one-window message ("End") never traps the panning keys.
            if display.pan(forward: forward) {
                restartFlashTimer()
                return
            }
            let unseen = coversUnseenFocus
            display.dismissFlash()
            // Past the message's end: the focus line under it, not panned if it is new.
            if unseen { return }
        }
        if display.pan(forward: forward) {
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
            // deaf-blind tester reviews it as a speech user reviews what was said.
            if !u.isReview { history.record(u) }
            // Read-all with no speech moves on by itself at the pace speech would take (as
            // BRLTTY's autoscroll does), so the display shows each element in turn.
            if readAll != nil, u.source == .focus {
                timers.remove(.readAllStep)
                timers.add(.readAllStep, at: now + duration(of: u))
            }
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

    /// Docs/formats.md#transcript: 60 ms a character at the default rate; spelling says each letter apart.
    func duration(of u: Utterance) -> Milliseconds {
        max(1, u.text.count) * profile.msPerCharacter * (u.spell ? 2 : 1)
    }

    mutating func flushBraille() {
        guard profile.braille, let frame = display.takeChangedFrame() else { return }
        emit(.braille(frame))
    }

    func emit(_ record: Record) {
        sink.emit(record, at: now)
    }
}
