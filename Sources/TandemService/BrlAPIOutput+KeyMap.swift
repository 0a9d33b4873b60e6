import TandemSession
import TandemOutputs

extension BrlAPIOutput {
    /// A braille output that takes exactly the display keys `keyMap` binds (by default
    /// `KeyMap.default`'s BRLTTY commands) and what the display's braille keyboard types
    /// (`KeyMap.typingCommands`); every other key stays BRLTTY's own.
    public convenience init(host: String?, auth: String?, keyMap: KeyMap = .default, settings: Settings = Settings()) {
        self.init(host: host, auth: auth, acceptedCommands: Set(keyMap.braille.keys).union(KeyMap.typingCommands), settings: settings)
    }

    /// The same, connecting where `BrlAPIEndpoint.resolve` says.
    public convenience init(endpoint: BrlAPIEndpoint, keyMap: KeyMap = .default, settings: Settings = Settings()) {
        self.init(endpoint: endpoint, acceptedCommands: Set(keyMap.braille.keys).union(KeyMap.typingCommands), settings: settings)
    }
}
