import CAtspi
import Foundation
import TandemClient
import TandemModel
import TandemNavigator
import TandemPresentation
import TandemVocabulary

/// How a live bridge ended (`tandem atspi` turns it into an exit status and a sentence).
public enum BridgeEnd: Sendable, Equatable {
    /// The application left the accessibility bus (it quit): exit 0.
    case appQuit(String)
    /// No such application, or no service, or the service went away: exit 69.
    case unavailable(String)
}

/// The live bridge (Docs/atspi.md#live): keeps `tandem serve`'s copy of one application's tree
/// current. AT-SPI events mark elements dirty on the loop thread; every 16 ms frame the
/// dirty ones are read again and only what changed is sent (`set` for an element's fields,
/// `update` with `edits` for a children list), so an element changes at most once a frame.
/// The user's actions come back from the service and are carried out through AT-SPI.
public final class AtspiBridge: @unchecked Sendable {  // everything below `query` is used on the loop thread only
    let desktop: AtspiDesktop
    let query: AppQuery
    let log: @Sendable (String) -> Void

    private var appObject: Accessible?
    private var app: TandemApp?
    /// The application's name and process id, as the bridge found it.
    private var appName = ""
    private var appPID: Int32 = 0
    /// X's keyboard focus, asked before keys are typed (nil without an X display).
    private lazy var xFocus: XKeyboardFocus? = XKeyboardFocus()
    private var screenID = "app"
    private var rootID = "app"
    private var fieldsDirty: Set<String> = []
    private var childrenDirty: Set<String> = []
    private var announcements: [(text: String, priority: AnnouncementPriority)] = []
    private var focusMoved: String?
    /// The app's focus on an object the mirror does not hold yet (Chromium focuses a control
    /// it has just put back into its tree before the children event that adds it): sent by
    /// the frame that mirrors it, after the update that adds it, else dropped with that frame.
    private var focusPending: Accessible?
    /// The element the user last moved to in Tandem: AT-SPI's focus event that follows our own
    /// grabFocus is not sent back.
    private var userFocus: String?
    /// The element the bridge last sent focus to (the app's own focus).
    private var sentFocus: String?
    private var failure: TandemClientError?
    private var listener: UnsafeMutablePointer<AtspiEventListener>?
    private var stopped = false
    /// The registry stopped listing the app while it still answers (said once).
    private var unlisted = false
    /// An object went defunct this frame: the app may be quitting.
    private var sawDefunct = false

    /// Every message's gist on standard error, when TANDEM_ATSPI_TRACE is set (Docs/atspi.md#debugging).
    private let trace: (@Sendable (String) -> Void)? = ProcessInfo.processInfo.environment["TANDEM_ATSPI_TRACE"] == nil ? nil : { @Sendable (s: String) in
        FileHandle.standardError.write(Data(("tandem atspi: " + s + "\n").utf8))
    }

    /// The bridge's own words in the session's language.
    private let phrases: Phrases

    /// How many `set` and `update` messages were sent (tests and tandem-bench read it).
    public private(set) var messagesSent = 0

    /// The bridge's own words (a refused typing) are in `language` (the app's, `--language`).
    public init(desktop: AtspiDesktop, query: AppQuery, language: String = "en", log: @escaping @Sendable (String) -> Void) {
        self.desktop = desktop
        self.query = query
        self.phrases = Phrases.forLanguage(language)
        self.log = log
    }

    static let eventTypes = ["object:state-changed", "object:property-change", "object:children-changed", "object:text-changed",
                             "object:value-changed", "object:announcement", "window:create", "window:destroy", "window:activate"]

