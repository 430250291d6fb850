import Foundation
import TestSupport
import Testing

/// What one run of the `navdb` binary produced.
struct CommandResult: CustomStringConvertible, Sendable {
    var status: Int32
    var stdout: String
    var stderr: String

    /// stdout as lines (without the trailing empty line).
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    /// stdout decoded as one JSON value.
    func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
    }

    /// stdout decoded as one JSON object.
    func object() throws -> [String: Any] {
        try #require(try json() as? [String: Any], "stdout is not a JSON object: \(stdout)")
    }

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// A fresh temporary directory per test, holding the database, in which `navdb` runs as a
/// separate process (like swift-argument-parser's `AssertExecuteCommand`): the working directory
/// is the sandbox, `NAVDB_PATH` and `NO_COLOR` are cleared, stdout and stderr are captured.
final class Sandbox: Sendable {
    private let temporary: TemporaryDirectory
    /// For a PostgreSQL sandbox, the URI of its fresh schema, given to every run as `NAVDB_PATH`.
    let databaseURI: String?

    /// The sandbox directory, removed with the sandbox.
    var directory: URL { temporary.url }

    /// The default database (`./navdb.sqlite` in the sandbox).
    var database: URL { directory.appendingPathComponent("navdb.sqlite") }

    /// A sandbox whose database is `./navdb.sqlite`, or with `backend` `.postgresql` a fresh
    /// schema of the test server (`NAVDB_PATH` set for every run).
    init(backend: CommandBackend = .sqlite) throws {
        temporary = try TemporaryDirectory(prefix: "navdb-cli")
        databaseURI = backend == .postgresql ? try CommandBackend.freshSchemaURI() : nil
    }

    /// Writes `text` to a file in the sandbox and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Runs `navdb` with `arguments`, optional stdin and extra environment.
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        let process = Process()
        process.executableURL = try Navdb.binary()
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["NAVDB_PATH"] = databaseURI
        env["NO_COLOR"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env

        let id = UUID().uuidString
        let outURL = directory.appendingPathComponent(".stdout-\(id)")
        let errURL = directory.appendingPathComponent(".stderr-\(id)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        if let stdin {
            let inURL = directory.appendingPathComponent(".stdin-\(id)")
            try Data(stdin.utf8).write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        return CommandResult(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Runs `navdb` and expects exit 0.
    @discardableResult
    func ok(_ arguments: [String], stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> CommandResult
    {
        let result = try run(arguments, stdin: stdin)
        #expect(
            result.status == 0, "navdb \(arguments.joined(separator: " ")): \(result)", sourceLocation: sourceLocation)
        return result
    }

    /// What `--db` names for this sandbox's database: the PostgreSQL schema's URI, else the file.
    var databaseArgument: String { databaseURI ?? database.path }

    /// The database's content, to compare before and after a command: for SQLite the bytes of the
    /// file and its WAL (the `-shm` index is shared memory, not data); for PostgreSQL every row of
    /// every table of the schema, as text, in order, by table.
    func databaseBytes() throws -> [String: Data] {
        if let databaseURI { return try CommandBackend.rows(of: databaseURI) }
        var files: [String: Data] = [:]
        for suffix in ["", "-wal", "-journal"] {
            let url = URL(fileURLWithPath: database.path + suffix)
            if FileManager.default.fileExists(atPath: url.path) { files[suffix] = try Data(contentsOf: url) }
        }
        return files
    }
}

/// Locating the built `navdb` executable.
enum Navdb {
    /// The binary: `$NAVDB_BINARY`, else `navdb` next to the test bundle (the products directory
    /// `swift test` built), else `.build/debug/navdb` under the package root.
    static func binary() throws -> URL {
        let fileManager = FileManager.default
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["NAVDB_BINARY"] {
            candidates.append(URL(fileURLWithPath: override))
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent("navdb"))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/navdb"))
        if let found = candidates.first(where: { fileManager.isExecutableFile(atPath: $0.path) }) { return found }
        throw BinaryNotFound(candidates: candidates.map(\.path))
    }

    /// The package root: the directory above `Tests/` for this file.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct BinaryNotFound: Error, CustomStringConvertible {
        var candidates: [String]
        var description: String {
            "the navdb binary was not found (build it with 'swift build'); looked at: \(candidates.joined(separator: ", "))"
        }
    }
}
