import TandemModel
import TandemNavigator
import TandemPolicy
import TandemPresentation
import TandemProtocol
import TandemVocabulary

/// What `tandem serve` does with its clients (Docs/protocol.md): apps publish their trees and
/// notifications and get the user's actions; controllers send commands, subscribe to the
/// transcript and ask for status. One app is in the foreground — its tree is what the user
/// navigates; the others keep theirs.
///
/// No I/O and no clock: `SessionCore.apply` hands it each client event with the time and the
/// session, then `routeNotices`; the driver sends what it leaves in `outbox`.
public struct Service {
    public struct Options: Sendable {
        /// A value change of the element Tandem just sent an action to, within this many ms, is
        /// the user's own (Docs/protocol.md#user-action-window).
        public var userActionWindow: Milliseconds = 500
        /// Longest line a client may send (the server enforces it; `welcome` says it).
        public var maxLine = 1 << 20
        public init() {}
    }

    struct Client {
        var role: Role?
        var name: String?
    }

    struct App {
        let client: ClientID
        let name: String
        let language: String
        /// Its tree, once it sent a screen (kept here while another app is in front).
        var navigator: Navigator?
        /// The last action sent: which element, when.
        var lastAction: (element: String, at: Milliseconds)?
    }

    public let options: Options
    /// Messages to send, oldest first; the driver empties it.
    public let outbox: ServiceOutbox
    var clients: [ClientID: Client] = [:]
    /// Apps in the order they came; the scripted catalog app (`--catalog`) has client `catalog`.
    var apps: [App] = []
    /// The app in front, by client id (nil: none; the placeholder is shown).
    var foreground: ClientID?
    /// Apps that were in front, most recent last.
    var recent: [ClientID] = []
    /// Apps that left: whether each was in front then, and its place in `apps`; the last
    /// `departedKept` names only, so apps coming and going under new names do not grow it.
    var departed: [String: (wasForeground: Bool, place: Int)] = [:]
    /// The names in `departed`, oldest first.
    var departedOrder: [String] = []
    /// How many apps that left are remembered for when they come back (issue 27).
    static let departedKept = 64
    /// Which subscriber wants which channels (shared with `SubscriberSink`).
    let subscribers: Subscribers
    /// The `--catalog` app, until `open` puts it in front.
    var pendingCatalog: Catalog?

    public static let catalogClient = ClientID.catalog

    public init(options: Options = Options(), outbox: ServiceOutbox = ServiceOutbox(), subscribers: Subscribers = Subscribers()) {
        self.options = options
        self.outbox = outbox
        self.subscribers = subscribers
    }

    // MARK: the catalog app

    /// A catalog played as an app of its own (its effects run as in `tandem run`), in front.
    public mutating func addCatalogApp(_ catalog: Catalog, session: inout Session, at time: Milliseconds) {
        var nav = Navigator(catalog: catalog)
        nav.forwardsActions = false
        apps.append(App(client: Self.catalogClient, name: catalog.name ?? "Catalog", language: catalog.language, navigator: nil))
        bringForward(Self.catalogClient, nav, session: &session, at: time)
    }

    // MARK: client events

    public mutating func connected(_ client: ClientID) {
        clients[client] = Client()
    }

    /// A line from a client: decoded, checked, acted on; an error reply names what was wrong.
    public mutating func received(_ client: ClientID, line: Int, bytes: [UInt8], session: inout Session, at time: Milliseconds) {
        guard clients[client] != nil else { return }
        switch MessageDecoder.decode(bytes, line: line) {
        case .failure(let e):
            outbox.send(client, .error(e))
        case .success(let incoming):
            do throws(ProtocolError) {
                let replied = try handle(incoming, from: client, line: line, session: &session, at: time)
                if !replied, let id = incoming.requestID, !incoming.message.isSet { outbox.send(client, .ack(requestID: id)) }
            } catch {
                outbox.send(client, .error(error))
            }
        }
    }

