// One `import TandemClient` brings every type an app or a controller names: the element values
// (TandemModel), the user's commands and the actions Tandem sends (TandemNavigator), and the
// protocol's replies (TandemProtocol). Only these types, not the modules: an app does not see
// the navigator's reading-order engine.
@_exported import struct TandemModel.Frame
@_exported import struct TandemModel.Traits
@_exported import struct TandemModel.Progress
@_exported import enum TandemModel.AnnouncementPriority
@_exported import struct TandemModel.TreeUpdate
@_exported import enum TandemNavigator.Command
@_exported import struct TandemNavigator.AppAction
@_exported import enum TandemProtocol.Channel
@_exported import enum TandemProtocol.ServerMessage
@_exported import enum TandemProtocol.ProtocolFeature
@_exported import struct TandemProtocol.StatusReport
