import Foundation
import TandemATSPI
import TandemClient

/// `tandem atspi` without `--snapshot`: the live bridge, until the app quits (0) or the
/// service goes away (69).
enum AtspiLive {
    static func run(desktop: AtspiDesktop, query: AppQuery, socket: String?, language: String?) throws(CLIError) -> Int32 {
        let language = language ?? "en"
        let bridge = AtspiBridge(desktop: desktop, query: query, language: language, log: { printErr($0) })
        let end = bridge.run { name throws(TandemClientError) in
            try TandemApp(name: name, language: language, socketPath: socket)
        }
        switch end {
        case .appQuit(let sentence):
            printErr("tandem atspi: \(sentence)")
            return 0
        case .unavailable(let sentence):
            throw .unavailable(sentence)
        }
    }
}
