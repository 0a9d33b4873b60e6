import TandemSession
import Foundation
import TandemModel

/// Finds profiles by name: the user's own first (`$XDG_CONFIG_HOME/tandem/profiles/NAME.json`,
/// `~/.config` when unset), then `$TANDEM_PROFILES`, then the `Profiles/` folder shipped beside
/// the executable's package (the real executable's, whatever `PATH` or link started it).
/// `default` always exists, even with no file.
public struct ProfileStore: Sendable {
    public var searchPath: [String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment, executable: String = ProfileStore.runningExecutable) {
        var dirs: [String] = []
        if let x = environment["XDG_CONFIG_HOME"], !x.isEmpty {
            dirs.append(x + "/tandem/profiles")
        } else if let home = environment["HOME"], !home.isEmpty {
            dirs.append(home + "/.config/tandem/profiles")
        }
        if let t = environment["TANDEM_PROFILES"], !t.isEmpty { dirs.append(t) }
        dirs += Self.shippedDirectories(executable: executable)
        searchPath = dirs
    }

    public init(searchPath: [String]) { self.searchPath = searchPath }

    /// The running program's own file: `/proc/self/exe`, which names it even when it was started
    /// by a bare name through `PATH` (where `argv[0]` is just "tandem") or through a link.
    public static var runningExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? ""
    }

    /// `Profiles/` in the nearest ancestor of the executable (a SwiftPM build lives in
    /// `.build/<config>/`), then the install location.
    static func shippedDirectories(executable: String) -> [String] {
        var out: [String] = []
        var url = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = url.appendingPathComponent("Profiles").path
            if FileManager.default.fileExists(atPath: candidate + "/default.json") { out.append(candidate); break }
            url = url.deletingLastPathComponent()
        }
        let cwd = FileManager.default.currentDirectoryPath + "/Profiles"
        if !out.contains(cwd), FileManager.default.fileExists(atPath: cwd + "/default.json") { out.append(cwd) }
        out.append("/usr/share/tandem/profiles")
        return out
    }

    /// Where the profile named `name` would be read from, if anywhere.
    public func path(of name: String) -> String? {
        searchPath.map { "\($0)/\(name).json" }.first { FileManager.default.fileExists(atPath: $0) }
    }

    public func exists(_ name: String) -> Bool { name == "default" || path(of: name) != nil }

    /// Loads the profile; a missing `default` is the built-in one.
    public func load(_ name: String) throws(Diagnostic) -> (Profile, [Diagnostic]) {
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }), !name.isEmpty else {
            throw Diagnostic(file: name, line: nil, path: "", message: "a profile name uses letters, digits, '-' and '_'")
        }
        guard let path = path(of: name) else {
            if name == "default" { return (Profile(), []) }
            let tried = searchPath.map { "\($0)/\(name).json" }.joined(separator: ", ")
            throw Diagnostic(file: "\(name).json", line: nil, path: "", message: "no profile \"\(name)\" (looked for \(tried); "
                + "TANDEM_PROFILES=DIR adds a folder)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Diagnostic(file: path, line: nil, path: "", message: "cannot read the file")
        }
        return try Profile.decode(Array(data), file: path, name: name)
    }
}