    /// Runs until the application quits or the service goes away. `connect` opens the app's
    /// connection under the application's name.
    public func run(connect: (String) throws(TandemClientError) -> TandemApp) -> BridgeEnd {
        let first: (name: String, pid: Int32, screen: AppScreen)
        do { first = try desktop.screen(of: query) } catch { return .unavailable(error.description) }
        let app: TandemApp
        do { app = try connect(first.name) } catch { return .unavailable(error.description) }
        defer { app.close() }
        let ready: Bool = desktop.loop.sync {
            self.app = app
            self.appName = first.name
            self.appPID = first.pid
            self.appObject = self.desktop.find(self.query)
            self.screenID = first.screen.id
            self.rootID = first.screen.root.id
            self.register()
            return self.appObject != nil
        }
        guard ready else { return .appQuit("\(first.name) quit") }
        do { try app.show(first.screen) } catch { return .unavailable(error.description) }
        desktop.loop.every(milliseconds: 16) { [self] in
            guard !stopped else { return false }
            flush()
            return true
        }
        defer { desktop.loop.sync { self.stopped = true; self.deregister() } }
        var lastCheck = ContinuousClock.now
        while true {
            do {
                if let event = try app.nextEvent(timeout: .milliseconds(200)) { handle(event) }
            } catch {
                return .unavailable("the service ended the connection (\(error.description))")
            }
            if let failure = desktop.loop.sync({ self.failure }) {
                return .unavailable("the service refused the bridge's message or went away: \(failure.description)")
            }
            if ContinuousClock.now - lastCheck > .milliseconds(500) {
                lastCheck = ContinuousClock.now
                let gone = desktop.loop.sync { () -> Bool in
                    if self.desktop.find(self.query) != nil { return false }
                    // not listed: quit, or the registry lost it (it went away and came back)
                    guard self.appObject?.answers == true else { return true }
                    if !self.unlisted { self.log("tandem atspi: the AT-SPI registry no longer lists \(first.name); mirroring goes on while it answers") }
                    self.unlisted = true
                    return false
                }
                if gone {
                    desktop.loop.sync { self.flush() }
                    try? app.sync(timeout: .seconds(2))
                    return .appQuit("\(first.name) quit")
                }
            }
        }
    }

    // MARK: events from AT-SPI (loop thread)

