import CAtspi
import Foundation
import TandemClient
import TandemModel

/// Which running application to bridge: by its AT-SPI name (what `tandem atspi --list` would
/// show; compared ignoring case) or by its process id.
public enum AppQuery: Sendable, Hashable, CustomStringConvertible {
    case name(String)
    case pid(Int32)

    public var description: String {
        switch self {
        case .name(let n): "no application named \"\(n)\" is on the accessibility bus"
        case .pid(let p): "no application with process id \(p) is on the accessibility bus"
        }
    }
}

/// The accessibility desktop as Tandem reads it: libatspi on its own thread (`AtspiLoop`),
/// the reader's state on that thread too.
public final class AtspiDesktop: @unchecked Sendable {  // `reader` is only used inside loop.sync / loop.async
    public let loop: AtspiLoop
    let reader = TreeReader()

    /// Where one-line notices go (standard error in `tandem atspi`).
    public let log: @Sendable (String) -> Void

    public init(chrome: Bool = false, log: @escaping @Sendable (String) -> Void = { _ in }) throws(AtspiError) {
        self.log = log
        loop = try AtspiLoop()
        if let limit = ProcessInfo.processInfo.environment["TANDEM_ATSPI_CHILD_LIMIT"].flatMap(Int.init), limit > 0 {
            reader.childLimit = limit
        }
        reader.chrome = chrome
    }

    /// The names of the applications on the bus, in the registry's order.
    public func applicationNames() -> [String] {
        loop.sync { Accessible.desktop()?.children().map(\.name) ?? [] }
    }

    /// The toolkits whose cache (`GetItems`) is their tree as they answer it field by field
    /// (tested: CachedReadTests). Firefox's (`Gecko`) holds empty names, so an application of
    /// any other toolkit is read field by field.
    static let cachedToolkits: Set<String> = ["gtk", "chromium"]

    /// Finds the application (on the loop thread), and has libatspi cache its tree's fields
    /// when its toolkit's cache can be trusted (Docs/atspi.md#speed).
    func find(_ query: AppQuery) -> Accessible? {
        guard let desktop = Accessible.desktop() else { return nil }
        for app in desktop.children() {
            let found: Bool
            switch query {
            case .name(let n): found = app.name.caseInsensitiveCompare(n) == .orderedSame
            case .pid(let p): found = app.processID == p
            }
            if found {
                if Self.cachedToolkits.contains(app.toolkitName.lowercased()) { app.cacheFields() }
                return app
            }
        }
        return nil
    }

    /// Waits (on the loop thread) until libatspi has the application's cache: on meeting an
    /// application it asks for its bus address and then for its whole tree's fields
    /// (`GetItems`), both answered asynchronously through the GLib loop, which is busy running
    /// this very read. So the loop is turned here until the cache arrives (at most 2 s, the
    /// request's own timeout); the read that follows is served from it (Docs/atspi.md#speed).
    func awaitCache(of app: Accessible) {
        let start = ContinuousClock.now
        while !app.childrenCached && ContinuousClock.now - start < .seconds(2) {
            if g_main_context_iteration(nil, 0) == 0 { usleep(1000) }
        }
        if ProcessInfo.processInfo.environment["TANDEM_ATSPI_TRACE"] != nil {
            let took = (ContinuousClock.now - start).components
            let ms = took.seconds * 1000 + took.attoseconds / 1_000_000_000_000_000
            log("tandem atspi: " + (app.childrenCached ? "the application's cache arrived in \(ms) ms" : "no cache from the application in \(ms) ms"))
        }
    }

    /// The application's current screen and its name; throws when it is not on the bus.
    public func screen(of query: AppQuery) throws(AtspiError) -> (name: String, pid: Int32, screen: AppScreen) {
        let reader = self.reader
        let found: (String, Int32, AppScreen)? = loop.sync {
            guard let app = self.find(query) else { return nil }
            if Self.cachedToolkits.contains(app.toolkitName.lowercased()) { self.awaitCache(of: app) }
            let name = app.name
            let screen = reader.screen(of: app, appName: name)
            for (id, count) in reader.truncated {
                self.log("tandem atspi: \(id) has \(count) children; the first \(reader.childLimit) are read")
            }
            return (name, app.processID, screen)
        }
        guard let found else { throw AtspiError(query.description) }
        return found
    }

    /// The screen as a catalog (Docs/formats.md#catalog), pretty printed, ending in a newline.
    public func snapshot(of query: AppQuery, language: String? = nil) throws(AtspiError) -> String {
        let (name, _, screen) = try screen(of: query)
        let catalog = JSONValue.compact([
            "format": "tandem.catalog/1",
            "name": .string(name),
            "language": language.map { .string($0) },
            "screens": .array([screen.json]),
        ])
        return PrettyJSON.text(catalog) + "\n"
    }
}

/// JSON with two-space indents; arrays of numbers (frames) and short arrays of strings
/// (traits) stay on one line, so a snapshot reads and diffs one field a line.
enum PrettyJSON {
    static func text(_ v: JSONValue, indent: String = "") -> String {
        switch v {
        case .array(let items) where items.isEmpty || items.allSatisfy(\.isScalar):
            return v.json
        case .array(let items):
            let inner = indent + "  "
            return "[\n" + items.map { inner + text($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let members) where members.isEmpty:
            return "{}"
        case .object(let members):
            let inner = indent + "  "
            return "{\n" + members.map { inner + JSONValue.string($0.key).json + ": " + text($0.value, indent: inner) }
                .joined(separator: ",\n") + "\n" + indent + "}"
        default:
            return v.json
        }
    }
}

extension JSONValue {
    var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}
