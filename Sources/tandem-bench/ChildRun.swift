import Foundation

/// Runs `tandem-bench one SIZE` in a child process and reads back its `SizeResult`, so that
/// each size's peak memory (`VmHWM`) is its own, not the largest so far.
enum ChildRun {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func measure(size: Int, quick: Bool) throws -> SizeResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["one", String(size)] + (quick ? ["--quick"] : [])
        let pipe = Pipe()
        process.standardOutput = pipe
        // The child's stderr (progress and errors) goes straight to ours.
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw Failure(description: "the run for \(size) elements failed (status \(process.terminationStatus))")
        }
        do {
            return try JSONDecoder().decode(SizeResult.self, from: data)
        } catch {
            throw Failure(description: "the run for \(size) elements printed no result: \(error)")
        }
    }

    /// The child's side: measure and print the result as one JSON line.
    static func runChild(size: Int, quick: Bool) throws {
        var bench = SizeBenchmark(size: size, quick: quick)
        let result = try bench.run()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        FileHandle.standardOutput.write(try encoder.encode(result))
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}