    public mutating func disconnected(_ client: ClientID, session: inout Session, at time: Milliseconds) {
        subscribers.remove(client)
        guard clients.removeValue(forKey: client)?.role == .app, let k = apps.firstIndex(where: { $0.client == client }) else { return }
        let app = apps.remove(at: k)
        let wasForeground = foreground == client
        remember(departed: app.name, (wasForeground, k))
        recent.removeAll { $0 == client }
        if wasForeground {
            foreground = nil
            let next = recent.last.flatMap { c in apps.first { $0.client == c && $0.navigator != nil } }
            if let next { bringForward(next.client, next.navigator!, session: &session, at: time) } else {
                _ = session.bringForward(Navigator.placeholder(session.presenter.phrases.noApp, language: session.navigator.language), at: time)
            }
        }
        session.postStatus(StringFormat.render(session.presenter.phrases.appClosed, [app.name]), at: time)
    }

    /// After the session acted (a key, a command, a timer): actions and focus go to the app in front.
    public mutating func routeNotices(_ session: inout Session) {
        let notices = session.takeNotices()
        guard let fg = foreground, fg != Self.catalogClient, let k = apps.firstIndex(where: { $0.client == fg }) else { return }
        for n in notices {
            switch n {
            case .action(let a):
                apps[k].lastAction = (a.element, session.now)
                outbox.send(fg, .action(a))
            case .focus(let screen, let element):
                outbox.send(fg, .focus(screen: screen, element: element))
            }
        }
    }

    // MARK: messages

    /// Acts on one message; true when it was answered already (no `ack` needed).
    mutating func handle(_ incoming: Incoming, from client: ClientID, line: Int, session: inout Session, at time: Milliseconds) throws(ProtocolError) -> Bool {
        func refuse(_ message: String) -> ProtocolError { ProtocolError(message, line: line, requestID: incoming.requestID) }
        let message = incoming.message
        guard let me = clients[client] else { return true }
        if case .hello(let hello) = message {
            guard me.role == nil else { throw refuse("this connection said hello already") }
            guard MessageDecoder.versions.contains(hello.version) else {
                outbox.send(client, .error(refuse("protocol version \(hello.version) is not spoken here (versions: \(MessageDecoder.versions.map(String.init).joined(separator: ", ")))")))
                outbox.close(client)
                return true
            }
            clients[client] = Client(role: hello.role, name: hello.name)
            if hello.role == .app { joined(client, hello, session: &session, at: time) }
            outbox.send(client, .welcome(client: client.description, limits: .init(maxLine: options.maxLine, userActionWindow: options.userActionWindow),
                                         features: .all))
            return true
        }
        guard let role = me.role else { throw refuse("the first message must be hello") }
        if let needed = message.role, needed != role {
            throw refuse("\(message.type) is a message for \(needed == .app ? "apps" : "controllers"); this connection is \(role == .app ? "an app" : "a controller")")
        }
        switch message {
        case .hello:
            return true
        case .screen(let screen):
            try showScreen(screen, of: client, session: &session, at: time, refuse: refuse)
        case .update(let update):
            try applyUpdate(update, of: client, session: &session, at: time, refuse: refuse)
        case .set(let id, let patch):
            try applySet(id, patch, of: client, session: &session, at: time, refuse: refuse)
        case .notify(let notice):
            try notify(notice, from: client, session: &session, at: time, refuse: refuse)
        case .command(let command, let input):
            session.perform(command, from: input, at: time)
        case .subscribe(let channels):
            subscribers.add(client, channels: channels ?? Set(Channel.allCases))
        case .unsubscribe:
            subscribers.remove(client)
        case .status:
            outbox.send(client, .status(status(session, requestID: incoming.requestID)))
            return true
        case .foreground(let which):
            let app: App? = switch which {
            case .client(let c): apps.first { $0.client == ClientID(c) }
            case .name(let n): apps.first { $0.name == n }
            case .sender: apps.first { $0.client == client }
            }
            // an app's own (its window was activated): already in front, nothing to do
            if which == .sender, foreground == client { return false }
            guard let app, let nav = app.navigator else {
                let named = switch which {
                case .client(let c): "no app with client id \"\(c)\" has shown a screen"
                case .name(let n): "no app named \"\(n)\" has shown a screen"
                case .sender: "send a screen before coming to the front"
                }
                throw refuse(named)
            }
            if app.client != foreground { bringForward(app.client, nav, session: &session, at: time) }
        }
        return false
    }

