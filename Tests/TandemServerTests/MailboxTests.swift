import Synchronization
import Testing
import TandemTestSupport
@testable import TandemServer

/// The mailbox between the server's thread and the service's.
@Suite("control socket: mailbox")
struct MailboxTests {
    @Test("the event handler is called at the same depth however many events came before")
    func handlerDepthStaysTheSame() {
        let positions = Mutex<[UInt]>([])
        let mailbox = Mailbox { _ in
            let p = stackPosition()
            positions.withLock { $0.append(p) }
        }
        for n in 1...300 { mailbox.report(.disconnected(ControlSocket.ClientID(n), reason: "test")) }
        let seen = positions.withLock { $0 }
        #expect(seen.count == 300)
        #expect(seen.allSatisfy { $0 == seen[0] }, "the 300th call is \(Int(seen[0]) - Int(seen.last ?? 0)) bytes deeper than the first")
    }
}
