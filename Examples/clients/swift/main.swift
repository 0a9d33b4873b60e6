import Foundation
import TandemClient

// tandem-example-grocery [--socket PATH]: the Groceries app (Groceries.swift) connected to
// `tandem serve`; every message in and out is printed, so you can watch the protocol.
// Exit status: 0 when interrupted, 1 when Tandem ends the connection, 69 when none answers.

/// A line on standard output, written at once (a pipe's reader sees it as it happens).
func show(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

var socketPath: String?
var arguments = CommandLine.arguments.dropFirst()
while let a = arguments.popFirst() {
    switch a {
    case "--socket":
        guard let path = arguments.popFirst() else { FileHandle.standardError.write(Data("--socket needs a path\n".utf8)); exit(64) }
        socketPath = path
    case "-h", "--help":
        print("USAGE: tandem-example-grocery [--socket <path>]   (default: $XDG_RUNTIME_DIR/tandem/control.sock)")
        exit(0)
    default:
        FileHandle.standardError.write(Data("unknown argument \(a); see --help\n".utf8))
        exit(64)
    }
}

let status: Int32
do throws(TandemClientError) {
    let app = try TandemApp(name: "Groceries", language: "en", socketPath: socketPath)
    show("connected as \(app.client); Ctrl-C to quit")
    try Groceries(app: app, log: show).run()
    status = 0
} catch {
    FileHandle.standardError.write(Data("tandem-example-grocery: \(error)\n".utf8))
    if case .unavailable = error { status = 69 } else { status = 1 }
}
exit(status)