    mutating func joined(_ client: ClientID, _ hello: Hello, session: inout Session, at time: Milliseconds) {
        let app = App(client: client, name: uniqueName(hello.name ?? client.description), language: hello.language, navigator: nil)
        if let place = departed[app.name]?.place { apps.insert(app, at: min(place, apps.count)) } else { apps.append(app) }
    }

    func index(of client: ClientID) -> Int? { apps.firstIndex { $0.client == client } }

    /// `name`, or, when an app connected now has it, `name (2)`, `name (3)`, …: the first
    /// free. What the user hears names each app apart, so a look-alike cannot pass for the
    /// app that came first (Docs/protocol.md#opening).
    func uniqueName(_ name: String) -> String {
        let taken = Set(apps.map(\.name))
        guard taken.contains(name) else { return name }
        var n = 2
        while taken.contains("\(name) (\(n))") { n += 1 }
        return "\(name) (\(n))"
    }

    /// The app's screen: the app comes to the front (the last to take focus is in front).
    mutating func showScreen(_ screen: Screen, of client: ClientID, session: inout Session, at time: Milliseconds,
                             refuse: (String) -> ProtocolError) throws(ProtocolError) {
        guard let k = index(of: client) else { throw refuse("not an app") }
        guard screen.liveCount <= Screen.maxElements else {
            throw refuse("the screen has \(screen.liveCount) elements, over the limit of \(Screen.maxElements) (maxElements)")
        }
        guard screen.depth(limit: Screen.maxDepth) != nil else {
            throw refuse("the screen nests elements deeper than the limit of \(Screen.maxDepth) levels below the root (maxDepth)")
        }
        if foreground == client {
            session.show(screen, at: time)
            return
        }
        var nav = apps[k].navigator ?? Navigator(catalog: Catalog(name: apps[k].name, language: apps[k].language, strings: [:],
                                                                  start: screen.id, screens: [screen]))
        nav.forwardsActions = true
        if apps[k].navigator != nil {
            // An app behind re-sending the screen it shows (a refresh) stays behind, without a word.
            let refresh = nav.screen.id == screen.id
            _ = nav.show(screen)
            if refresh {
                apps[k].navigator = nav
                return
            }
        }
        forget(departed: apps[k].name)
        bringForward(client, nav, session: &session, at: time)
    }

    /// An app left: its place is kept for when it comes back, the oldest forgotten past
    /// `departedKept`.
    mutating func remember(departed name: String, _ entry: (wasForeground: Bool, place: Int)) {
        if departed.updateValue(entry, forKey: name) != nil { departedOrder.removeAll { $0 == name } }
        departedOrder.append(name)
        if departedOrder.count > Self.departedKept { departed[departedOrder.removeFirst()] = nil }
    }

    mutating func forget(departed name: String) {
        guard departed.removeValue(forKey: name) != nil else { return }
        departedOrder.removeAll { $0 == name }
    }

    mutating func applyUpdate(_ update: TreeUpdate, of client: ClientID, session: inout Session, at time: Milliseconds,
                              refuse: (String) -> ProtocolError) throws(ProtocolError) {
        guard let k = index(of: client), apps[k].navigator != nil || foreground == client else { throw refuse("send a screen before updating it") }
        do throws(TreeUpdateError) {
            if foreground == client {
                // A focus the app moves in answer to the user's action is the user's own speech:
                // an announcement sent right after it waits for it (Docs/protocol.md#user-action-window).
                let user = update.nodes.contains { isUsersOwn(k, element: $0.element.id, at: time) }
                    || (update.focus != nil && actedRecently(k, at: time))
                try session.applyUpdate(update, user: user, at: time)
            } else {
                _ = try apps[k].navigator!.apply(update)
            }
        } catch {
            throw refuse(error.message)
        }
    }

