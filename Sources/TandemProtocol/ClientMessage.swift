import TandemModel
import TandemVocabulary

/// What a client says, in Docs/protocol.md's terms: apps publish their tree and notifications,
/// controllers send commands and listen.
public enum ClientMessage: Sendable {
    case hello(Hello)
    // app → Tandem
    case screen(Screen)
    case update(TreeUpdate)
    case set(element: String, ElementPatch)
    case notify(Notice)
    // controller → Tandem
    /// A command of the user's, with the input method the key came from when the controller
    /// says (`input`, feature `commandInput`): hints then name its keys, and a keyboard's or a
    /// display's activation on a text field starts typing into it (Docs/keymaps.md#typing).
    case command(Command, input: InputMethod? = nil)
    case subscribe(channels: Set<Channel>?)
    case unsubscribe
    case status
    case foreground(App)

    /// The message's `type`.
    public var type: String {
        switch self {
        case .hello: "hello"
        case .screen: "screen"
        case .update: "update"
        case .set: "set"
        case .notify: "notify"
        case .command: "command"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .status: "status"
        case .foreground: "foreground"
        }
    }

    /// A `set`, whose `id` names its element (so it is never acknowledged).
    public var isSet: Bool { if case .set = self { true } else { false } }

    /// Who may send it (nil: anyone).
    public var role: Role? {
        switch self {
        case .screen, .update, .set: .app
        case .foreground(.sender): .app
        case .command, .subscribe, .unsubscribe, .foreground: .controller
        case .hello, .notify, .status: nil
        }
    }
}

/// The opening message.
public struct Hello: Sendable, Hashable {
    public var version: Int
    public var role: Role
    /// The app's name ("Groceries"); a controller's is optional.
    public var name: String?
    /// The app's language (BCP 47); `en` when not given.
    public var language: String
    public init(version: Int, role: Role, name: String?, language: String) {
        self.version = version; self.role = role; self.name = name; self.language = language
    }
}

public enum Role: String, Sendable, Hashable {
    case app, controller
}

/// `notify`: UIAccessibility's notifications.
public enum Notice: Sendable, Hashable {
    case announcement(text: String, priority: AnnouncementPriority)
    case layoutChanged(focus: String?)
    case screenChanged(focus: String?)
    case pageScrolled(text: String)

    /// The same notification as a catalog effect (Docs/formats.md#effects).
    public var effect: Effect {
        switch self {
        case .announcement(let text, let priority): .announcement(text: text, priority: priority, delay: 0)
        case .layoutChanged(let focus): .layoutChanged(focus: focus)
        case .screenChanged(let focus): .screenChanged(focus: focus)
        case .pageScrolled(let text): .pageScrolled(text: text)
        }
    }
}

/// A transcript channel (Docs/formats.md#transcript), for `subscribe`'s filter.
public enum Channel: String, Sendable, Hashable, CaseIterable {
    case speech, braille, sound, event
}

/// An app named by a controller: by the client id Tandem gave it, or by its name; or, in an
/// app's own `foreground` (its window was activated), the app that sends it.
public enum App: Sendable, Hashable {
    case client(String)
    case name(String)
    case sender
}
