import Foundation
import Testing
import TandemTestSupport

/// Each subcommand takes only the options it declares (Sources/tandem/Help.swift), and every
/// place that lists options — `tandem SUB --help`, its usage lines, Docs/tandem.1, the command
/// lines in README.md and Docs/ — agrees with the declarations. `--help` is made from them, so
/// it stands for them here.
@Suite("per-subcommand options")
struct CLIOptionTests {
    static let subcommands = ["replay", "check", "view", "run", "test", "lint", "import", "serve", "ctl", "atspi"]

    /// The options `tandem SUB --help` lists (long names; `-j` and `--braille-host` are
    /// spellings of `--jobs` and `--braille`).
    static func declared(_ sub: String) throws -> Set<String> {
        let help = try CLITests.tandem([sub, "--help"]).stdout
        let section = try #require(help.components(separatedBy: "\nOPTIONS:\n").dropFirst().first)
        var names: Set<String> = []
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            guard line.hasPrefix("  -") else { continue }
            // The label ends where the help's column starts (two spaces), or with the line.
            let label = line.dropFirst(2).components(separatedBy: "  ")[0]
            let words = label.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
            names.formUnion(words.filter { $0.hasPrefix("--") })
        }
        names.remove("--help")
        return names
    }

    static let declarations: [String: Set<String>] = {
        var all: [String: Set<String>] = [:]
        for sub in subcommands { all[sub] = try? declared(sub) }
        return all
    }()

    /// `--name` words in a text (man page escapes: `\-\-name`).
    static func optionWords(_ text: String) -> [String] {
        let plain = text.replacingOccurrences(of: "\\-", with: "-")
        let regex = try! NSRegularExpression(pattern: #"(?<![\w-])--[a-z][a-z-]*"#)
        return regex.matches(in: plain, range: NSRange(plain.startIndex..., in: plain)).map { String(plain[Range($0.range, in: plain)!]) }
    }

    @Test("an option a subcommand does not take is a usage error naming the subcommand and the option")
    func refused() throws {
        let view = try CLITests.tandem(["view", "-", "--profile", "default"], input: Data())
        #expect(view.status == 64)
        #expect(view.stderr.hasPrefix("tandem: error: tandem view does not take --profile\n"), "\(view.stderr)")
        #expect(view.stderr.contains("USAGE: tandem view"))

        let lint = try CLITests.tandem(["lint", "-j", "2", "Examples/grocery/grocery.catalog.json"])
        #expect(lint.status == 64)
        #expect(lint.stderr.contains("tandem lint does not take -j"), "\(lint.stderr)")

        let check = try CLITests.tandem(["check", "a", "b", "c", "--out=x"])
        #expect(check.status == 64)
        #expect(check.stderr.contains("tandem check does not take --out"), "\(check.stderr)")

        let unknown = try CLITests.tandem(["serve", "--sockett", "/tmp/x"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown option --sockett for tandem serve"), "\(unknown.stderr)")

        let flag = try CLITests.tandem(["lint", "--strict=yes", "Examples/grocery/grocery.catalog.json"])
        #expect(flag.status == 64)
        #expect(flag.stderr.contains("--strict takes no value"), "\(flag.stderr)")
    }

    @Test("the spellings the docs use still parse: -jN, --name=value, --braille-host, --connect with and without its socket")
    func spellings() throws {
        let jobs = try CLITests.tandem(["test", "Examples/jobs", "-j1", "--filter=jobs"])
        #expect(jobs.status == 0, "\(jobs.stderr)")
        let replay = try CLITests.tandem(["replay", "Examples/jobs/jobs.catalog.json", "Examples/jobs/jobs.scenario", "--profile=headless"])
        #expect(replay.status == 0, "\(replay.stderr)")
        // Parsed, then refused for what it is (a catalog and --connect), not as an unknown option.
        let both = try CLITests.tandem(["run", "x.catalog.json", "--connect", "--braille-host", "127.0.0.1:1"])
        #expect(both.status == 64)
        #expect(!both.stderr.contains("does not take") && !both.stderr.contains("unknown option"), "\(both.stderr)")
    }

    @Test("every subcommand declares options, and its usage lines name only options it declares")
    func usageLines() throws {
        for sub in Self.subcommands {
            let declared = try #require(Self.declarations[sub], "tandem \(sub) --help failed")
            let help = try CLITests.tandem([sub, "--help"]).stdout
            let usage = help.components(separatedBy: "\n\n").first { $0.hasPrefix("USAGE:") } ?? ""
            #expect(!usage.isEmpty, "tandem \(sub) --help has no USAGE")
            for word in Self.optionWords(usage) where word != "--help" {
                #expect(declared.contains(word), "tandem \(sub)'s usage shows \(word), which it does not take")
            }
        }
    }

    @Test("Docs/tandem.1 lists every option once, with exactly the subcommands that take it, and its synopsis only what each takes")
    func manPage() throws {
        let man = try String(contentsOf: CLITests.root.appendingPathComponent("Docs/tandem.1"), encoding: .utf8)
        let synopsis = try #require(man.components(separatedBy: ".SH SYNOPSIS\n").dropFirst().first?.components(separatedBy: ".SH ").first)
        for block in synopsis.components(separatedBy: ".br\n") {
            let lines = block.split(separator: "\n")
            guard let first = lines.first, first.hasPrefix(".B tandem ") else { continue }
            let sub = String(first.dropFirst(".B tandem ".count).split(separator: " ")[0])
            let declared = try #require(Self.declarations[sub], "the synopsis names tandem \(sub), which does not exist")
            for word in Self.optionWords(String(block)) {
                #expect(declared.contains(word), "tandem.1's synopsis of \(sub) shows \(word), which it does not take")
            }
        }

        let options = try #require(man.components(separatedBy: ".SH OPTIONS\n").dropFirst().first?.components(separatedBy: ".SH ").first)
        var documented: [String: Set<String>] = [:]
        for entry in options.components(separatedBy: ".TP\n").dropFirst() {
            let lines = entry.split(separator: "\n").map(String.init)
            let names = Self.optionWords(lines[0])
            let name = try #require(names.last, "an OPTIONS entry names no option: \(lines[0])")
            #expect(documented[name] == nil, "tandem.1 lists \(name) twice")
            let list = try #require(lines.dropFirst().first, "\(name) has no text")
            #expect(list.hasPrefix(".RB ("), "tandem.1's \(name) does not say which subcommands take it: \(list)")
            let subs = list.dropFirst(".RB (".count).replacingOccurrences(of: "\"", with: "")
                .replacingOccurrences(of: ")", with: "").split(separator: ",")
                .compactMap { $0.split(separator: " ").first.map(String.init) }
            documented[name] = Set(subs)
        }
        var takers: [String: Set<String>] = [:]
        for (sub, names) in Self.declarations {
            for name in names { takers[name, default: []].insert(sub) }
        }
        #expect(Set(documented.keys) == Set(takers.keys),
                "in tandem.1, not declared: \(Set(documented.keys).subtracting(takers.keys).sorted()); declared, not in tandem.1: \(Set(takers.keys).subtracting(documented.keys).sorted())")
        for (name, subs) in documented where takers[name] != nil {
            #expect(subs == takers[name], "tandem.1 says \(name) is for \(subs.sorted()); taken by \(takers[name]!.sorted())")
        }
    }

    @Test("the command lines in README.md and Docs/ use only options their subcommand takes")
    func documentedCommandLines() throws {
        var files = ["README.md"]
        let docs = CLITests.root.appendingPathComponent("Docs")
        files += try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.map { "Docs/" + $0 }
        let regex = try NSRegularExpression(pattern: #"tandem (replay|check|view|run|test|lint|import|serve|ctl|atspi)\b([^`#|;&)\n]*)"#)
        var checked = 0
        for file in files {
            let text = try String(contentsOf: CLITests.root.appendingPathComponent(file), encoding: .utf8)
            for m in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let sub = String(text[Range(m.range(at: 1), in: text)!])
                // A table cell may name two commands: "tandem ctl / run --connect".
                let rest = String(text[Range(m.range(at: 2), in: text)!]).components(separatedBy: " / ")[0]
                let declared = try #require(Self.declarations[sub])
                for word in Self.optionWords(rest) where word != "--help" {
                    checked += 1
                    #expect(declared.contains(word) || (word == "--braille-host" && declared.contains("--braille")),
                            "\(file): `tandem \(sub)\(rest)` uses \(word), which tandem \(sub) does not take")
                }
            }
        }
        #expect(checked > 50, "the command lines were found")
    }
}
