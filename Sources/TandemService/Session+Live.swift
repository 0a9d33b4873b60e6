import TandemModel
import TandemOutputs
import TandemPolicy
import TandemPresentation

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
    public mutating func reportOutput(_ output: String, available: Bool, message: String, at time: Milliseconds) {
        now = max(now, time)
        emit(.event(SessionEvent("output", [.init("output", output), .init("available", available ? "yes" : "no"), .init("message", message)])))
        guard !available else { return }
        let phrases = presenter.phrases
        if output == "speech" {
            flash(phrases.speechUnavailable)
        } else {
            submit(Utterance(text: phrases.brailleUnavailable, language: navigator.language, source: .error), user: false)
        }
    }

    /// Speech ends come from the engine (`external`) or are estimated (`virtual`).
    public mutating func setSpeechTiming(_ t: SpeechTiming) {
        timing = t
    }

    /// The display reported its size: windows are cut to it.
    public mutating func setDisplayWidth(_ columns: Int) {
        guard columns > 0, columns != display.width else { return }
        display.width = columns
        if let f = navigator.focusIndex { display.showFocus(presenter.braille(for: f, in: navigator)) }
        display.invalidate()
    }
}
