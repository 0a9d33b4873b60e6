import CBrlAPI
import Foundation

/// One open BrlAPI connection in TTY mode, command mode (driver NULL: keys arrive as BRLTTY
/// commands), accepting only the keys Tandem binds. Everything else stays BRLTTY's.
///
/// Not thread-safe: one thread at a time uses it. The braille worker's thread owns it, and
/// lends it to a `BrlAPIDeadlineCall`'s thread for a call that waits for BRLTTY (which opens
/// it, too); a call given up keeps it and closes it. BrlAPI calls back into it on the thread
/// making the BrlAPI call (its exception handler and the display-size watch run inside BrlAPI
/// calls made here).
final class BrlAPIConnection: @unchecked Sendable {  // libbrlapi's handle (raw memory): used by one thread at a time, the worker or the one deadline call it hands it to
    /// Why a connection could not be opened or was lost, for people.
    struct Failure: Error, Sendable, Hashable {
        var message: String
    }

    private let memory: UnsafeMutableRawPointer
    private let handle: OpaquePointer
    private let accepted: [(code: UInt64, match: BrailleKeyCodes.Match)]
    private var sizeWatch: brlapi_paramCallbackDescriptor_t?
    /// Cells per line, as BrlAPI reported when TTY mode was entered (0: BRLTTY has no display).
    private(set) var columns: Int = 0
    /// The size BRLTTY announced since, when it differs from `columns` (the display went away,
    /// came back, or another one was plugged in).
    fileprivate(set) var announcedColumns: Int?
    /// What BrlAPI's exception handler reported (the connection is closed by then).
    fileprivate(set) var exception: String?

    /// The socket, for `poll`: readable when keys, size changes or errors arrive.
    var fileDescriptor: Int32 { brlapi__getFileDescriptor(handle) }

    private init(memory: UnsafeMutableRawPointer, accepted: [(code: UInt64, match: BrailleKeyCodes.Match)]) {
        self.memory = memory
        self.handle = OpaquePointer(memory)
        self.accepted = accepted
    }

    /// Connects, installs an exception handler that never aborts, watches the display size,
    /// enters TTY mode and accepts the given keys (all others pass back to BRLTTY).
    static func open(_ endpoint: BrlAPIEndpoint,
                     accepting accepted: [(code: UInt64, match: BrailleKeyCodes.Match)]) -> Result<BrlAPIConnection, Failure> {
        guard let memory = malloc(brlapi_getHandleSize()) else { return .failure(Failure(message: "out of memory")) }
        let host = endpoint.host.map { strdup($0) } ?? nil
        let auth = endpoint.auth.map { strdup($0) } ?? nil
        defer { free(host); free(auth) }
        var settings = brlapi_connectionSettings_t(auth: auth, host: host)
        let fd = brlapi__openConnection(OpaquePointer(memory), &settings, nil)
        guard fd >= 0 else {
            let reason = lastError()
            // A failed wait for the auth packet returns without closing the socket.
            brlapi__closeConnection(OpaquePointer(memory))
            free(memory)
            return .failure(Failure(message: "cannot connect to \(endpoint.description): \(reason)"))
        }
        let c = BrlAPIConnection(memory: memory, accepted: accepted)
        // openConnection resets the handler and the client data: install ours after it.
        brlapi__setClientData(c.handle, Unmanaged.passUnretained(c).toOpaque())
        _ = brlapi__setExceptionHandler(c.handle) { handle, error, type, packet, size in
            BrlAPIConnection.exceptionRaised(handle, error, type, packet, size)
        }
        c.sizeWatch = brlapi__watchParameter(c.handle, BRLAPI_PARAM_DISPLAY_SIZE, 0, brlapi_param_flags_t(BRLAPI_PARAMF_GLOBAL),
                                             { _, _, _, priv, data, length in
                                                 BrlAPIConnection.sizeAnnounced(priv, data, length)
                                             }, Unmanaged.passUnretained(c).toOpaque(), nil, 0)
        if let failure = c.enterTtyMode() {
            c.close()
            return .failure(Failure(message: "\(endpoint.description) refused the display: \(failure.message)"))
        }
        return .success(c)
    }

    /// Takes the display (the root of BRLTTY's tty tree, so no VT is needed), learns its size
    /// and says which keys Tandem wants.
    private func enterTtyMode() -> Failure? {
        // A size announced from here on (while these calls wait for their answers) is kept,
        // and handled once TTY mode is entered: another display plugged in meanwhile.
        announcedColumns = nil
        var x: UInt32 = 0, y: UInt32 = 0
        guard brlapi__getDisplaySize(handle, &x, &y) >= 0 else { return Failure(message: Self.lastError()) }
        guard brlapi__enterTtyModeWithPath(handle, nil, 0, nil) >= 0 else { return Failure(message: Self.lastError()) }
        columns = Int(x)
        if announcedColumns == columns { announcedColumns = nil }
        // brlapi__ignoreAllKeys is a macro (no such symbol in the library): spell it out.
        guard brlapi__ignoreKeys(handle, brlapi_rangeType_all, nil, 0) >= 0 else { return Failure(message: Self.lastError()) }
        for (match, type) in [(BrailleKeyCodes.Match.key, brlapi_rangeType_key), (.block, brlapi_rangeType_command)] {
            let codes = accepted.filter { $0.match == match }.map { brlapi_keyCode_t($0.code) }
            guard !codes.isEmpty else { continue }
            guard brlapi__acceptKeys(handle, type, codes, UInt32(codes.count)) >= 0 else { return Failure(message: Self.lastError()) }
        }
        if accepted.contains(where: { $0.match == .characters }) {
            var ranges = BrailleKeyCodes.characterRanges.map { brlapi_range_t(first: $0.first, last: $0.last) }
            guard brlapi__acceptKeyRanges(handle, &ranges, UInt32(ranges.count)) >= 0 else { return Failure(message: Self.lastError()) }
        }
        return nil
    }

