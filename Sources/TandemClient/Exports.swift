// One `import TandemClient` brings every type an app or a controller names: the element values
// (TandemModel), the user's commands and the actions Tandem sends (TandemVocabulary), and the
// protocol's replies (TandemProtocol). Only these types, not the modules; the client does not
// import the navigator at all.
@_exported import struct TandemModel.Frame
@_exported import struct TandemModel.Traits
@_exported import struct TandemModel.Progress
@_exported import enum TandemModel.AnnouncementPriority
@_exported import struct TandemModel.TreeUpdate
@_exported import enum TandemVocabulary.Command
@_exported import struct TandemVocabulary.AppAction
@_exported import enum TandemVocabulary.InputMethod
@_exported import enum TandemProtocol.Channel
@_exported import enum TandemProtocol.ServerMessage
@_exported import enum TandemProtocol.ProtocolFeature
@_exported import struct TandemProtocol.StatusReport
import TandemVocabulary
