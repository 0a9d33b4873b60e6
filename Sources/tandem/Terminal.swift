import Foundation

/// The controlling terminal in the mode `tandem run` needs: no line buffering and no echo, so
/// keys arrive as they are pressed; signals (Ctrl-C) and output processing stay as they were.
/// The original mode is restored on `restore()`, however the session ends.
final class Terminal: @unchecked Sendable {  // raw mode is entered and restored on the main thread; other threads read only `fd`
    private var original = termios()
    private(set) var isRaw = false
    let fd: Int32

    init(fd: Int32 = STDIN_FILENO) { self.fd = fd }

    var isTerminal: Bool { isatty(fd) == 1 }

    func enterRawMode() {
        guard isTerminal, tcgetattr(fd, &original) == 0 else { return }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutablePointer(to: &raw.c_cc) { cc in
            cc.withMemoryRebound(to: cc_t.self, capacity: Int(NCCS)) { c in
                c[Int(VMIN)] = 1
                c[Int(VTIME)] = 0
            }
        }
        if tcsetattr(fd, TCSAFLUSH, &raw) == 0 { isRaw = true }
    }

    func restore() {
        guard isRaw else { return }
        var t = original
        tcsetattr(fd, TCSAFLUSH, &t)
        isRaw = false
    }

    /// Reads what is available (blocking for the first byte); empty at end of input.
    func read() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 256) }
        if n < 0 && errno == EINTR { return read() }
        return n > 0 ? Array(buffer[0..<n]) : []
    }

    /// Whether a byte arrives within `ms` milliseconds.
    func waitForInput(ms: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, ms) > 0
    }
}
