import Foundation
import Glibc
import Testing
import TandemPOSIX
import TandemTestSupport

@Suite("POSIX helpers")
struct POSIXHelperTests {
    private func readable(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) == 1
    }

    @Test("a wake pipe is nonblocking and close-on-exec from the start, and drains")
    func wakePipe() {
        let pipe = WakePipe()
        defer { pipe.close() }
        #expect(pipe.isOpen)
        for fd in [pipe.readFD, pipe.writeFD] {
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
            #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
        }
        #expect(!readable(pipe.readFD))
        pipe.signal()
        pipe.signal()
        #expect(readable(pipe.readFD))
        pipe.drain()
        #expect(!readable(pipe.readFD), "drained: the next wait sleeps")
    }

    @Test("the mailbox wakes its thread once per wait, hands the mail over, and ignores posts after a stop")
    func mailbox() {
        let box = WakeMailbox([Int]())
        #expect(box.isUsable)
        #expect(!readable(box.wakeFD))
        box.post { $0.append(1) }
        box.post { $0.append(2) }
        #expect(readable(box.wakeFD))
        let first = box.take { mail, stopping -> [Int] in
            defer { mail = [] }
            #expect(!stopping)
            return mail
        }
        #expect(first == [1, 2])
        #expect(!readable(box.wakeFD), "take drains the pipe")
        box.wake()
        #expect(readable(box.wakeFD), "a wake with no mail ends the wait too")
        #expect(box.take { mail, _ in mail } == [])
        #expect(box.requestStop())
        #expect(!box.requestStop(), "only the first stop counts")
        #expect(box.isStopping)
        box.post { $0.append(3) }
        #expect(box.take { mail, stopping in stopping ? mail : [-1] } == [], "nothing is posted once stopping")
        #expect(box.pipeDescriptors.count == 2)
        box.closePipe()
        box.closePipe()
        #expect(box.pipeDescriptors.isEmpty)
    }

    @Test("a Unix socket address takes a path up to sun_path's length and refuses a longer one")
    func unixAddress() throws {
        let dir = try temporaryDirectory(prefix: "tandem-posix")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/s.sock"
        let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(server) }
        #expect(UnixSocketAddress.bind(server, path) == 0)
        #expect(listen(server, 1) == 0)
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        #expect(UnixSocketAddress.connect(client, path) == 0)

        #expect(UnixSocketAddress.maxPathBytes == 107)
        let longest = "/" + String(repeating: "x", count: UnixSocketAddress.maxPathBytes - 1)
        #expect(UnixSocketAddress.with(longest) { _, length in Int(length) } == MemoryLayout<sockaddr_un>.size)
        let tooLong = longest + "x"
        var called = false
        #expect(UnixSocketAddress.with(tooLong) { _, _ in called = true } == nil)
        #expect(!called, "a cut path would name another socket")
        let other = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(other) }
        #expect(UnixSocketAddress.connect(other, tooLong) == -1)
        #expect(errno == ENAMETOOLONG)
    }

    @Test("durations round up to poll's milliseconds, so a wait never ends before its deadline")
    func clock() {
        #expect(Monotonic.milliseconds(.nanoseconds(1)) == 1)
        #expect(Monotonic.milliseconds(.milliseconds(200)) == 200)
        #expect(Monotonic.milliseconds(.seconds(-1)) == 0)
        #expect(Monotonic.nanoseconds(.milliseconds(-5)) == 0)
        #expect(Monotonic.pollMilliseconds(1) == 1)
        #expect(Monotonic.pollMilliseconds(2_000_000) == 2)
        #expect(Monotonic.pollTimeout(until: 5_000_001, now: 1) == 5)
        #expect(Monotonic.pollTimeout(until: 1, now: 5) == 0)
        #expect(Monotonic.pollTimeout(until: nil) == -1)
        let a = Monotonic.now()
        #expect(Monotonic.now() >= a)
    }
}
