import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// NavStore as a dependency an app can add (docs/app.md), checked from the outside: the
/// package description as SwiftPM reads it, the library's sources as files, and the privacy
/// manifest as Apple's tools read it. scripts/check-app-dependency.sh builds and runs an app
/// package against the product; these are the quick checks of the same promises.
@Suite struct PackageShapeTests {
    /// The package root: this file is `Tests/NavStoreTests/<name>.swift`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // NavStoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    // MARK: The package description

    /// Why `swift package dump-package` did not give a package description.
    struct DumpFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// `swift package dump-package` of this package, as JSON, run once for the suite (it compiles
    /// the manifest, a few seconds). The manifest is compiled in a scratch folder of its own, so
    /// the build's `.build`, locked by `swift test`, is not touched.
    static let dumped: Result<Data, DumpFailure> = {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-dump-\(UUID())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package",
        ]
        // stderr goes to a file, so that neither output can fill a pipe while the other is read.
        let log = scratch.appendingPathExtension("log")
        defer { try? FileManager.default.removeItem(at: log) }
        let output = Pipe()
        guard FileManager.default.createFile(atPath: log.path, contents: nil),
            let errors = FileHandle(forWritingAtPath: log.path)
        else { return .failure(DumpFailure(description: "cannot create \(log.path)")) }
        defer { try? errors.close() }
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch { return .failure(DumpFailure(description: "cannot run swift: \(error)")) }
        let json = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return .failure(DumpFailure(description: "swift package dump-package failed: \(message)"))
        }
        return .success(json)
    }()

    /// The package description of ``dumped``.
    static func dumpPackage() throws -> [String: Any] {
        let json = try dumped.get()
        return try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    }

    /// The targets by name, and the names of the targets and products each depends on.
    static func dependencies(_ package: [String: Any]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for target in package["targets"] as? [[String: Any]] ?? [] {
            guard let name = target["name"] as? String else { continue }
            let names = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                dependency.values.compactMap { ($0 as? [Any])?.first as? String }.first
            }
            result[name] = names
        }
        return result
    }

    /// `name` and every target it reaches through its dependencies.
    static func reached(from name: String, in dependencies: [String: [String]]) -> Set<String> {
        var seen: Set<String> = []
        var queue = [name]
        while let next = queue.popLast() {
            guard seen.insert(next).inserted else { continue }
            queue += dependencies[next] ?? []
        }
        return seen
    }

    static func target(_ name: String, in package: [String: Any]) throws -> [String: Any] {
        try #require((package["targets"] as? [[String: Any]])?.first { $0["name"] as? String == name })
    }

    @Test(
        "the package description: the model reaches nothing, NavStore reaches the model and CSQLite alone, the tools are outside the NavStore product, NavStorePostgreSQL is a product of its own"
    )
    func productsAndTargets() throws {
        let package = try Self.dumpPackage()
        let dependencies = Self.dependencies(package)
        // The walls (docs/app.md): the model has no dependency at all (no CSQLite, no store).
        #expect(Self.reached(from: "NavStoreModel", in: dependencies) == ["NavStoreModel"])
        #expect(Self.reached(from: "NavStore", in: dependencies) == ["NavStore", "NavStoreModel", "CSQLite"])
        #expect(Set(dependencies["NavStoreTools"] ?? []) == ["NavStore"])
        #expect(Set(dependencies["NavStorePostgreSQL"] ?? []) == ["NavStore", "CLibPQ"])
        for tool in ["navdb", "navdb-bench"] {
            #expect(
                Self.reached(from: tool, in: dependencies).isSuperset(of: [
                    "NavStore", "NavStoreTools", "NavStorePostgreSQL",
                ]))
        }
        // What an app's product links: no tools, no PostgreSQL.
        let linked = Self.reached(from: "NavStore", in: dependencies)
        #expect(linked.isDisjoint(with: ["NavStoreTools", "NavStorePostgreSQL", "CLibPQ"]))
        let products = (package["products"] as? [[String: Any]] ?? []).reduce(into: [String: [String]]()) {
            $0[$1["name"] as? String ?? ""] = $1["targets"] as? [String]
        }
        #expect(products["NavStore"] == ["NavStore"])
        #expect(products["NavStorePostgreSQL"] == ["NavStorePostgreSQL"])
    }

    @Test("the platform floors: iOS 16, macOS 13, tvOS 16, visionOS 1")
    func platformFloors() throws {
        let package = try Self.dumpPackage()
        let platforms = (package["platforms"] as? [[String: Any]] ?? []).reduce(into: [String: String]()) {
            $0[$1["platformName"] as? String ?? ""] = $1["version"] as? String
        }
        #expect(platforms == ["ios": "16.0", "macos": "13.0", "tvos": "16.0", "visionos": "1.0"])
    }

    @Test(
        "CSQLite finds the system's SQLite without pkg-config, which could pull another SQLite's flags into an iOS build"
    )
    func noPkgConfig() throws {
        let package = try Self.dumpPackage()
        let csqlite = try Self.target("CSQLite", in: package)
        #expect(csqlite["pkgConfig"] == nil || csqlite["pkgConfig"] is NSNull)
        let providers = csqlite["providers"] as? [[String: Any]] ?? []
        #expect(!providers.contains { $0.keys.contains("brew") }, "\(providers)")
    }

    @Test("the privacy manifest is NavStore's one resource, copied as it is, on every platform; no embedInCode")
    func privacyManifestResource() throws {
        let package = try Self.dumpPackage()
        let library = try Self.target("NavStore", in: package)
        let resources = try #require(library["resources"] as? [[String: Any]])
        #expect(resources.map { $0["path"] as? String } == ["PrivacyInfo.xcprivacy"])
        #expect((resources.first?["rule"] as? [String: Any])?.keys.sorted() == ["copy"])
        #expect((library["exclude"] as? [String] ?? []).isEmpty)
        // No other target has resources: the tools and the backend are built as before.
        for target in package["targets"] as? [[String: Any]] ?? [] where target["name"] as? String != "NavStore" {
            #expect((target["resources"] as? [Any] ?? []).isEmpty, "\(target["name"] ?? "?") has resources")
        }
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(!manifest.contains("embedInCode"))
    }

    // MARK: The library's sources

    /// Every Swift file of what an app links (Sources/NavStore and Sources/NavStoreModel): its
    /// path relative to the root, and its text.
    static func librarySources() throws -> [(path: String, text: String)] {
        try ["Sources/NavStore", "Sources/NavStoreModel"].flatMap { name in
            let folder = root.appendingPathComponent(name)
            let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            return try files.filter { $0.hasSuffix(".swift") }.sorted().map { file in
                (name + "/" + file, try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8))
            }
        }
    }

    @Test("the model imports no store, no SQLite and no tools: the compiler's wall, checked in the sources too")
    func modelImportsNothingOfTheStore() throws {
        let model = try Self.librarySources().filter { $0.path.hasPrefix("Sources/NavStoreModel/") }
        #expect(model.count > 30)
        for file in model {
            for line in file.text.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("import ") {
                let module = line.split(separator: " ").last.map(String.init) ?? ""
                #expect(
                    ["Foundation", "FoundationEssentials", "Glibc", "Musl", "Darwin"].contains(module),
                    "\(file.path) imports \(module)")
            }
        }
    }

    @Test(
        "nothing in Sources/NavStore or Sources/NavStoreModel needs embedInCode, PackageResources, Synchronization, String(validating:) or Bundle.module",
        arguments: [
            ".embedInCode", "PackageResources", "import Synchronization", "String(validating:", "Bundle.module",
        ])
    func forbiddenInLibrary(text: String) throws {
        let sources = try Self.librarySources()
        #expect(sources.count > 50)
        for file in sources where file.text.contains(text) {
            Issue.record("\(file.path) contains \(text)")
        }
        #expect(
            !FileManager.default.fileExists(
                atPath: Self.root.appendingPathComponent("Sources/NavStore/Migrations").path))
    }

    @Test("every line of every SQLite migration appears in NavStore's Swift sources")
    func migrationLinesInSources() throws {
        let sources = try Self.librarySources().map(\.text).joined(separator: "\n")
        let folder = Self.root.appendingPathComponent("Migrations")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }
        #expect(!names.isEmpty)
        for name in names.sorted() {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for line in text.split(separator: "\n") where !sources.contains(line) {
                Issue.record("Migrations/\(name): '\(line)' is in no Swift source (run scripts/generate-migrations.sh)")
            }
        }
    }

    @Test(
        "fullfsync is set on the Apple path: FileSync.current is needsFullFsync there, and every store opening asks for it"
    )
    func fullfsyncOnApplePlatforms() throws {
        let sources = Dictionary(uniqueKeysWithValues: try Self.librarySources().map { ($0.path, $0.text) })
        let durability = try #require(sources["Sources/NavStore/SQLite/Connection+Durability.swift"])
        let darwin = try #require(durability.range(of: "#if canImport(Darwin)"))
        let branch = durability[darwin.upperBound...].prefix { $0 != "#" }
        #expect(branch.trimmingCharacters(in: .whitespacesAndNewlines) == ".needsFullFsync")
        #expect(
            Connection.durabilityPragmas(.full, fileSync: .needsFullFsync).contains("PRAGMA fullfsync = ON"))
        // The store's one configuration step runs this platform's pragmas (the default `fileSync`).
        let opening = try #require(sources["Sources/NavStore/Store/Open/SQLiteStoreFile.swift"])
        #expect(
            opening.contains(
                "try db.setDurability(Connection.Synchronous(rawValue: options.synchronous.rawValue) ?? .full)"))
        let setters = sources.filter { $0.value.contains("\"PRAGMA synchronous") }.keys.sorted()
        #expect(setters == ["Sources/NavStore/SQLite/Connection+Durability.swift"])
    }

    // MARK: The privacy manifest

    /// The required-reason API categories (Apple: "Describing use of required reason API") and
    /// calls that would make NavStore use them.
    static let requiredReasonCalls: [String: [String]] = [
        "NSPrivacyAccessedAPICategoryFileTimestamp": [
            "stat(", "lstat(", "fstat(", "fstatat(", "getattrlist(", "getattrlistbulk(", "fgetattrlist(",
            "getattrlistat(", ".creationDate", ".modificationDate", "contentModificationDate", "creationDateKey",
        ],
        "NSPrivacyAccessedAPICategorySystemBootTime": ["mach_absolute_time", "systemUptime"],
        "NSPrivacyAccessedAPICategoryDiskSpace": [
            "statfs(", "statvfs(", "fstatfs(", "fstatvfs(", "volumeAvailableCapacity", "systemFreeSize",
            "systemSize",
        ],
        "NSPrivacyAccessedAPICategoryActiveKeyboards": ["activeInputModes"],
        "NSPrivacyAccessedAPICategoryUserDefaults": ["UserDefaults"],
    ]

    @Test(
        "PrivacyInfo.xcprivacy parses, tracks nothing, collects nothing, and declares the required-reason APIs NavStore calls"
    )
    func privacyManifest() throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("Sources/NavStore/PrivacyInfo.xcprivacy"))
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(
            plist.keys.sorted() == [
                "NSPrivacyAccessedAPITypes", "NSPrivacyCollectedDataTypes", "NSPrivacyTracking",
                "NSPrivacyTrackingDomains",
            ])
        #expect(plist["NSPrivacyTracking"] as? Bool == false)
        #expect((plist["NSPrivacyTrackingDomains"] as? [Any])?.isEmpty == true)
        #expect((plist["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true)
        let accessed = try #require(plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        var declared: [String: [String]] = [:]
        for entry in accessed {
            #expect(entry.keys.sorted() == ["NSPrivacyAccessedAPIType", "NSPrivacyAccessedAPITypeReasons"])
            declared[entry["NSPrivacyAccessedAPIType"] as? String ?? ""] =
                entry["NSPrivacyAccessedAPITypeReasons"] as? [String]
        }
        #expect(declared == ["NSPrivacyAccessedAPICategoryFileTimestamp": ["C617.1"]])
        // What the code calls, outside comments: every category used is declared, and only those.
        let code = try Self.librarySources().map { file in
            file.text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .joined(separator: "\n")
        }.joined(separator: "\n")
        let used = Self.requiredReasonCalls.filter { _, calls in
            calls.contains { call in
                // `stat(` also matches the start of `lstat(` and `fstat(`: a call stands alone.
                code.ranges(of: call).contains { range in
                    range.lowerBound == code.startIndex
                        || !(code[code.index(before: range.lowerBound)].isLetter && call.first!.isLetter)
                }
            }
        }.keys.sorted()
        #expect(used == declared.keys.sorted(), "categories NavStore's code calls: \(used)")
    }

    // MARK: The code's shape (scripts/check-shape.sh)

    /// Runs `swift scripts/check-shape.swift FOLDER`: its exit status and what it printed.
    static func checkShape(_ folder: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", root.appendingPathComponent("scripts/check-shape.swift").path, folder.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("scripts/check-shape.sh: Sources/ passes; a 61-line function and a file named for a type it does not hold fail")
    func shapeChecker() throws {
        let sources = try Self.checkShape(Self.root.appendingPathComponent("Sources"))
        #expect(sources.status == 0, "\(sources.output)")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-shape-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        func write(_ name: String, _ text: String) throws {
            try text.write(to: scratch.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        // 61 counted lines: the declaration, 59 statements and the closing brace (60 without the
        // string line); blank lines, comments and braces in strings and comments do not count.
        let body = (1...58).map { "    _ = \($0) // a comment\n\n" }.joined()
        try write("Long.swift", "struct Long {}\nfunc long() {\n\(body)    _ = \"}\"\n    /* { */\n}\n")
        try write("Short.swift", "struct Short {}\nfunc short() {\n\(body)}\n")
        try write("Entry.swift", "struct Layer {}\nextension Short {}\n")
        try write("Short+Rows.swift", "extension Short {}\n")
        try write("Widget+Rows.swift", "extension Short {}\n")
        try write("Helpers.swift", "func helper() {}\n")
        let findings = try Self.checkShape(scratch)
        #expect(findings.status == 1)
        let lines = findings.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix("Long.swift:2: 'long' is 61 lines long (at most 60: split it)") }, "\(lines)")
        #expect(!lines.contains { $0.contains("'short'") }, "60 lines pass: \(lines)")
        #expect(lines.contains { $0.hasSuffix("Entry.swift:1: named like a type, 'Entry', which no file declares (name it for a type it holds, or as a plural for what its types are together)") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("Widget+Rows.swift:1: named for 'Widget', which it neither declares nor extends") }, "\(lines)")
        #expect(!lines.contains { $0.contains("Short+Rows") || $0.contains("Helpers") }, "\(lines)")
        #expect(lines.last == "check-shape: 3 finding(s)", "\(lines)")
    }
}
