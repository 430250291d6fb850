// Where the tests' data lives. The repository carries its own copy of the behaviour cases, the
// UIKit and SwiftUI traces and the files navdb 0.1.0 wrote, in `Tests/Fixtures/` (file names as
// in `../shared/`; Tests/Fixtures/README.md), so that a clone with no `../shared/` runs and
// passes the whole suite. When `../shared/` is beside the package, the runners also read every
// case and trace there whose id the copy lacks, so a newer shared case is never missed
// (`scripts/sync-shared-cases.sh` copies it in).
import Foundation

/// The folders of the tests' data: the repository's copy and, when present, `../shared/`.
package enum TestData {
    /// The package root above `filePath`: the nearest folder holding `Package.swift`, or three
    /// levels up (this file is `Tests/TestSupport/TestData.swift`) when none is found.
    package static func packageRoot(filePath: String = #filePath) -> URL {
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        for _ in 0..<8 {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder = folder.deletingLastPathComponent()
        }
        var fallback = URL(fileURLWithPath: filePath)
        for _ in 0..<3 { fallback = fallback.deletingLastPathComponent() }
        return fallback
    }

    /// `<package root>/Tests/Fixtures`: the repository's copy of the data.
    package static var root: URL {
        packageRoot().appendingPathComponent("Tests/Fixtures", isDirectory: true)
    }

    /// `<package root>/Tests/Fixtures/<name>`, e.g. `cases`, `traces`, `navdb-0.1.0`.
    package static func folder(_ name: String) -> URL {
        root.appendingPathComponent(name, isDirectory: true)
    }

    /// The folder of `../shared/` that `Tests/Fixtures/<name>` copies: `shared/<name>`, except
    /// `navdb-0.1.0`, which is `shared/fixtures/navdb-0.1.0`.
    package static func sharedFolder(_ name: String) -> URL {
        let relative = name == "navdb-0.1.0" ? "fixtures/\(name)" : name
        return packageRoot()
            .appendingPathComponent("..", isDirectory: true)
            .appendingPathComponent("shared", isDirectory: true)
            .appendingPathComponent(relative, isDirectory: true)
            .standardizedFileURL
    }

    /// Whether `url` is an existing folder.
    package static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The repository's items followed by the shared items whose id none of the repository's
    /// items has, in their order: the rule both the case and the trace runners follow.
    /// - Complexity: O(*n* + *m*).
    package static func merged<Item>(repository: [Item], shared: [Item], id: (Item) -> String) -> [Item] {
        let known = Set(repository.map(id))
        var seen = known
        var extra: [Item] = []
        for item in shared where seen.insert(id(item)).inserted {
            extra.append(item)
        }
        return repository + extra
    }
}