    mutating func applySet(_ id: String, _ patch: ElementPatch, of client: ClientID, session: inout Session, at time: Milliseconds,
                           refuse: (String) -> ProtocolError) throws(ProtocolError) {
        guard let k = index(of: client), apps[k].navigator != nil || foreground == client else { throw refuse("send a screen before changing it") }
        let found: Bool
        if foreground == client {
            found = session.set(id, patch, user: isUsersOwn(k, element: id, at: time), at: time)
        } else {
            found = apps[k].navigator!.set(id) { patch.apply(to: &$0) } != nil
        }
        if !found { throw refuse("no element \"\(id)\" on the app's screen") }
    }

    /// Within the user-action window after Tandem sent the app any action.
    func actedRecently(_ k: Int, at time: Milliseconds) -> Bool {
        apps[k].lastAction.map { time - $0.at <= options.userActionWindow } ?? false
    }

    /// A change to `element` within the user-action window after Tandem sent it an action.
    func isUsersOwn(_ k: Int, element: String, at time: Milliseconds) -> Bool {
        guard let last = apps[k].lastAction else { return false }
        return last.element == element && time - last.at <= options.userActionWindow
    }

    mutating func notify(_ notice: Notice, from client: ClientID, session: inout Session, at time: Milliseconds,
                         refuse: (String) -> ProtocolError) throws(ProtocolError) {
        // A focus the app names must be on its screen: moving nowhere, silently, hides the bug.
        switch notice {
        case .layoutChanged(let focus?), .screenChanged(let focus?):
            let screen = foreground == client ? session.navigator.screen : index(of: client).flatMap { apps[$0].navigator?.screen }
            if let screen, screen.index[focus] == nil {
                throw refuse("focus: no element \"\(focus)\" on the app's screen \"\(screen.id)\"")
            }
        default: break
        }
        if case .announcement = notice {
            // Announcements are heard whichever app (or controller) posts them.
            session.post(notice.effect, at: time)
        } else if foreground == client {
            let movesFocus = switch notice { case .layoutChanged, .screenChanged: true; default: false }
            session.post(notice.effect, user: movesFocus && index(of: client).map { actedRecently($0, at: time) } == true, at: time)
        } else if let k = index(of: client), apps[k].navigator != nil {
            _ = apps[k].navigator!.post(notice.effect)
        }
    }

    /// Puts `client`'s navigator in front, keeping the one that was.
    mutating func bringForward(_ client: ClientID, _ nav: Navigator, session: inout Session, at time: Milliseconds) {
        // A switch from one app to another says the app it lands in; the first app, coming
        // after "No app is connected", is simply there.
        let switching = foreground != nil || !recent.isEmpty
        let name = switching ? index(of: client).map { apps[$0].name } : nil
        let previous = session.bringForward(nav, named: name, at: time)
        if let fg = foreground, let k = index(of: fg) { apps[k].navigator = previous }
        foreground = client
        if let k = index(of: client) { apps[k].navigator = nil }
        recent.removeAll { $0 == client }
        recent.append(client)
    }

    func status(_ session: Session, requestID: JSONNode?) -> StatusReport {
        let hasFront = foreground != nil
        return StatusReport(
            apps: apps.map { .init(client: $0.client.description, name: $0.name, foreground: $0.client == foreground) },
            speech: session.isAvailable(.speech), braille: session.isAvailable(.braille),
            screen: hasFront ? session.navigator.screen.id : nil, focus: hasFront ? session.navigator.focusedElement?.id : nil,
            editing: hasFront ? session.typingInto : nil, requestID: requestID)
    }
}
