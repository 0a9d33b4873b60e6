import CLinux
import Glibc

/// Which CPUs a thread may run on (`sched_setaffinity`). A thread or process started afterwards
/// inherits its starter's set, so `serve-load --pin` gives `tandem serve` a core of its own by
/// starting it from a thread pinned there, and keeps its own threads off that core.
enum CPUPinning {
    /// The CPUs this machine has online.
    static var online: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Pins the calling thread (and what it starts from now on) to `cpus`.
    static func pinCurrentThread(to cpus: [Int]) throws {
        var mask = [UInt64](repeating: 0, count: 16)   // 1024 CPUs
        for cpu in cpus where cpu >= 0 && cpu < mask.count * 64 { mask[cpu / 64] |= 1 << UInt64(cpu % 64) }
        let result = mask.withUnsafeBytes { clinux_sched_setaffinity(0, $0.count, $0.baseAddress) }
        guard result == 0 else { throw BenchFailure("cannot pin to CPUs \(cpus): \(String(cString: strerror(errno)))") }
    }
}
