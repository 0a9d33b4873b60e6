import Foundation

/// The checkout the tests run from: the nearest folder above this source file that holds
/// `Package.swift`. Found from `#filePath`, never from the current directory, so a test runs
/// the same from anywhere.
public enum PackageRoot {
    public static let url: URL = {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { return dir }
            dir = dir.deletingLastPathComponent()
        }
        preconditionFailure("no Package.swift in any folder above \(#filePath)")
    }()

    public static var path: String { url.path }

    /// The absolute path of `relative` (`Examples/grocery`); an absolute path stays as it is.
    public static func path(_ relative: String) -> String {
        relative.hasPrefix("/") ? relative : url.appendingPathComponent(relative).path
    }

    public static func url(_ relative: String) -> URL { URL(fileURLWithPath: path(relative)) }
}
