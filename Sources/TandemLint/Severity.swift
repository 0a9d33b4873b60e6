/// How sure a rule is that a finding is a bug (ATF's levels): an `error` fails `tandem lint`.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    /// Useful to know; never a failure.
    case info
    /// Possibly a bug; fails only with `--strict`.
    case warning
    /// Clearly a bug: a blind user cannot do something.
    case error

    var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}
