/// Where BRLTTY is and how to prove who we are: a BrlAPI host (`127.0.0.1:37`, `:1`,
/// `host:0`) and an authentication setting (`none`, `keyfile:PATH`, or a key file's path).
///
/// Chosen in this order: the command line (`--braille HOST`), the profile's `brailleHost`,
/// then `BRLAPI_HOST` / `BRLAPI_AUTH`, else BrlAPI's own default (`:0`: the local socket,
/// then TCP port 4101). The key itself is never read or printed here: BrlAPI reads the key
/// file while connecting, and `description` names the host only.
public struct BrlAPIEndpoint: Sendable, Hashable {
    /// The host as given to BrlAPI; nil: BrlAPI's default.
    public var host: String?
    /// The authentication setting as given to BrlAPI; nil: BrlAPI's default (`keyfile` at
    /// BrlAPI's standard key path, else none).
    public var auth: String?

    public init(host: String?, auth: String?) {
        self.host = host.flatMap { $0.isEmpty ? nil : $0 }
        self.auth = auth.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The host to connect to by the precedence above. `option` is the command line's value;
    /// `default` (or `auto`) there means "decide as if no host were given".
    public static func resolve(option: String?, profileHost: String?,
                               environment: [String: String]) -> BrlAPIEndpoint {
        let fromOption = option.flatMap { ["", "default", "auto"].contains($0) ? nil : $0 }
        let host = fromOption ?? profileHost ?? environment["BRLAPI_HOST"]
        return BrlAPIEndpoint(host: host, auth: environment["BRLAPI_AUTH"])
    }

    /// For messages and logs: the host, never the authentication setting.
    public var description: String {
        guard let host else { return "BrlAPI's default host (:0)" }
        return "BRLTTY at \(host)"
    }
}
