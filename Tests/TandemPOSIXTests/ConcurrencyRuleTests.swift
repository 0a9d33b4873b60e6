import Foundation
import Testing
import TandemTestSupport

/// The concurrency rules every Swift file keeps (Sources/TandemPOSIX/WakeMailbox.swift): one
/// lock kind, `Synchronization.Mutex`; and each `@unchecked Sendable` justified on its line.
@Suite("concurrency rules")
struct ConcurrencyRuleTests {
    /// The session module is being moved (issue 21's session core); its files follow once moved.
    static let notYet: [String] = []

    static func swiftFiles() throws -> [(path: String, text: String)] {
        var out: [(String, String)] = []
        for top in ["Sources", "Tests", "Examples"] {
            let root = PackageRoot.path + "/" + top
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".swift") {
                let path = top + "/" + relative
                if notYet.contains(where: path.hasPrefix) { continue }
                out.append((path, try String(contentsOfFile: PackageRoot.path + "/" + path, encoding: .utf8)))
            }
        }
        return out
    }

    @Test("one lock kind: no NSLock, NSRecursiveLock or pthread mutex beside Synchronization.Mutex")
    func oneLockKind() throws {
        let files = try Self.swiftFiles()
        #expect(files.count > 100)
        let other = ["NSLock()", "NSRecursiveLock(", "pthread_mutex_t", "os_unfair_lock"]
        for (path, text) in files where path != "Tests/TandemPOSIXTests/ConcurrencyRuleTests.swift" {
            for word in other where text.contains(word) {
                Issue.record("\(path) uses \(word); Tandem's one lock is Synchronization.Mutex")
            }
        }
    }

    @Test("each @unchecked Sendable says why, in a comment on its line or the next")
    func uncheckedSendableJustified() throws {
        var seen = 0
        for (path, text) in try Self.swiftFiles() where path != "Tests/TandemPOSIXTests/ConcurrencyRuleTests.swift" {
            let lines = text.components(separatedBy: "\n")
            for (i, line) in lines.enumerated() where line.contains("@unchecked Sendable") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                seen += 1
                let code = line.components(separatedBy: "//")[0]
                let sameLine = code.count < line.count
                let nextLine = i + 1 < lines.count && lines[i + 1].trimmingCharacters(in: .whitespaces).hasPrefix("//")
                #expect(sameLine || nextLine, "\(path):\(i + 1): @unchecked Sendable without a reason")
            }
        }
        #expect(seen > 0)
    }
}
