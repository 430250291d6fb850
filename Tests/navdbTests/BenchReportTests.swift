import Foundation
import Testing

/// The benchmark's report and BENCHMARKS.md name files relative to the package,
/// never by the absolute path of the machine they ran on.
@Suite struct BenchReportTests {
    /// Absolute paths of the kinds a machine's report would carry.
    static func hasAbsolutePath(_ text: some StringProtocol) -> Bool {
        String(text).firstMatch(of: /(^|[\s(="'])\/(work|home|root|tmp|Users|var|private|opt)\//) != nil
    }

    @Test("BENCHMARKS.md carries no absolute machine path")
    func benchmarksFile() throws {
        let text = try String(contentsOf: Navdb.packageRoot.appendingPathComponent("BENCHMARKS.md"), encoding: .utf8)
        let lines = text.split(separator: "\n").filter { Self.hasAbsolutePath($0) }
        #expect(lines.isEmpty, "\(lines)")
    }

    @Test("navdb-bench names the navdb it timed relative to the package")
    func benchNote() throws {
        let bench = try Navdb.binary().deletingLastPathComponent().appendingPathComponent("navdb-bench")
        try #require(FileManager.default.isExecutableFile(atPath: bench.path), "no navdb-bench beside navdb")
        let sandbox = try Sandbox()
        let process = Process()
        process.executableURL = bench
        process.arguments = ["--only", "3", "--small", "--json"]
        process.currentDirectoryURL = sandbox.directory
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let figures = try #require(report["figures"] as? [[String: Any]])
        let notes = figures.compactMap { $0["note"] as? String }
        #expect(notes.contains { $0.contains("navdb at .build/") }, "\(notes)")
        for note in notes { #expect(!Self.hasAbsolutePath(note), "\(note)") }
    }
}
