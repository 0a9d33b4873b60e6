import Foundation

/// Paths as a suite run shows and hashes them: relative to the current folder when inside it,
/// without `./`, doubled or trailing slashes — so the same command run from a checkout's root
/// names every case the same on every machine, whatever the checkout's absolute path.
public enum SuitePath {
    public static func display(_ path: String, currentFolder: String = FileManager.default.currentDirectoryPath) -> String {
        var parts: [Substring] = []
        for p in path.split(separator: "/", omittingEmptySubsequences: true) where p != "." {
            if p == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(p) }
        }
        let absolute = path.hasPrefix("/")
        var out = (absolute ? "/" : "") + parts.joined(separator: "/")
        if absolute {
            let base = currentFolder.hasSuffix("/") ? currentFolder : currentFolder + "/"
            if out.hasPrefix(base) { out = String(out.dropFirst(base.count)) } else if out + "/" == base { out = "." }
        }
        return out.isEmpty ? "." : out
    }

    /// `folder/name`, without doubling the slash or writing `./`.
    public static func join(_ folder: String, _ name: String) -> String {
        if folder == "." || folder.isEmpty { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The folder part (`.` for a bare name).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let f = String(path[..<slash])
        return f.isEmpty ? "/" : f
    }

    /// The last component.
    public static func file(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
