/// A problem found in an input file: where (file, line, JSON path) and what.
///
/// Rendered as `FILE:LINE: PATH: message`, the form the CLI prints after `tandem: error: `.
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    /// JSON path such as `screens[0].root.children[2].order[1]`; empty for the whole file.
    public var path: String
    public var message: String

    public init(file: String, line: Int?, path: String, message: String) {
        self.file = file; self.line = line; self.path = path; self.message = message
    }

    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        s += ": "
        if !path.isEmpty { s += path + ": " }
        return s + message
    }
}

/// Diagnostics gathered while reading a file: errors stop the load, warnings do not.
public struct Diagnostics: Sendable {
    public var errors: [Diagnostic] = []
    public var warnings: [Diagnostic] = []
    public init() {}
}
