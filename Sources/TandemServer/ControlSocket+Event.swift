import Glibc
import TandemVocabulary

extension ControlSocket {
    /// One connection, numbered from 1 in the order connections were accepted (rejected peers
    /// get no number). Numbers are never reused while the server runs. The same value the
    /// service and the protocol name the client by (`c1`, `c2`, …).
    public typealias ClientID = TandemVocabulary.ClientID

    /// Who is on the other end, as the kernel tells it (`SO_PEERCRED`: the process that
    /// connected, with its effective uid and gid at the time).
    public struct Peer: Hashable, Sendable, CustomStringConvertible {
        public let pid: pid_t
        public let uid: uid_t
        public let gid: gid_t
        public init(pid: pid_t, uid: uid_t, gid: gid_t) {
            self.pid = pid
            self.uid = uid
            self.gid = gid
        }
        public var description: String { "pid \(pid), uid \(uid), gid \(gid)" }
    }

    /// What the server tells the service, on the server's thread, in order. For one client:
    /// `connected` first, then its `line`s in the order sent, then `disconnected` last and
    /// nothing after it.
    public enum Event: Hashable, Sendable {
        /// A peer that passed the credential check.
        case connected(ClientID, Peer)
        /// A whole line (without `\n` or `\r\n`, never empty). `number` counts every line the
        /// client ended on this connection, from 1, empty lines too, so it is the line number
        /// the client sees. The service must call `processed(client)` once it has handled it.
        case line(ClientID, number: Int, bytes: [UInt8])
        /// The connection is closed; `reason` is a sentence ("closed by the client", "line 3 is
        /// longer than the limit of 1048576 bytes", "does not read its messages", …).
        case disconnected(ClientID, reason: String)
        /// A peer that failed the credential check: it was sent an error line and closed. It
        /// never was a client.
        case rejected(Peer, reason: String)
    }
}
