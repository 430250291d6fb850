import Foundation

@testable import NavStore

/// A fresh temporary directory per test, removed when the value is dropped.
final class TemporaryDirectory {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// A new store in a fresh temporary directory.
func makeStore(_ directory: TemporaryDirectory, options: StoreOptions = StoreOptions()) throws -> NavigationStore {
    try NavigationStore(path: directory.path("nav.sqlite"), options: options)
}

/// The bytes of a file and its -wal, for "nothing changed" checks.
func fileBytes(_ path: String) -> [Data?] {
    [path, path + "-wal"].map { FileManager.default.contents(atPath: $0) }
}

extension Entry {
    /// An entry with a title, for tests.
    static func titled(_ id: String, _ title: String? = nil) -> Entry {
        Entry(id: id, item: NavigationItem(title: title))
    }
}
