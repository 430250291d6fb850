import Foundation

@testable import NavStore

/// A fresh, empty directory for one test, removed when `body` returns.
///
/// A closure rather than an object with a `deinit`, so the directory cannot disappear while the
/// test still uses a path inside it.
func withSQLiteTestDirectory<R>(_ body: (SQLiteTestDirectory) throws -> R) throws -> R {
    let directory = try SQLiteTestDirectory()
    defer { try? FileManager.default.removeItem(at: directory.url) }
    return try body(directory)
}

/// A temporary directory made by ``withSQLiteTestDirectory(_:)``.
struct SQLiteTestDirectory {
    let url: URL

    fileprivate init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("navstore-sqlite-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    /// The path of `name` inside the directory.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// The names of the files in the directory, sorted.
    func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    /// The bytes of every file in the directory, by name: a snapshot to prove nothing changed.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try fileNames() {
            files[name] = try Data(contentsOf: url.appendingPathComponent(name))
        }
        return files
    }
}

/// The POSIX permission bits of the file at `path` (for example `0o600`).
func sqliteTestPermissions(ofFileAtPath path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

extension Connection {
    /// The first column of the first row of `sql`, with `values` bound: a test shorthand.
    func testScalar(_ sql: String, _ values: [SQLValue] = []) throws -> SQLValue {
        let statement = try prepare(sql)
        statement.bind(values)
        guard try statement.step() else { return .null }
        return statement.value(at: 0)
    }
}
