import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// This process's memory as Linux reports it in `/proc/self/status`.
enum ProcessMemory {
    /// `VmHWM`: the peak resident set size so far, in bytes.
    static var peak: Int? { status("VmHWM") }

    /// `VmRSS`: the resident set size now, in bytes.
    static var resident: Int? { status("VmRSS") }

    /// Resets `VmHWM` to the current resident size (writing `5` to `/proc/self/clear_refs`,
    /// Linux ≥ 4.0), so that the next peak belongs to what runs after. False when refused.
    static func resetPeak() -> Bool {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
    }

    /// Hands free heap pages back to the kernel (glibc's `malloc_trim`, which Swift's Glibc
    /// module does not export), so that `resident` shows what is in use.
    static func trim() {
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }

    /// Bytes the heap has handed out and not had back, from glibc's `malloc_info` report
    /// (all arenas: the system memory they hold, less their free chunks, plus mmapped blocks).
    /// Unlike `resident`, freed pages that malloc keeps do not count. `malloc_info` is not in
    /// Swift's Glibc module, so it is looked up by name.
    static var heapInUse: Int? {
        typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
        guard let symbol = dlsym(nil, "malloc_info") else { return nil }
        var buffer: UnsafeMutablePointer<CChar>?
        var length = 0
        guard let stream = open_memstream(&buffer, &length) else { return nil }
        let status = unsafeBitCast(symbol, to: MallocInfo.self)(0, stream)
        fclose(stream)
        defer { free(buffer) }
        guard status == 0, let buffer else { return nil }
        // The totals over all arenas follow the last per-arena <heap> element.
        let xml = String(cString: buffer)
        let totals = xml.range(of: "</heap>", options: .backwards).map { xml[$0.upperBound...] } ?? xml[...]
        func total(_ tag: String) -> Int? {
            guard let r = totals.range(of: tag) else { return nil }
            let rest = totals[r.upperBound...]
            guard let open = rest.range(of: "size=\""), let close = rest[open.upperBound...].firstIndex(of: "\"") else { return nil }
            return Int(rest[open.upperBound..<close])
        }
        guard let system = total("<system type=\"current\""), let fast = total("<total type=\"fast\""),
              let rest = total("<total type=\"rest\""), let mmap = total("<total type=\"mmap\"") else { return nil }
        return system - fast - rest + mmap
    }

    /// A `kB` field of `/proc/self/status`, in bytes.
    static func status(_ field: String) -> Int? {
        guard let text = read("/proc/self/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let number = line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            return number.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    /// Reads a `/proc` file (their size shows as 0, so read until the end).
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            data += buffer[0..<n]
        }
        return String(decoding: data, as: UTF8.self)
    }
}
