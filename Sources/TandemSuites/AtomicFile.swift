import Foundation

/// Writes a file whole or not at all: into a temporary file beside it, renamed over the target
/// at the end. A run that fails or is stopped leaves no half-written report or golden that
/// looks complete.
public enum AtomicFile {
    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): cannot write the file (\(reason))" }
    }

    public static func write(_ bytes: some Sequence<UInt8>, to path: String) throws(Failure) {
        let data = Data(bytes)
        let folder = SuitePath.folder(of: path)
        let temporary = SuitePath.join(folder, ".\(SuitePath.file(of: path)).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        guard FileManager.default.createFile(atPath: temporary, contents: data) else {
            throw Failure(path: path, reason: String(cString: strerror(errno)))
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(path: path, reason: reason)
        }
    }

    public static func write(_ text: String, to path: String) throws(Failure) {
        try write(Array(text.utf8), to: path)
    }
}
