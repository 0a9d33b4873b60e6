import Foundation
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemSession
import TandemVocabulary

/// A recording kept as a test: `NAME.session.record` beside its golden transcript
/// `NAME.session.golden.jsonl` (Docs/ci.md#recordings). `tandem replay --session`,
/// `tandem check` and `tandem test` read it the same way.
extension SessionReplay {
    /// What a recording's file name ends with, and its golden transcript's.
    public static let recordingSuffix = ".session.record"
    public static let goldenSuffix = ".session.golden.jsonl"

    /// The golden transcript kept beside a recording: `NAME.session.golden.jsonl` for
    /// `NAME.session.record`.
    public static func goldenPath(forRecording path: String) -> String {
        let stem = path.hasSuffix(recordingSuffix) ? String(path.dropLast(recordingSuffix.count)) : path
        return stem + goldenSuffix
    }

    /// Reads the recording at `path`; errors name the file (and line).
    public static func load(_ path: String, profiles: ProfileStore,
                            makeTranslator: @escaping @Sendable (Profile) -> any BrailleTranslator) throws(Diagnostic) -> SessionReplay {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Diagnostic(file: path, line: nil, path: "", message: FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw Diagnostic(file: path, line: nil, path: "", message: "not valid UTF-8")
        }
        let inputs = try RecordedInput.read(text, file: path)
        return SessionReplay(inputs: inputs, file: path, profiles: profiles, makeTranslator: makeTranslator)
    }

    /// Where the `--catalog` a recording names is: a relative path is taken from the
    /// recording's folder; a path that is not there (a tester's machine's) is looked for
    /// beside the recording by its file name, so a recording moved into a repository with its
    /// catalog still plays.
    public static func catalogPath(_ named: String, recording: String) -> String {
        let folder = (recording as NSString).deletingLastPathComponent
        let inFolder = { (name: String) in folder.isEmpty ? name : folder + "/" + name }
        if !named.hasPrefix("/") { return inFolder(named) }
        if FileManager.default.fileExists(atPath: named) { return named }
        let beside = inFolder((named as NSString).lastPathComponent)
        return FileManager.default.fileExists(atPath: beside) ? beside : named
    }

    /// Plays the recording into `sink`, its catalog (if it had one) found by `catalogPath`.
    public func run(sink: any OutputSink) throws(Diagnostic) -> Replay.Result {
        let recording = file
        return try run(sink: sink) { (p) throws(Diagnostic) in
            try CatalogLoader.load(path: Self.catalogPath(p, recording: recording)).catalog
        }
    }
}
