import TandemModel
import TandemProtocol
import TandemVocabulary

/// An app connected to `tandem serve`: it publishes its screen and tree, posts
/// UIAccessibility's notifications, and learns what the blind user did (`action`) and where
/// the user is (`focus`) from `nextEvent`.
///
///     let app = try TandemApp(name: "Counter")
///     try app.show(AppScreen(id: "main", focus: "count", root: AppElement("root", children: [counter])))
///     while let event = try app.nextEvent() {
///         if case .action(let a) = event, a.kind == .increment { try app.set("count", .adjust(…)) }
///     }
///
/// Messages are sent without waiting (an answer to an action must reach Tandem within its
/// user-action window); Tandem's error about one comes from `nextEvent` as `.rejected`, or is
/// thrown by `sync()`.
public final class TandemApp: Sendable {
    public let connection: TandemConnection

    /// Connects as the app `name` (its language: BCP 47, e.g. `en`, `pt-BR`).
    public init(name: String, language: String = "en", socketPath: String? = nil, timeout: Duration = .seconds(5)) throws(TandemClientError) {
        connection = try TandemConnection(role: .app, name: name, language: language, socketPath: socketPath, timeout: timeout)
    }

    /// The id Tandem gave this app's connection.
    public var client: String { connection.client }

    /// The protocol features the service announced (Docs/protocol.md#features).
    public var features: ServerMessage.Features { connection.features }

    /// The whole current screen. Brings the app to the front; a new screen id moves focus as
    /// `screenChanged` does, the same id again keeps focus where it is.
    public func show(_ screen: AppScreen) throws(TandemClientError) {
        try connection.send(["type": "screen", "screen": screen.json])
    }

    /// Replaces each of `elements` with its whole subtree (a field left out is cleared; a
    /// child no longer listed is removed). An element must be in the tree already or be a
    /// child of one of the others. `focus` moves focus there, as `layoutChanged` does.
    ///
    /// Throws `invalid` without sending anything when the nodes (each element and every one
    /// under it) are more than the service's `maxUpdateNodes` (Docs/protocol.md#limits): send
    /// them in several updates (`UpdateChunks` splits a change so).
    public func update(_ elements: [AppElement], focus: String? = nil) throws(TandemClientError) {
        let nodes = elements.flatMap(\.nodes)
        try checkSize(nodes.count)
        try connection.send(.compact(["type": "update", "nodes": .array(nodes), "focus": focus.map { .string($0) }]))
    }

    /// Refuses, before sending, an update over the limit the service's `welcome` gave.
    private func checkSize(_ size: Int) throws(TandemClientError) {
        let limit = connection.limits.maxUpdateNodes
        guard size <= limit else {
            throw .invalid("the update carries \(size) nodes and edited ids, over the service's limit of \(limit) (maxUpdateNodes), "
                           + "so it was not sent; send the rest in another update (Docs/protocol.md#limits)")
        }
    }

    /// Replaces `elements` whole, as `update(_:focus:)`, and edits children lists by id
    /// without sending them (`TreeUpdate.ChildrenEdit`, Docs/protocol.md#edits): what a
    /// change costs Tandem is then what it names, however long the lists are.
    ///
    /// Throws `unsupported(.edits, …)` without sending anything when the service did not
    /// announce `edits` (an older one would ignore them): send whole children lists with
    /// `update(_:focus:)` to such a service. `insert` and `remove` are edits too. Throws
    /// `invalid`, nothing sent, when the nodes plus the edits' ids are over the service's
    /// `maxUpdateNodes` (`UpdateChunks` splits such a change).
    public func update(_ elements: [AppElement], edits: [TreeUpdate.ChildrenEdit], focus: String? = nil) throws(TandemClientError) {
        try connection.require(.edits)
        let nodes = elements.flatMap(\.nodes)
        try checkSize(nodes.count + edits.reduce(0) { $0 + $1.remove.count + $1.insert.count })
        try connection.send(.compact(["type": "update", "nodes": elements.isEmpty ? JSONValue?.none : .array(nodes),
                                      "edits": .array(edits.map(\.json)), "focus": focus.map { .string($0) }]))
    }

