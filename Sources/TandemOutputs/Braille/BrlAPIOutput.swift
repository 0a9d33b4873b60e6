import CBrlAPI
import Foundation

/// Braille through BRLTTY (BrlAPI). STUB: to be written (issue 5).
public final class BrlAPIOutput: LiveOutput, @unchecked Sendable {
    public let name = "braille"
    public let host: String?
    public let auth: String?
    private var report: (@Sendable (LiveOutputEvent) -> Void)?

    /// `host` as in `BRLAPI_HOST` (`127.0.0.1:37`), `auth` as in `BRLAPI_AUTH`; nil: the
    /// environment, else BrlAPI's default.
    public init(host: String?, auth: String?) {
        self.host = host
        self.auth = auth
    }

    public func start(report: @escaping @Sendable (LiveOutputEvent) -> Void) {
        self.report = report
        report(.status(output: name, available: false, message: "BrlAPI output is not built yet"))
    }

    public func stop() { report = nil }

    public func emit(_ record: Record, at time: Int) {}
}
