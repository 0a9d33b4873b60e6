import Foundation
import TandemATSPI
import TandemClient

/// `tandem atspi [--app NAME | --pid PID] [--snapshot] [--socket PATH] [--language TAG] [--chrome]`:
/// a running Linux application's AT-SPI tree, as a catalog (`--snapshot`) or mirrored live into
/// `tandem serve` (Docs/atspi.md).
enum AtspiCommand {
    static func run(_ args: Arguments) throws(CLIError) -> Int32 {
        guard args.positional.isEmpty else { throw .usage("tandem atspi takes no arguments (got \(args.positional[0]))") }
        let query: AppQuery
        switch (args.options["--app"], args.options["--pid"]) {
        case (let name?, nil):
            guard !name.isEmpty else { throw .usage("--app needs an application's name") }
            query = .name(name)
        case (nil, let pid?):
            guard let p = Int32(pid), p > 0 else { throw .usage("--pid needs a process id (a positive number), got \"\(pid)\"") }
            query = .pid(p)
        case (nil, nil): throw .usage("say which application: --app NAME or --pid PID")
        case (_?, _?): throw .usage("--app and --pid cannot be used together")
        }
        if args.flags.contains("--snapshot"), args.options["--socket"] != nil {
            throw .usage("--snapshot writes a catalog and connects to no service: leave out --socket")
        }
        let desktop: AtspiDesktop
        do {
            desktop = try AtspiDesktop(chrome: args.flags.contains("--chrome"), log: { printErr($0) })
        } catch {
            throw .unavailable(error.description)
        }
        if args.flags.contains("--snapshot") {
            do {
                let text = try desktop.snapshot(of: query, language: args.options["--language"])
                FileHandle.standardOutput.write(Data(text.utf8))
                return 0
            } catch {
                throw .unavailable(error.description)
            }
        }
        return try AtspiLive.run(desktop: desktop, query: query, socket: args.options["--socket"], language: args.options["--language"])
    }
}
