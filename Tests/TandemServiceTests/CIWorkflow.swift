import Foundation
import TandemTestSupport

/// A CI file of Examples/ci read as the service reads it: YAML (parsed by PyYAML, so a file
/// that is not valid YAML fails here as it would there) into plain values.
struct CIFile {
    let path: String
    let root: [String: Any]

    init(_ relative: String) throws {
        path = PackageRoot.path(relative)
        let r = try ProcessRunner.run(["/usr/bin/python3", "-c", "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)", path])
        guard r.status == 0 else { throw TestSupportError("\(relative) is not valid YAML: \(r.stderr)") }
        guard let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] else {
            throw TestSupportError("\(relative) is not a YAML mapping")
        }
        root = object
    }

    /// A file's values changed by a test (`text` stays the file's).
    init(path: String, root: [String: Any]) {
        self.path = path
        self.root = root
    }

    var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
}

/// A scratch "app repository" the way a CI job checks it out: the suites under
/// `accessibility/`, and Tandem itself (this package) under `tandem/` when the job fetches it.
enum CIWorkspace {
    /// The small example suite the recipes are run against: the bank fixture and the jobs sample.
    static func app(at path: String) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: path + "/accessibility", withIntermediateDirectories: true)
        try fm.copyItem(atPath: PackageRoot.path("Tests/Fixtures/ci/bank"), toPath: path + "/accessibility/bank")
        try fm.copyItem(atPath: PackageRoot.path("Examples/jobs"), toPath: path + "/accessibility/jobs")
    }

    /// Tandem checked out in `path/tandem` (this package, linked: a copy would be a second
    /// full build).
    static func tandem(in path: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path + "/tandem", withDestinationPath: PackageRoot.path)
    }

    /// The search path of a job in `image`: in a Swift image, the toolchain (through
    /// `StaticTandem.shim`); in any other (`debian:12`), Debian's folders only, no Swift and
    /// no Swift libraries, as in that image.
    static func path(image: String) -> [String: String] {
        if image.hasPrefix("swift:") {
            return ["PATH": StaticTandem.shim + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
        }
        return ["PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LD_LIBRARY_PATH": ""]
    }

    /// The commit of this package's checkout: what `git -C tandem rev-parse HEAD` says.
    static func commit() throws -> String {
        let r = try ProcessRunner.run(["/usr/bin/git", "-C", PackageRoot.path, "rev-parse", "HEAD"])
        guard r.status == 0 else { throw TestSupportError("the package is not a git checkout: \(r.stderr)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every file under `folder` (relative paths), sorted.
    static func files(_ folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter {
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + $0, isDirectory: &isDir) && !isDir.boolValue
        }.sorted()
    }

    /// Copies `source` (a file or a folder's contents) into the folder `destination`.
    static func copy(_ source: String, into destination: String, mode: Int? = nil) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: destination, withIntermediateDirectories: true)
        var isDir: ObjCBool = false
        _ = fm.fileExists(atPath: source, isDirectory: &isDir)
        let pairs: [(String, String)] = isDir.boolValue
            ? files(source).map { (source + "/" + $0, destination + "/" + $0) }
            : [(source, destination + "/" + (source as NSString).lastPathComponent)]
        for (from, to) in pairs {
            try fm.createDirectory(atPath: (to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try? fm.removeItem(atPath: to)
            try fm.copyItem(atPath: from, toPath: to)
            if let mode { try fm.setAttributes([.posixPermissions: mode], ofItemAtPath: to) }
        }
    }
}

/// `${{ … }}` expressions and `if:` conditions of a GitHub workflow, for the ones the example
/// uses: anything else fails the test, which must then learn it.
struct GitHubContext {
    var values: [String: String]

    func expand(_ text: String) throws -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(of: "${{") {
            out += rest[..<open.lowerBound]
            guard let close = rest.range(of: "}}", range: open.upperBound..<rest.endIndex) else { throw TestSupportError("unclosed ${{ in \(text)") }
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            guard let value = values[name] else { throw TestSupportError("the workflow uses ${{ \(name) }}, which this test does not know") }
            out += value
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// The `if:` conditions the example writes, evaluated on these values.
    func holds(_ condition: String) throws -> Bool {
        switch condition {
        case "steps.cache.outputs.cache-hit != 'true'":
            return values["steps.cache.outputs.cache-hit"] != "true"
        case "always()":
            return true
        case "always() && (github.event_name == 'push' || github.event.pull_request.head.repo.full_name == github.repository)":
            return values["github.event_name"] == "push" || values["github.event.pull_request.head.repo.full_name"] == values["github.repository"]
        default:
            throw TestSupportError("the workflow has the condition \(condition), which this test does not know")
        }
    }
}