    private func register() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        listener = atspi_event_listener_new({ event, data in
            guard let event else { return }
            defer { tandem_event_free(event) }
            guard let data else { return }
            Unmanaged<AtspiBridge>.fromOpaque(data).takeUnretainedValue().received(event)
        }, me, nil)
        for type in Self.eventTypes {
            var error: UnsafeMutablePointer<GError>?
            _ = atspi_event_listener_register(listener, type, &error)
            if let e = error {
                log("tandem atspi: cannot listen to \(type): \(String(cString: e.pointee.message))")
            }
            tandem_clear_error(&error)
        }
    }

    private func deregister() {
        guard let listener else { return }
        for type in Self.eventTypes {
            var error: UnsafeMutablePointer<GError>?
            _ = atspi_event_listener_deregister(listener, type, &error)
            tandem_clear_error(&error)
        }
        tandem_unref(listener)
        self.listener = nil
    }

    private func received(_ event: UnsafeMutablePointer<AtspiEvent>) {
        guard !stopped, let appObject, let sourcePointer = event.pointee.source,
              tandem_same_app(sourcePointer, appObject.pointer) != 0 else { return }
        let type = String(cString: event.pointee.type)
        let source = Accessible(borrowing: sourcePointer)
        let detail1 = event.pointee.detail1
        let reader = desktop.reader
        let id = reader.ids.existing(source)
        trace?("event \(type) \(detail1) on \(id ?? source.roleName)")
        if type.hasPrefix("object:announcement") {
            if let text = tandem_event_string(event).map({ String(cString: $0) }), !text.isEmpty {
                announcements.append((text, detail1 == 2 ? .high : .default))
            }
            return
        }
        if type.hasPrefix("window:activate") {
            // one of its windows was activated: the app comes to the front, at once, so the
            // focus events that follow are the app's in front (a service without
            // appForeground leaves the front to its controllers)
            if let app, failure == nil, app.features.contains(.appForeground) {
                trace?("foreground")
                do { try app.foreground() } catch { failure = error }
            }
            return
        }
        if type.hasPrefix("window:") || (type.hasPrefix("object:children-changed") && source == appObject) {
            if screenID == "app" { childrenDirty.insert(rootID) }
            return
        }
        if type.hasPrefix("object:children-changed") {
            if let id, isParent(id) { childrenDirty.insert(id) } else if let id { fieldsDirty.insert(id) } else { markNearestKnownAncestor(of: source) }
            return
        }
        if type == "object:state-changed:defunct", detail1 == 1 {
            // gone: its parent's list is read again (and the app checked, which may be quitting)
            sawDefunct = true
            if let id, let parent = reader.known[id]?.parent { childrenDirty.insert(parent) }
            return
        }
        if type.hasPrefix("object:text-changed:insert"), let live = liveness(of: source) {
            if let text = tandem_event_string(event).map({ String(cString: $0) })?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty {
                announcements.append((text, live == "assertive" ? .high : .default))
            }
        }
        if type == "object:state-changed:focused", detail1 == 1, id == nil {
            // not mirrored yet: its nearest mirrored ancestor is read again this frame, and
            // the focus goes once it is mirrored (the app's latest focus wins)
            focusPending = source
            focusMoved = nil
            markNearestKnownAncestor(of: source)
            return
        }
        if type == "object:state-changed:focused", detail1 == 1, let id {
            focusPending = nil
            // focus goes at once, not with the next frame: it is what the user hears first.
            // An element with changes still to send goes with them, in the frame.
            // Only a stop: focus on a container (GTK's list box before its row) is passing.
            guard isStop(id) else { return }
            if fieldsDirty.contains(id) || childrenDirty.contains(id) {
                focusMoved = id
            } else if id != userFocus, let app, failure == nil {
                sentFocus = id
                do { try app.layoutChanged(focus: id) } catch { failure = error }
                focusMoved = nil
            }
        }
        if type == "object:state-changed:showing" || type == "object:state-changed:visible" {
            if let id {
                fieldsDirty.insert(id)
                if detail1 == 1, let m = reader.known[id], RoleTable.announcedWhenShown.contains(m.role) {
                    let text = source.name.isEmpty ? (source.text ?? "") : source.name
                    if !text.isEmpty { announcements.append((text, m.role == "alert" ? .high : .default)) }
                }
                if detail1 == 1, isParent(id) { childrenDirty.insert(id) }
            } else if detail1 == 1 {
                markNearestKnownAncestor(of: source)
            }
            return
        }
        if let id {
            fieldsDirty.insert(id)
        } else if !type.hasPrefix("object:state-changed:defunct") {
            // an object not mirrored: new under a container (GTK announces a list row by its
            // accessible-parent), or text under a stop (a row's label, a web button's text)
            markNearestKnownAncestor(of: source)
        }
    }

    private func isStop(_ id: String) -> Bool {
        guard let m = desktop.reader.known[id] else { return false }
        switch RoleTable.handling(of: m.role, states: [], topLevel: m.topLevel) {
        case .stop, .text: return true
        default: return false
        }
    }

    private func isParent(_ id: String) -> Bool {
        guard let m = desktop.reader.known[id] else { return false }
        switch RoleTable.handling(of: m.role, states: [], topLevel: m.topLevel) {
        case .container, .window, .document: return true
        default: return id == rootID
        }
    }

    /// Marks the nearest mirrored ancestor: a container's children list (an object appeared
    /// under it), or a stop's fields (text folded into its label changed).
    private func markNearestKnownAncestor(of a: Accessible) {
        var current = a.parent
        for _ in 0..<32 {
            guard let c = current else { return }
            if let id = desktop.reader.ids.existing(c) {
                if isParent(id) { childrenDirty.insert(id) } else { fieldsDirty.insert(id) }
                return
            }
            if c == appObject { if screenID == "app" { childrenDirty.insert(rootID) }; return }
            current = c.parent
        }
    }

    /// `polite` or `assertive` when the object is in an `aria-live` region (Chromium's
    /// `container-live` attribute), else nil.
    private func liveness(of a: Accessible) -> String? {
        guard let live = a.attribute("container-live") ?? a.attribute("live"), live == "polite" || live == "assertive" else { return nil }
        return live
    }

    // MARK: a frame (loop thread)

    private func flush() {
        guard let app, failure == nil else { return }
        let reader = desktop.reader
        let start = ContinuousClock.now
        let sentBefore = messagesSent
        defer {
            if let trace, messagesSent > sentBefore {
                let us = (ContinuousClock.now - start).components.attoseconds / 1_000_000_000_000
                trace("frame: \(messagesSent - sentBefore) messages in \(us) µs")
            }
        }
        if sawDefunct {
            sawDefunct = false
            // an app that quits takes every object with it: nothing to send, `run` ends
            if desktop.find(query) == nil, appObject?.answers != true { stopped = true; return }
        }
        do {
            // children lists first: elements they add are sent whole, and not again as changed
            var sentWhole: Set<String> = []
            for parent in childrenDirty.sorted() {
                guard let added = try syncChildren(of: parent, app: app) else { continue }
                sentWhole.formUnion(added)
            }
            childrenDirty = []
            for id in fieldsDirty.sorted() where !sentWhole.contains(id) {
                guard let m = reader.known[id], let object = reader.ids.object(id) else { continue }
                // an event said it changed: read from the application, not libatspi's cache
                object.forgetCached()
                // Gone from the app (Chromium's closed <dialog>, whose page comes back as new
                // objects): its parent's list is read again now, so it leaves in the same
                // update as what took its place, not as a hidden element a frame before.
                let states = object.states
                if states.isEmpty || states.contains("defunct"), let parent = m.parent, isParent(parent) {
                    if let added = try syncChildren(of: parent, app: app) { sentWhole.formUnion(added) }
                    continue
                }
                let changes = reader.refresh(id: id, object: object, mirrored: m)
                if !changes.isEmpty {
                    trace?("set \(id) \(changes)")
                    try app.set(id, changes)
                    messagesSent += 1
                }
            }
            fieldsDirty = []
            if let pending = focusPending {
                focusPending = nil
                if let f = reader.ids.existing(pending) {
                    trace?("focus \(f), mirrored this frame")
                    focusMoved = f
                }
            }
            if let f = focusMoved {
                focusMoved = nil
                if f != userFocus, isStop(f) {
                    sentFocus = f
                    try app.layoutChanged(focus: f)
                }
            }
            for a in announcements { try app.announce(a.text, priority: a.priority) }
            announcements = []
        } catch {
            failure = error
        }
    }

    /// Reads `parent`'s children again and sends what changed as one `update` with `edits` (split
    /// by `UpdateChunks` when over the service's `maxUpdateNodes`);
    /// returns the ids of the elements sent whole (nil when nothing changed).
    private func syncChildren(of parent: String, app: TandemApp) throws(TandemClientError) -> Set<String>? {
        let reader = desktop.reader
        guard let m = reader.known[parent] else { return nil }
        let fresh: [AppElement]
        // an event said this list changed: read it from the application, not libatspi's
        // cache (Chromium changes some lists without a children-changed event)
        if parent == rootID && screenID == "app" {
            guard let appObject else { return nil }
            appObject.forgetCached()
            fresh = appObject.children().filter { $0.states.contains("showing") || $0.states.contains("visible") }
                .flatMap { reader.elements(for: $0, parent: parent, topLevel: true) }
        } else {
            guard let object = reader.ids.object(parent) else { return nil }
            object.forgetCached()
            fresh = reader.childElements(of: object, parent: parent, depth: 1, path: [])
        }
        let old = m.children
        let new = fresh.map(\.id)
        guard old != new else { return nil }
        let removed = old.filter { !new.contains($0) }
        let kept = new.filter { old.contains($0) }
        let limit = app.connection.limits.maxUpdateNodes
        var added: Set<String> = []
        let chunks: [UpdateChunks.Chunk]
        if kept == old.filter({ new.contains($0) }) {
            var insert: [(element: AppElement, place: TreeUpdate.ChildrenEdit.Place)] = []
            for (i, child) in fresh.enumerated() where !old.contains(child.id) {
                let place: TreeUpdate.ChildrenEdit.Place = i > 0 ? .after(new[i - 1]) : (kept.first.map { .before($0) } ?? .end)
                insert.append((child, place))
                added.insert(child.id)
                added.formUnion(child.descendantIDs)
            }
            // one update, or several when it would carry more than the service's maxUpdateNodes
            chunks = UpdateChunks.edits(parent: parent, remove: removed, insert: insert, limit: limit)
            for id in removed { forgetSubtree(id) }
        } else {
            // moved: the whole list (rare: a toolkit that reorders)
            for child in fresh where !old.contains(child.id) { added.insert(child.id) }
            var whole = m.element
            // A child kept is sent with its own fields and no children list, so its subtree stays.
            whole.children = fresh.map { old.contains($0.id) ? (reader.known[$0.id]?.element ?? $0) : $0 }
            chunks = UpdateChunks.wholeList(whole, old: old, limit: limit)
        }
        for chunk in chunks {
            trace?("update \(chunk.nodes.map(\.id)) \(chunk.edits)")
            if chunk.edits.isEmpty { try app.update(chunk.nodes, focus: nil) } else { try app.update(chunk.nodes, edits: chunk.edits) }
            messagesSent += 1
        }
        reader.known[parent]?.children = new
        return added
    }

    private func forgetSubtree(_ id: String) {
        let reader = desktop.reader
        guard let m = reader.known.removeValue(forKey: id) else { return }
        for c in m.children { forgetSubtree(c) }
        reader.ids.forget(id)
    }

    // MARK: the user's actions (main thread → loop thread)

    private func handle(_ event: AppEvent) {
        switch event {
        case .action(let action):
            desktop.loop.async { self.perform(action) }
        case .focus(_, let element):
            desktop.loop.async {
                self.userFocus = element
                // Tandem following the app's own focus (our layoutChanged) is no move to make
                if element == self.sentFocus { return }
                // only a control takes the app's focus: Tandem's own move to a container (the
                // page itself, when a modal's elements went) must not pull it off the control
                guard self.isStop(element) else { return }
                // a table cell is not given focus: GTK's tree view would select its row (a
                // change the user did not ask for) and move focus to a cell of its choosing
                if let role = self.desktop.reader.known[element]?.role, RoleTable.tableCells.contains(role) { return }
                guard let object = self.desktop.reader.ids.object(element) else { return }
                let states = object.states
                if states.contains("focusable") && !states.contains("focused") { _ = object.grabFocus() }
            }
        case .rejected(let error):
            log("tandem atspi: the service refused a message: \(error.description)")
        }
    }

    /// Carries out one action of the user on the loop thread (Docs/atspi.md#actions).
    func perform(_ action: AppAction) {
        let reader = desktop.reader
        guard let object = reader.ids.object(action.element) else {
            log("tandem atspi: \(action.kind.rawValue) on \(action.element): the element is gone")
            return
        }
        var done = false
        switch action.kind {
        case .activate:
            done = !object.actionNames.isEmpty ? object.doAction(0) : object.grabFocus()
        case .increment, .decrement:
            if let v = object.value {
                let step = v.step > 0 ? v.step : 1
                let target = min(v.max, max(v.min, v.current + (action.kind == .increment ? step : -step)))
                done = target == v.current || object.setValue(target)
            } else if let i = object.actionNames.firstIndex(of: action.kind.rawValue) {
                done = object.doAction(i)
            }
        case .custom:
            if let name = action.name, let i = object.actionNames.firstIndex(of: name) { done = object.doAction(i) }
        case .escape:
            done = escape(from: object)
        case .magicTap, .scrollUp, .scrollDown:
            done = false
        case .type, .delete, .clear:
            if object.hasEditableText {
                // Text entry through EditableText: the field's whole text replaced (the end is
                // the insertion point); the new text comes back as a value change in the next frame.
                done = action.edited(object.text ?? "").map(object.setText) ?? false
            } else {
                switch typeKeys(action, into: object) {
                case .field:
                    done = true
                case nil:
                    done = false
                case .elsewhere(let why)?:
                    // refused rather than typed into another window: said in the log and to the user
                    log("tandem atspi: \(action.kind.rawValue) on \(action.element): not typed: \(why.reason)")
                    announcements.append((why.spoken(in: phrases), .default))
                    return
                }
            }
        }
        if !done { log("tandem atspi: \(action.kind.rawValue) on \(action.element): the application did not do it") }
        // the value or state the action changed is read in the next frame, within the
        // service's user-action window
        fieldsDirty.insert(action.element)
    }

    /// Text entry into a field without EditableText (Chromium's web fields): the field is
    /// given keyboard focus (`grabFocus`, then its `focused` state awaited, at most 1 s), its
    /// window made the one X sends keys to when it is not (`keyReach`), its caret put at the
    /// end (the insertion point) or all its text selected (`clear`) through Text, and the keys
    /// synthesized: the text as typed (ATSPI_KEY_STRING), BackSpace for `delete` and `clear`.
    /// The new text comes back as the field's value change. `.field` when typed; `.elsewhere`
    /// when the keys would have gone to another window (nothing typed); nil when it failed.
    private func typeKeys(_ action: AppAction, into object: Accessible) -> KeyReach? {
        guard let count = object.characterCount else { return nil }
        if !focused(object) {
            _ = object.grabFocus()
            guard awaited({ focused(object) }) else { return nil }
        }
        // Keys go through XTEST to the window with X's keyboard focus, whatever has focus
        // inside the application: with another window in front they would be typed there.
        // Chromium makes its window active when one of its objects is given focus (even one
        // focused already); the window must then stay so a moment (a window that takes the
        // keyboard back at once, or a window manager that refuses, leaves it inactive).
        if case .elsewhere = keyReach(object) {
            _ = object.grabFocus()
            guard steady({ keyReach(object) == .field }) else { return keyReach(object) }
        }
        // Chromium answers a caret or selection request at once and applies it later, in the
        // page's process; a key sent before then lands at the old caret (a `clear` that deletes
        // one character), so the keys wait until the application reads the request back.
        let placed: Bool
        switch action.kind {
        case .type:
            placed = object.setCaret(count) && awaited({ object.caretOffset == count })
        case .delete:
            if count == 0 { return .field }
            placed = object.setCaret(count) && awaited({ object.caretOffset == count })
        case .clear:
            if count == 0 { return .field }
            placed = object.select(0, count) && awaited({ object.firstSelection == 0..<count })
        default:
            return nil
        }
        guard placed else { return nil }
        // asked again right before the keys: the caret's wait took time another window may have used
        let reach = keyReach(object)
        guard reach == .field else { return reach }
        let sent: Bool
        switch action.kind {
        case .type: sent = (action.text ?? "").isEmpty || SyntheticKeys.type(action.text ?? "")
        default: sent = SyntheticKeys.press(SyntheticKeys.backSpace)
        }
        return sent ? .field : nil
    }

    /// Whether keys typed now would reach `object`'s window: AT-SPI's `active` on its window
    /// (asked of the application: the loop is busy, so no event can have brought a change)
    /// and, with an X display, the process of the window X sends keys to.
    private func keyReach(_ object: Accessible) -> KeyReach {
        let active = object.topLevelWindow?.freshStates.contains("active") ?? false
        let reach = KeyReach.decide(windowActive: active, x: xFocus?.target(), appPID: appPID, appName: appName)
        trace?("keys would reach: \(reach)")
        return reach
    }

    /// Whether `done` holds at four asks in a row, 25 ms apart, within 1 s.
    private func steady(_ done: () -> Bool) -> Bool {
        var inARow = 0
        for attempt in 0...40 {
            inARow = done() ? inARow + 1 : 0
            if inARow == 4 { return true }
            if attempt < 40 { usleep(25_000) }
        }
        return false
    }

    /// Whether `done` holds, asked every 25 ms for at most 1 s.
    private func awaited(_ done: () -> Bool) -> Bool {
        for attempt in 0...40 {
            if done() { return true }
            if attempt < 40 { usleep(25_000) }
        }
        return false
    }

    /// Whether the object has keyboard focus now, asked of the application (the loop is busy,
    /// so libatspi's cache cannot have taken the focus event yet).
    private func focused(_ object: Accessible) -> Bool {
        object.forgetCached()
        return object.states.contains("focused")
    }

    /// Escape in a dialog: its Cancel or Close button (AT-SPI has no escape of its own).
    private func escape(from object: Accessible) -> Bool {
        var current: Accessible? = object
        var dialog: Accessible?
        for _ in 0..<32 {
            guard let c = current else { break }
            if case .window = RoleTable.handling(of: c.roleName) { dialog = c; break }
            current = c.parent
        }
        guard let dialog else { return false }
        dialog.forgetCached()  // its buttons as the application has them now
        var queue = dialog.children()
        var seen = 0
        while !queue.isEmpty && seen < 500 {
            let c = queue.removeFirst()
            seen += 1
            if c.roleName == "push button", ["cancel", "close", "_cancel", "_close"].contains(c.name.lowercased()) {
                return c.doAction(0)
            }
            queue += c.children(limit: 64)
        }
        if let i = dialog.actionNames.firstIndex(where: { $0 == "close" || $0 == "cancel" }) { return dialog.doAction(i) }
        return false
    }
}

extension AppElement {
    var descendantIDs: [String] { (children ?? []).flatMap { [$0.id] + $0.descendantIDs } }
}
