import Foundation
import TandemTestSupport
import Testing

/// Docs/atspi.md's CI script runs as written, on a desktop and in a folder of its own, with
/// this build's tandem on PATH; what the page says the transcript holds, it holds.
@Suite struct AtspiDocsTests {
    static func ciScript() throws -> String {
        try DocBlock.first("Docs/atspi.md", language: "sh", after: "<a id=\"ci\"></a>")
    }

    @Test func theCIScriptRunsAsWritten() throws {
        let script = try Self.ciScript()
        let work = try temporaryDirectory(prefix: "tandem-atspi-ci")
        defer { try? FileManager.default.removeItem(atPath: work) }
        var env = ProcessInfo.processInfo.environment
        env["DESKTOP"] = work + "/desktop"
        env["WORK"] = work
        env["PATH"] = (try TandemBinary.path() as NSString).deletingLastPathComponent + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["ATSPI_WATCH_PID"] = String(getpid())
        let result = try ProcessRunner.run(["/bin/bash", "-euo", "pipefail", "-c", script], environment: env,
                                           directory: PackageRoot.path(""), timeout: .seconds(120))
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("bridge exit 0"), "\(result.output)")
        let transcript = (try? String(contentsOfFile: work + "/run.jsonl", encoding: .utf8)) ?? ""
        let spoken = transcript.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("\"ch\":\"speech\""), let r = line.range(of: "\"text\":\"") else { return nil }
            return String(line[r.upperBound...].prefix { $0 != "\"" })
        }
        #expect(spoken.contains("Pantry, heading"), "\(spoken)")
        #expect(spoken.contains("Apples quantity, 2, adjustable"), "\(spoken)")
        #expect(spoken.contains("3"), "\(spoken)")
        #expect(spoken.contains("ci-pantry closed"), "\(spoken)")
        // the same run, headless: the recording's replay is the live transcript, byte for byte
        let replayed = (try? String(contentsOfFile: work + "/replayed.jsonl", encoding: .utf8)) ?? "none"
        #expect(replayed == transcript && !spoken.isEmpty)
    }
}

/// The command's help, the man page and the README agree on `tandem atspi`.
@Suite struct AtspiCommandDocsTests {
    @Test func helpManPageAndReadmeCoverIt() throws {
        let help = try ProcessRunner.run([try TandemBinary.path(), "--help"]).stdout
        #expect(help.contains("  atspi "))
        let own = try ProcessRunner.run([try TandemBinary.path(), "atspi", "--help"])
        #expect(own.status == 0 && own.stdout.contains("USAGE: tandem atspi"))
        let man = try String(contentsOfFile: PackageRoot.path("Docs/tandem.1"), encoding: .utf8)
        #expect(man.contains(".B tandem atspi"))
        for option in ["--app", "--pid", "--snapshot", "--socket", "--language", "--chrome"] {
            #expect(own.stdout.contains(option), "tandem atspi --help lacks \(option)")
            #expect(man.contains(option.replacingOccurrences(of: "-", with: "\\-")), "tandem.1 lacks \(option)")
        }
        // every README line for the command uses options the command has
        let readme = try String(contentsOfFile: PackageRoot.path("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n").filter { $0.hasPrefix("tandem atspi ") }
        #expect(lines.count == 2)
        for line in lines {
            for word in line.split(separator: " ") where word.hasPrefix("--") {
                #expect(own.stdout.contains(String(word)), "README: \(line)")
            }
        }
    }
}
