/// A fixture that could not be set up: a daemon that did not start, a binary not built, a
/// command that hung. The message says what and where.
public struct TestSupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
