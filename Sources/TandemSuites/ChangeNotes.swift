/// What a change list left out, as notes for the log (`tandem test -`): each deleted suite
/// file by name, a golden file with no scenario by name, other files as one count.
public enum ChangeNotes {
    public static func lines(_ ignored: [IgnoredChange]) -> [String] {
        var out: [String] = []
        for i in ignored {
            switch i.reason {
            case .deleted: out.append("\(i.path): deleted, nothing of it to run")
            case .strayGolden: out.append("\(i.path): no scenario beside it that this golden file belongs to")
            case .notSuiteFile: break
            }
        }
        let others = ignored.filter { $0.reason == .notSuiteFile }.count
        if others > 0 {
            out.append("\(others) changed path\(others == 1 ? " is" : "s are") not a catalog, scenario, golden file or suite.json; left out")
        }
        return out
    }
}