    /// Leaves and re-enters TTY mode, after BRLTTY announced another display size: BrlAPI
    /// keeps the size it learnt on entering and checks writes against it.
    func reenterTtyMode() -> Failure? {
        _ = brlapi__leaveTtyMode(handle)
        return enterTtyMode()
    }

    /// The size BRLTTY announced since the last call, if it changed. A display that went
    /// away (0) is taken as the size at once; for a new display, call `reenterTtyMode`.
    func takeAnnouncedColumns() -> Int? {
        guard let announced = announcedColumns else { return nil }
        announcedColumns = nil
        if announced == 0 { columns = 0 }
        return announced
    }

    /// Reads every key that has arrived, without waiting. A failure means the connection is
    /// gone (BRLTTY died or closed it after an exception).
    ///
    /// The socket is non-blocking meanwhile: libbrlapi reads the rest of a packet with a
    /// blocking `read`, so half a packet (the rest still on its way, or never coming) would
    /// hold the thread. Non-blocking, libbrlapi keeps the half it has and reads the rest next
    /// time. Everything else stays blocking, as libbrlapi expects: its write loop cannot go
    /// on after EAGAIN.
    func readKeys(_ each: (UInt64) -> Void) -> Failure? {
        let fd = fileDescriptor
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        defer { if fileDescriptor == fd { _ = fcntl(fd, F_SETFL, flags) } }
        var code: brlapi_keyCode_t = 0
        while true {
            switch brlapi__readKeyWithTimeout(handle, 0, &code) {
            case 1: each(code)
            case 0: return nil
            default:
                let error = brlapi_error_location().pointee
                if error.brlerrno == BRLAPI_ERROR_LIBCERR, error.libcerrno == EINTR { return nil }
                return Failure(message: exception ?? Self.lastError())
            }
        }
    }

    /// The socket has room for a write (POLLOUT: at least a third of its buffer free, with the
    /// default buffers more than a BrlAPI packet's 4 KB at most), so the write does not block.
    /// No room: BRLTTY is not reading.
    var hasRoom: Bool {
        var p = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
        return poll(&p, 1, 0) > 0 && p.revents & Int16(POLLOUT) != 0
    }

    /// Writes exactly `columns` cells as dots (UTF-8 Unicode braille text, every dot cleared by
    /// the AND mask and set by the OR mask), with the cursor.
    func write(_ window: BrailleWindowWrite) -> Failure? {
        let count = window.cells.count
        guard count > 0 else { return nil }
        let andMask = [UInt8](repeating: 0, count: count)
        let orMask = window.cells
        let result = window.text.withCString { text in
            "UTF-8".withCString { charset in
                andMask.withUnsafeBufferPointer { and in
                    orMask.withUnsafeBufferPointer { or in
                        var arguments = brlapi_writeArguments_t()
                        arguments.displayNumber = BRLAPI_DISPLAY_DEFAULT
                        arguments.regionBegin = 1
                        arguments.regionSize = Int32(count)
                        arguments.text = text
                        arguments.textSize = -1
                        arguments.andMask = and.baseAddress
                        arguments.orMask = or.baseAddress
                        arguments.cursor = window.cursor
                        arguments.charset = charset
                        return brlapi__write(handle, &arguments)
                    }
                }
            }
        }
        return result >= 0 ? nil : Failure(message: exception ?? Self.lastError())
    }

    /// Gives the display back to BRLTTY and frees the handle. `alive`: the server still
    /// answers, so the size watch is removed politely first.
    func close(alive: Bool = false) {
        if alive, let watch = sizeWatch { _ = brlapi__unwatchParameter(handle, watch) }
        sizeWatch = nil
        brlapi__setClientData(handle, nil)
        brlapi__closeConnection(handle)
        free(memory)
    }

    // MARK: BrlAPI callbacks (on the writer's thread, inside a BrlAPI call)

    private static func exceptionRaised(_ handle: OpaquePointer?, _ error: Int32, _ type: brlapi_packetType_t,
                                        _ packet: UnsafeRawPointer?, _ size: Int) {
        guard let handle, let data = brlapi__getClientData(handle) else { return }
        var buffer = [CChar](repeating: 0, count: 256)
        _ = brlapi__strexception(handle, &buffer, buffer.count, error, type, packet, size)
        let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        Unmanaged<BrlAPIConnection>.fromOpaque(data).takeUnretainedValue().exception = "BrlAPI exception: \(text)"
    }

    private static func sizeAnnounced(_ priv: UnsafeMutableRawPointer?, _ data: UnsafeRawPointer?, _ length: Int) {
        guard let priv, let data, length >= 4 else { return }
        var columns = data.loadUnaligned(as: UInt32.self)
        // BrlAPI 0.8.4 calls back twice per change, once with the values in network byte
        // order; no display has 65536 cells, so a huge value is a swapped one.
        if columns > 0xFFFF { columns = columns.byteSwapped }
        Unmanaged<BrlAPIConnection>.fromOpaque(priv).takeUnretainedValue().announce(Int(columns))
    }

    private func announce(_ newColumns: Int) {
        announcedColumns = newColumns == columns ? nil : newColumns
    }

    static func lastError() -> String {
        String(cString: brlapi_strerror(brlapi_error_location()))
    }
}
