import Testing
@testable import TandemServer

@Suite("peer policy")
struct PeerPolicyTests {
    let peer = ControlSocket.Peer(pid: 42, uid: 1001, gid: 1001)

    @Test("the service's own user is allowed, another user is refused with both uids named")
    func sameUserOnly() {
        #expect(PeerPolicy(uid: 1001, allowedGroup: nil, groupsOf: { _, _ in [] }).refusal(for: peer) == nil)
        #expect(PeerPolicy(uid: 1000, allowedGroup: nil, groupsOf: { _, _ in [] }).refusal(for: peer)
                == "uid 1001 is not the same user as the service (uid 1000)")
    }

    @Test("with an allowed group: its gid, or membership in the user database, lets a peer in")
    func allowedGroup() {
        let primary = PeerPolicy(uid: 1000, allowedGroup: 1001, groupsOf: { _, _ in [] })
        #expect(primary.refusal(for: peer) == nil)
        let member = PeerPolicy(uid: 1000, allowedGroup: 50, groupsOf: { uid, _ in uid == 1001 ? [1001, 50] : [] })
        #expect(member.refusal(for: peer) == nil)
        let outsider = PeerPolicy(uid: 1000, allowedGroup: 50, groupsOf: { _, gid in [gid] })
        #expect(outsider.refusal(for: peer) == "uid 1001 is not the same user as the service (uid 1000) and not in group 50")
    }

    @Test("the user database knows root's groups")
    func databaseGroups() {
        #expect(PeerPolicy.databaseGroups(0, 0).contains(0))
        #expect(PeerPolicy.databaseGroups(4_000_000_000, 7) == [], "a uid with no entry has no groups")
    }
}
