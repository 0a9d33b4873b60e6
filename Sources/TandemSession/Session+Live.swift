import TandemModel
import TandemPolicy
import TandemPresentation
import TandemVocabulary

extension Session {
    /// A live reload: focus stays on the same element when it still exists.
    public mutating func reload(_ catalog: Catalog, at time: Milliseconds) {
        now = max(now, time)
        let events = navigator.reload(catalog)
        emit(.event(SessionEvent("reload", [.init("screen", navigator.screen.id)])))
        submit(Utterance(text: presenter.phrases.catalogReloaded, language: navigator.language, source: .announcement), user: false)
        handle(events, user: false)
        if events.isEmpty, let f = navigator.focusIndex {
            display.showFocus(presenter.braille(for: f, in: navigator))
        }
    }

    /// An output went away or came back: logged, and said once on the other output.
    public mutating func reportOutput(_ status: OutputStatus, at time: Milliseconds) {
        now = max(now, time)
        emit(.outputStatus(status))
        let wasAvailable = outputAvailability[status.output]
        outputAvailability[status.output] = status.available
        let phrases = presenter.phrases
        guard !status.available else {
            // Back after an outage (not the first connection): said and shown, like the loss.
            guard wasAvailable == false else { return }
            let text = status.output == .speech ? phrases.speechAvailable : phrases.brailleAvailable
            submit(Utterance(text: text, language: navigator.language, source: .announcement), user: false)
            guard status.output == .braille else {
                flash(text)
                return
            }
            // The display is back: the output wrote the focus line as it is at once; over it, the
            // message that it is connected with every message the display missed meanwhile
            // (they are in the history too). A message kept until a key then covers a focus line
            // the user has not felt: the next key only dismisses it, so where focus is is
            // shown before anything moves it.
            let missed = missedMessages
            missedMessages = []
            flash(([text] + missed).joined(separator: ". "))
            display.focusMoved()
            return
        }
        if status.output == .speech {
            flash(phrases.speechUnavailable)
        } else {
            submit(Utterance(text: phrases.brailleUnavailable, language: navigator.language, source: .error), user: false)
        }
    }

    /// The display reported its size: windows are cut to it (also after a profile change).
    public mutating func setDisplayWidth(_ columns: Int) {
        guard columns > 0 else { return }
        reportedWidth = columns
        guard columns != display.width else { return }
        // The message and the focus line are cut again for the new width, where the user was.
        display.setWidth(columns)
    }
}
