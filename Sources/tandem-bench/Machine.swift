import Foundation

/// The machine the figures were measured on, for the report's header.
struct Machine {
    var processors: Int
    var cpuModel: String
    var memoryBytes: Int?
    var kernel: String

    static func current() -> Machine {
        let cpuinfo = ProcessMemory.read("/proc/cpuinfo") ?? ""
        let model = field("model name", in: cpuinfo, separator: ":") ?? "unknown CPU"
        let meminfo = ProcessMemory.read("/proc/meminfo") ?? ""
        let kB = field("MemTotal", in: meminfo, separator: ":")?.split(separator: " ").first.flatMap { Int($0) }
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return Machine(processors: ProcessInfo.processInfo.activeProcessorCount, cpuModel: model,
                       memoryBytes: kB.map { $0 * 1024 }, kernel: "Linux \(release)")
    }

    static func field(_ name: String, in text: String, separator: Character) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            guard let i = line.firstIndex(of: separator) else { continue }
            return line[line.index(after: i)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    var summary: String {
        let memory = memoryBytes.map { String(format: "%.0f GiB", Double($0) / 1_073_741_824) } ?? "? GiB"
        return "\(processors) × \(cpuModel), \(memory), \(kernel)"
    }
}
