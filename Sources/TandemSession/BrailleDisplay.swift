import TandemPresentation
import TandemVocabulary

/// What the braille display shows: the focus line, or a flash message over it, each panned
/// to one window of the display's width.
///
/// A new focus line, a change of its content and a flash message are translated when first
/// needed (a frame, a pan), not when they are shown: the session says the focus first and
/// writes braille after, so a key press does not wait for liblouis before its speech goes out;
/// of a burst of value changes only the last is. With no braille output (`translator` nil: the
/// profile has braille off) nothing is ever translated (issue 27): a line is its print text
/// and no cells, one window, so a pan moves straight on to the next element and a routing key
/// finds no cell.
struct BrailleDisplay {
    struct Shown {
        var line: BrailleLine
        var windows: [Range<Int>]
        var window: Int
    }

    var width: Int
    /// nil when no output needs cells (the profile has braille off).
    var translator: (any BrailleTranslator)?
    /// The language lines are translated in (the foreground app's).
    var language: String
    /// The focus line, translated (see `resolveFocus`); read while one is pending, it is
    /// translated on each read, so only `frame()` reads it.
    private var focus: Shown? {
        let base = pendingFocus.map(shown) ?? translatedFocus
        guard let u = pendingUpdate else { return base }
        let l = line(for: u)
        let w = l.windows(width: width)
        return Shown(line: l, windows: w, window: min(base?.window ?? 0, w.count - 1))
    }
    private var translatedFocus: Shown?
    /// A focus line shown and not yet translated, with the window to show.
    private var pendingFocus: (text: BrailleText, choice: WindowChoice)?
    /// New content for the focus line, not yet translated: it keeps the window the user
    /// panned to (the newest content wins).
    private var pendingUpdate: BrailleText?
    /// The flash message, translated; or one shown and not yet translated.
    private var translatedFlash: Shown?
    private var pendingFlash: BrailleText?
    private var flash: Shown? { pendingFlash.map(flashShown) ?? translatedFlash }
    private var lastFrame: BrailleFrame?
    /// The focus line's hint, panned to past the line's end (translated when first shown);
    /// nil while the line itself is shown.
    private var hintShown: Shown?
    /// The focus line's text as last given (its hint included), before translation.
    private(set) var focusText: BrailleText?
    /// Whether the current focus line has reached the display since focus last moved; false
    /// while a message covers a focus line the user has not read yet.
    private(set) var focusSeen = true

    init(width: Int, translator: (any BrailleTranslator)?, language: String) {
        self.width = width; self.translator = translator; self.language = language
    }

    /// A line translated: cut to `BrailleText.maxCharacters` first, so no text costs liblouis
    /// more than that (Docs/braille.md#long-lines).
    func line(for whole: BrailleText) -> BrailleLine {
        guard let translator else { return BrailleLine(text: whole.text, cells: [], cursor: nil) }
        let text = whole.limited()
        let t = translator.translate(text.text, language: language, cursor: text.cursor, editing: text.editing)
        return BrailleLine(text: text.text, cells: t.cells, cursor: t.cursor)
    }

    /// Which window of a new line to show.
    enum WindowChoice {
        /// The one with the cursor (a focus move).
        case cursor
        /// The first (panning forward into the next element).
        case first
        /// The last (panning back into the previous element, as BRLTTY does).
        case last
    }

    /// Shows a new focus line (translated once it is needed).
    mutating func showFocus(_ text: BrailleText, window choice: WindowChoice = .cursor) {
        pendingFocus = (text, choice)
        pendingUpdate = nil
        hintShown = nil
        focusText = text
    }

    func shown(_ pending: (text: BrailleText, choice: WindowChoice)) -> Shown {
        let l = line(for: pending.text)
        let w = l.windows(width: width)
        let index = switch pending.choice {
        case .cursor: l.windowIndex(containingCursor: w)
        case .first: 0
        case .last: w.count - 1
        }
        return Shown(line: l, windows: w, window: index)
    }

    /// Translates a focus line shown since, once.
    mutating func resolveFocus() {
        guard pendingFocus != nil || pendingUpdate != nil else { return }
        translatedFocus = focus
        pendingFocus = nil
        pendingUpdate = nil
    }

    /// Focus moved to another element: its line is unread until a frame without a message
    /// shows it.
    mutating func focusMoved() { focusSeen = false }

