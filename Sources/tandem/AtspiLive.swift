import TandemATSPI
import TandemClient

/// `tandem atspi` without `--snapshot`: the live bridge.
enum AtspiLive {
    static func run(desktop: AtspiDesktop, query: AppQuery, socket: String?, language: String?) throws(CLIError) -> Int32 {
        throw .unavailable("not yet")
    }
}
