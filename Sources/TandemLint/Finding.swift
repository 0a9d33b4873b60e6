/// One thing `tandem lint` found: which rule, how severe, where (file, line, JSON path, screen
/// and element) and a one-line message.
///
/// Rendered as `FILE:LINE: PATH: SEVERITY: message [rule]`, the shape of Tandem's other
/// diagnostics with the level and the rule id added.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    public var rule: String
    public var severity: Severity
    public var file: String
    /// The line of the element's (or screen's) `id`.
    public var line: Int?
    /// JSON path of the element (`screens[0].root.children[2]`), or of the screen.
    public var path: String
    public var screen: String
    /// The element's id; `nil` for a finding about a whole screen.
    public var element: String?
    public var message: String
    /// The state the screen was in, when not as it opens: `after activating "header.lists"`.
    public var context: String?
    /// Where the element was imported from (its `source`, `FILE:LINE:COLUMN` of a page source).
    public var source: String?

    public init(rule: String, severity: Severity, file: String, line: Int?, path: String, screen: String,
                element: String?, message: String, context: String? = nil, source: String? = nil) {
        self.rule = rule; self.severity = severity; self.file = file; self.line = line; self.path = path
        self.screen = screen; self.element = element; self.message = message; self.context = context
        self.source = source
    }

    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        s += ": \(path): \(severity.rawValue): \(message)"
        if let context { s += " (\(context))" }
        s += " [\(rule)]"
        if let source { s += " (from \(source))" }
        return s
    }
}
