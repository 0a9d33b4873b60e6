/// BrlAPI's wire format (protocol 8, BRLTTY 6.5), as much as `FakeBrlAPIPeer` speaks: every
/// packet is a header of two big-endian 32-bit words — the payload's size, then the packet's
/// type — and the payload. Types are ASCII letters (`v` version, `a` auth, `s` display size,
/// `t` enter TTY mode, `w` write, `k` key, `A` ack, `e` error, `E` exception), parameters
/// two letters (`PR` request, `PV` value, `PU` update).
enum FakeBrlAPIPacket {
    static let protocolVersion: UInt32 = 8

    static let version = letter("v")
    static let auth = letter("a")
    static let getDriverName = letter("n")
    static let getDisplaySize = letter("s")
    static let enterTtyMode = letter("t")
    static let leaveTtyMode = letter("L")
    static let key = letter("k")
    static let ignoreKeyRanges = letter("m")
    static let acceptKeyRanges = letter("u")
    static let write = letter("w")
    static let ack = letter("A")
    static let error = letter("e")
    static let exception = letter("E")
    static let synchronize = letter("Z")
    static let paramValue = letter("P") << 8 | letter("V")
    static let paramRequest = letter("P") << 8 | letter("R")
    static let paramUpdate = letter("P") << 8 | letter("U")

    /// The authentication method "none" in the server's auth packet.
    static let authNone = letter("N")

    static let displaySizeParameter: UInt32 = 6
    static let paramGlobal: UInt32 = 0x01
    static let paramGet: UInt32 = 0x100
    static let paramSubscribe: UInt32 = 0x200
    static let paramUnsubscribe: UInt32 = 0x400

    /// BrlAPI's error codes (`brlapi_error.h`).
    enum Error {
        static let ttyBusy: UInt32 = 2
        static let unknownInstruction: UInt32 = 4
        static let invalidParameter: UInt32 = 6
        static let invalidPacket: UInt32 = 7
    }

    /// Write flags: which fields follow, in this order.
    private static let writeDisplayNumber: UInt32 = 0x01
    private static let writeRegion: UInt32 = 0x02
    private static let writeText: UInt32 = 0x04
    private static let writeAnd: UInt32 = 0x08
    private static let writeOr: UInt32 = 0x10
    private static let writeCursor: UInt32 = 0x20
    private static let writeCharset: UInt32 = 0x40

    static func letter(_ c: Unicode.Scalar) -> UInt32 { UInt32(c.value) }

    static func name(_ type: UInt32) -> String {
        let names: [UInt32: String] = [
            version: "version", auth: "auth", getDriverName: "getDriverName", getDisplaySize: "getDisplaySize",
            enterTtyMode: "enterTtyMode", leaveTtyMode: "leaveTtyMode", key: "key", ignoreKeyRanges: "ignoreKeys",
            acceptKeyRanges: "acceptKeys", write: "write", ack: "ack", error: "error", exception: "exception",
            synchronize: "synchronize", paramValue: "paramValue", paramRequest: "paramRequest", paramUpdate: "paramUpdate",
        ]
        return names[type] ?? "type \(type)"
    }

    static func uint32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    static func readUInt32(_ bytes: ArraySlice<UInt8>) -> UInt32? {
        guard bytes.count >= 4 else { return nil }
        let b = Array(bytes.prefix(4))
        return UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
    }

    /// A whole packet: header and payload.
    static func make(_ type: UInt32, _ payload: [UInt8]) -> [UInt8] {
        uint32(UInt32(payload.count)) + uint32(type) + payload
    }

    /// The first whole packet at the start of `buffer`: its type, payload and length; nil
    /// until all of it has arrived.
    static func parse(_ buffer: [UInt8]) -> (type: UInt32, payload: [UInt8], length: Int)? {
        guard let size = readUInt32(buffer[...]), let type = readUInt32(buffer.dropFirst(4)) else { return nil }
        let length = 8 + Int(size)
        guard buffer.count >= length else { return nil }
        return (type, Array(buffer[8..<length]), length)
    }

    /// A key: the 64-bit code as two big-endian words.
    static func key(_ code: UInt64) -> [UInt8] {
        make(key, uint32(UInt32(code >> 32)) + uint32(UInt32(code & 0xFFFF_FFFF)))
    }

    /// The display-size parameter's value, in answer to a request with `paramGet`.
    static func sizeValue(columns: Int, flags: UInt32) -> [UInt8] {
        make(paramValue, parameter(columns: columns, flags: flags))
    }

    /// A change of the display's size, to a connection that watches it (globally).
    static func sizeUpdate(columns: Int) -> [UInt8] {
        make(paramUpdate, parameter(columns: columns, flags: paramGlobal))
    }

    private static func parameter(columns: Int, flags: UInt32) -> [UInt8] {
        uint32(flags) + uint32(displaySizeParameter) + uint32(0) + uint32(0) + uint32(UInt32(columns)) + uint32(1)
    }

    /// An exception: BRLTTY found fault with a packet of `type` and will close the connection.
    static func exception(code: UInt32, type: UInt32) -> [UInt8] {
        make(exception, uint32(code) + uint32(type))
    }

    /// A parameter request's flags and parameter.
    static func decodeParamRequest(_ payload: [UInt8]) -> (flags: UInt32, parameter: UInt32)? {
        guard payload.count == 16, let flags = readUInt32(payload[...]), let parameter = readUInt32(payload.dropFirst(4)) else { return nil }
        return (flags, parameter)
    }

    /// A write's OR mask (the dots), cursor and text; nil when the packet does not parse.
    static func decodeWrite(_ payload: [UInt8]) -> (cells: [UInt8], cursor: Int?, text: String)? {
        guard let flags = readUInt32(payload[...]) else { return nil }
        var at = 4
        func word() -> UInt32? {
            defer { at += 4 }
            return readUInt32(payload.dropFirst(at))
        }
        func bytes(_ n: Int) -> [UInt8]? {
            guard n >= 0, at + n <= payload.count else { return nil }
            defer { at += n }
            return Array(payload[at..<at + n])
        }
        var size = 0
        var cells: [UInt8] = []
        var cursor: Int?
        var text = ""
        if flags & writeDisplayNumber != 0 { guard word() != nil else { return nil } }
        if flags & writeRegion != 0 {
            guard word() != nil, let s = word() else { return nil }
            size = Int(Int32(bitPattern: s).magnitude)
        }
        if flags & writeText != 0 {
            guard let n = word(), let t = bytes(Int(n)) else { return nil }
            text = String(decoding: t, as: UTF8.self)
        }
        if flags & writeAnd != 0 { guard bytes(size) != nil else { return nil } }
        if flags & writeOr != 0 {
            guard let or = bytes(size) else { return nil }
            cells = or
        }
        if flags & writeCursor != 0 {
            guard let c = word() else { return nil }
            cursor = Int(c)
        }
        if flags & writeCharset != 0 {
            guard let n = bytes(1), bytes(Int(n[0])) != nil else { return nil }
        }
        return (cells, cursor, text)
    }
}
