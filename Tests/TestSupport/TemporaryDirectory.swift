import Foundation

/// A fresh, empty directory under the system's temporary folder, removed with everything in it
/// when the value is released: the one temporary-directory helper of every test target.
///
/// Each test makes its own, so no two tests share a database or any other file. Keep the value
/// alive for as long as paths inside it are in use (hold it in a `let` the test reads at its end,
/// or use ``withTemporaryDirectory(prefix:_:)``).
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates an empty directory named `prefix-<UUID>` under the temporary folder.
    /// - Parameter prefix: the start of the directory's name, to tell test runs apart on disk.
    /// - Throws: the file system's error when the directory cannot be created.
    public init(prefix: String = "navstore-tests") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The directory's path.
    public var path: String { url.path }

    /// The path of `name` inside the directory (the file need not exist).
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The URL of `name` inside the directory (the file need not exist).
    public func url(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Creates the subdirectory `name` (and any missing parents) and returns its path.
    /// - Throws: the file system's error.
    @discardableResult
    public func subdirectory(_ name: String) throws -> String {
        let path = path(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The names of the files in the directory, sorted.
    /// - Throws: the file system's error.
    public func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    /// The bytes of every file in the directory, by name: a snapshot to prove nothing changed.
    /// - Throws: the file system's error.
    public func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try fileNames() {
            files[name] = try Data(contentsOf: url.appendingPathComponent(name))
        }
        return files
    }
}

/// Runs `body` with a fresh ``TemporaryDirectory`` that lives until `body` returns.
/// - Parameters:
///   - prefix: the start of the directory's name.
///   - body: the work; its result is returned.
/// - Throws: what creating the directory or `body` throws.
public func withTemporaryDirectory<R>(
    prefix: String = "navstore-tests", _ body: (TemporaryDirectory) throws -> R
) throws -> R {
    let directory = try TemporaryDirectory(prefix: prefix)
    return try withExtendedLifetime(directory) { try body(directory) }
}
