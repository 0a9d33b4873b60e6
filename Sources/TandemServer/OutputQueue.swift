/// The bytes waiting to be written to one connection, oldest first. Lines are appended whole
/// (with their `\n`); writes take from the front, as much as the socket accepts.
struct OutputQueue {
    private var bytes: [UInt8] = []
    private var start = 0

    /// Bytes waiting.
    var count: Int { bytes.count - start }
    var isEmpty: Bool { start == bytes.count }

    mutating func append(line: [UInt8]) {
        if start > 0 && start >= bytes.count - start {
            bytes.removeSubrange(0..<start)
            start = 0
        }
        bytes.append(contentsOf: line)
        bytes.append(10)
    }

    /// Hands `write` the waiting bytes (oldest first) until it accepts fewer than offered or
    /// nothing is left. `write` returns how many it accepted (0 when none could be).
    mutating func drain(_ write: (UnsafeRawBufferPointer) -> Int) {
        while start < bytes.count {
            let offered = bytes.count - start
            let accepted = bytes.withUnsafeBytes { raw in
                write(UnsafeRawBufferPointer(rebasing: raw[start...]))
            }
            start += max(0, min(accepted, offered))
            if accepted < offered { break }
        }
        if start == bytes.count { removeAll() }
    }

    mutating func removeAll() {
        bytes = []
        start = 0
    }
}
