import Foundation
import TandemModel

/// A file argument's contents; `-` is standard input, called `<stdin>` in messages.
enum InputFile {
    static let standardInputName = "<stdin>"

    /// The name messages use for the argument.
    static func name(_ path: String) -> String { path == "-" ? standardInputName : path }

    static func bytes(_ path: String) throws(CLIError) -> [UInt8] {
        if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        guard exists, !isFolder.boolValue, let data = FileManager.default.contents(atPath: path) else {
            let why = !exists ? "no such file" : isFolder.boolValue ? "is a folder, not a file" : "cannot read the file"
            throw .input(Diagnostic(file: path, line: nil, path: "", message: why))
        }
        return Array(data)
    }

    /// The contents as UTF-8 text.
    static func text(_ path: String) throws(CLIError) -> String {
        let data = try bytes(path)
        guard let text = String(validating: data, as: UTF8.self) else {
            throw .input(Diagnostic(file: name(path), line: nil, path: "", message: "not valid UTF-8"))
        }
        return text
    }

    /// A catalog, decoded and validated, with where its elements are written; its warnings printed.
    static func catalog(_ path: String) throws(CLIError) -> (catalog: Catalog, lines: CatalogLines) {
        var decoder = CatalogDecoder(file: name(path))
        let data = try bytes(path)
        let catalog: Catalog
        do { catalog = try decoder.decode(data) } catch { throw .input(error) }
        for w in decoder.diagnostics.warnings { printErr("tandem: warning: \(w)") }
        return (catalog, decoder.lines)
    }
}
