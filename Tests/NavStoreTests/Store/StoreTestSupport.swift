import Foundation
import TestSupport

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

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