    /// Puts `elements` (each with its subtree) into the children of `parent`, after the child
    /// `place` names, before it, or at the end; `parent`'s other children are not sent.
    public func insert(_ elements: [AppElement], into parent: String, at place: TreeUpdate.ChildrenEdit.Place = .end,
                       focus: String? = nil) throws(TandemClientError) {
        try update(elements, edits: [TreeUpdate.ChildrenEdit(parent: parent, insert: elements.map(\.id), place: place)], focus: focus)
    }

    /// Takes the children `ids` out of `parent`'s children: each is removed with its subtree
    /// (unless the same update puts it in another list).
    public func remove(_ ids: [String], from parent: String, focus: String? = nil) throws(TandemClientError) {
        try update([], edits: [TreeUpdate.ChildrenEdit(parent: parent, remove: ids)], focus: focus)
    }

    /// Changes only the named fields of the element `id`.
    public func set(_ id: String, _ changes: ElementChange...) throws(TandemClientError) {
        try set(id, changes)
    }

    public func set(_ id: String, _ changes: [ElementChange]) throws(TandemClientError) {
        try connection.send(ElementChange.message(for: id, changes))
    }

    /// `UIAccessibility.post(.announcement)`; `.high` speaks at once, never cut.
    public func announce(_ text: String, priority: AnnouncementPriority = .default) throws(TandemClientError) {
        try connection.send(Self.announcement(text, priority: priority))
    }

    /// `.layoutChanged`: part of the screen changed; focus moves to `focus` when given.
    public func layoutChanged(focus: String? = nil) throws(TandemClientError) {
        try connection.send(.compact(["type": "notify", "notification": "layoutChanged", "focus": focus.map { .string($0) }]))
    }

    /// This app comes to the front (its window was activated), once it has shown a screen:
    /// the service's `appForeground` feature (Docs/protocol.md#several-apps).
    public func foreground() throws(TandemClientError) {
        try connection.send(["type": "foreground"])
    }

    /// `.screenChanged`: a new screen; focus moves to `focus` or the screen's first element.
    public func screenChanged(focus: String? = nil) throws(TandemClientError) {
        try connection.send(.compact(["type": "notify", "notification": "screenChanged", "focus": focus.map { .string($0) }]))
    }

    /// `.pageScrolled`: says where a scroll left the user ("Page 2 of 5").
    public func pageScrolled(_ text: String) throws(TandemClientError) {
        try connection.send(["type": "notify", "notification": "pageScrolled", "text": .string(text)])
    }

    /// Waits until Tandem has handled everything sent so far; throws the first error about it.
    public func sync(timeout: Duration? = nil) throws(TandemClientError) {
        try connection.sync(timeout: timeout)
    }

    /// The next thing Tandem tells the app, or nil when nothing comes within `timeout` (nil:
    /// wait as long as it takes). Throws `closed` when the connection has ended.
    public func nextEvent(timeout: Duration? = nil) throws(TandemClientError) -> AppEvent? {
        while true {
            guard let message = try connection.receive(timeout: timeout) else { return nil }
            switch message {
            case .action(let a): return .action(a)
            case .focus(let screen, let element): return .focus(screen: screen, element: element)
            case .error(let e): return .rejected(connection.rejection(e))
            case .welcome, .ack, .transcript, .status: continue  // not for an app; nothing to do
            }
        }
    }

    public func close() { connection.close() }

    static func announcement(_ text: String, priority: AnnouncementPriority) -> JSONValue {
        .compact(["type": "notify", "notification": "announcement", "text": .string(text),
                  "priority": priority == .default ? nil : .string(priority.rawValue)])
    }
}

/// What Tandem tells an app.
public enum AppEvent: Sendable {
    /// Carry out what the user asked (`activate`, `increment`, `custom` with its name, …) on
    /// the element it names.
    case action(AppAction)
    /// The user's focus moved.
    case focus(screen: String, element: String)
    /// Tandem refused a message sent earlier.
    case rejected(TandemClientError)
}