    /// Replaces the focus line's content but keeps the window the user panned to.
    mutating func updateFocus(_ text: BrailleText) {
        pendingUpdate = text
        hintShown = nil
        focusText = text
    }

    mutating func showFlash(_ text: BrailleText) {
        pendingFlash = text
        translatedFlash = nil
    }

    func flashShown(_ text: BrailleText) -> Shown {
        let l = line(for: text)
        return Shown(line: l, windows: l.windows(width: width), window: 0)
    }

    /// Translates a flash message shown since, once.
    mutating func resolveFlash() {
        guard let p = pendingFlash else { return }
        translatedFlash = flashShown(p)
        pendingFlash = nil
    }

    /// Removes a flash message; false when none was shown.
    @discardableResult
    mutating func dismissFlash() -> Bool {
        guard isFlashing else { return false }
        translatedFlash = nil
        pendingFlash = nil
        return true
    }

    var isFlashing: Bool { translatedFlash != nil || pendingFlash != nil }

    /// Pans what is shown; false when already at that end. Past the focus line's end comes
    /// its hint, if it has one; back from the hint's start, the line's last window.
    mutating func pan(forward: Bool, hint: Bool = true) -> Bool {
        func move(_ s: inout Shown) -> Bool {
            let target = s.window + (forward ? 1 : -1)
            guard s.windows.indices.contains(target) else { return false }
            s.window = target
            return true
        }
        if isFlashing {
            resolveFlash()
            return move(&translatedFlash!)
        }
        resolveFocus()
        if hintShown != nil {
            if move(&hintShown!) { return true }
            guard !forward else { return false }
            hintShown = nil
            return true
        }
        guard translatedFocus != nil else { return false }
        if move(&translatedFocus!) { return true }
        guard forward, hint, let text = focusText?.hint, !text.isEmpty else { return false }
        hintShown = flashShown(BrailleText(text: text, cursor: nil))
        return true
    }

    /// Whether lines are translated at all (some output needs cells).
    var translates: Bool { translator != nil }

    /// Whether the focus line's hint is shown (panned to).
    var isShowingHint: Bool { hintShown != nil }

    /// The display has another width: the message and the focus line are cut again for it,
    /// each keeping the window that holds the first cell the user was reading.
    mutating func setWidth(_ columns: Int) {
        guard columns != width else { return }
        width = columns
        resolveFlash()
        resolveFocus()
        func recut(_ s: inout Shown?) {
            guard var shown = s else { return }
            let first = shown.windows[shown.window].lowerBound
            shown.windows = shown.line.windows(width: columns)
            shown.window = shown.windows.lastIndex { $0.lowerBound <= first } ?? 0
            s = shown
        }
        recut(&translatedFlash)
        recut(&translatedFocus)
        recut(&hintShown)
        lastFrame = nil
    }

    /// The window shown now.
    func frame() -> BrailleFrame? {
        guard let s = flash ?? hintShown ?? focus else { return nil }
        let r = s.windows[s.window]
        var cursor: Int?
        if flash == nil, hintShown == nil, let c = s.line.cursor, r.contains(c) || (c == r.upperBound && r.upperBound == s.line.cells.count && r.count < width) {
            cursor = c - r.lowerBound
        }
        return BrailleFrame(text: s.line.text, cells: Array(s.line.cells[r]), cursor: cursor,
                            window: s.window, windowCount: s.windows.count, flash: flash != nil)
    }

    /// The frame to write when it differs from the last one written (the last frame wins;
    /// an unchanged display is not written again).
    mutating func takeChangedFrame() -> BrailleFrame? {
        resolveFlash()
        resolveFocus()
        guard let f = frame() else { return nil }
        if !f.flash { focusSeen = true }
        guard f != lastFrame else { return nil }
        lastFrame = f
        return f
    }

    /// Whether the next frame may differ from the last one written, found without translating:
    /// a line waits to be translated, or what is shown moved (a pan, a message gone, a width).
    var mayChangeFrame: Bool {
        pendingFocus != nil || pendingUpdate != nil || pendingFlash != nil || frame() != lastFrame
    }

    /// The text of the message on the display now (the last frame written), if it is one.
    var lastWrittenFlash: String? { lastFrame?.flash == true ? lastFrame?.text : nil }

    /// Forgets what was written, so the next frame is written even if unchanged (after a
    /// display reconnects).
    mutating func invalidate() { lastFrame = nil }
}
