import CLinux
import Glibc

/// Who may talk to the service: the user it runs as, and, when a group is allowed, the
/// members of that group.
public struct PeerPolicy: Sendable {
    /// The service's user.
    public let uid: uid_t
    public let allowedGroup: gid_t?
    /// The groups a user belongs to (from the user database); given so tests can say.
    let groupsOf: @Sendable (uid_t, gid_t) -> [gid_t]

    public init(uid: uid_t, allowedGroup: gid_t?) {
        self.init(uid: uid, allowedGroup: allowedGroup, groupsOf: PeerPolicy.databaseGroups)
    }

    init(uid: uid_t, allowedGroup: gid_t?, groupsOf: @escaping @Sendable (uid_t, gid_t) -> [gid_t]) {
        self.uid = uid
        self.allowedGroup = allowedGroup
        self.groupsOf = groupsOf
    }

    /// Nil when `peer` may connect; otherwise the sentence its error line says.
    public func refusal(for peer: ControlSocket.Peer) -> String? {
        if peer.uid == uid { return nil }
        guard let group = allowedGroup else {
            return "uid \(peer.uid) is not the same user as the service (uid \(uid))"
        }
        if peer.gid == group || groupsOf(peer.uid, peer.gid).contains(group) { return nil }
        return "uid \(peer.uid) is not the same user as the service (uid \(uid)) and not in group \(group)"
    }

    /// The groups the user database lists for `uid` (its primary gid included); empty when
    /// the uid has no entry.
    static let databaseGroups: @Sendable (uid_t, gid_t) -> [gid_t] = { uid, gid in
        var pwd = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var text = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &pwd, &text, text.count, &result) == 0, result != nil, let name = pwd.pw_name else {
            return []
        }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, gid, &groups, &count) < 0 {
            // `count` now says how many there are.
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, gid, &groups, &count) >= 0 else { return [] }
        }
        return Array(groups.prefix(Int(count)))
    }

    /// The peer of a connected Unix socket, from the kernel (`SO_PEERCRED`).
    static func peer(of fd: Int32) -> ControlSocket.Peer? {
        var cred = clinux_peer_credentials()
        var length = socklen_t(MemoryLayout<clinux_peer_credentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) == 0,
              length == socklen_t(MemoryLayout<clinux_peer_credentials>.size) else { return nil }
        return ControlSocket.Peer(pid: cred.pid, uid: cred.uid, gid: cred.gid)
    }
}
