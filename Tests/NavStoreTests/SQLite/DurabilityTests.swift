import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// Which pragmas each `synchronous` level runs on each kind of platform (the decision is plain
/// code, tested here; only ``Connection/FileSync/current`` is chosen by the compiler).
@Suite struct DurabilityTests {
    @Test(
        "Linux: synchronous alone; Apple platforms: fullfsync for a commit that must survive power loss",
        arguments: [
            (Connection.Synchronous.off, Connection.FileSync.fsyncReachesStorage, ["PRAGMA synchronous = off"]),
            (.normal, .fsyncReachesStorage, ["PRAGMA synchronous = normal"]),
            (.full, .fsyncReachesStorage, ["PRAGMA synchronous = full"]),
            (.extra, .fsyncReachesStorage, ["PRAGMA synchronous = extra"]),
            (.off, .needsFullFsync, ["PRAGMA synchronous = off"]),
            (.normal, .needsFullFsync, ["PRAGMA synchronous = normal", "PRAGMA checkpoint_fullfsync = ON"]),
            (
                .full, .needsFullFsync,
                ["PRAGMA synchronous = full", "PRAGMA fullfsync = ON", "PRAGMA checkpoint_fullfsync = ON"]
            ),
            (
                .extra, .needsFullFsync,
                ["PRAGMA synchronous = extra", "PRAGMA fullfsync = ON", "PRAGMA checkpoint_fullfsync = ON"]
            ),
        ])
    func pragmas(synchronous: Connection.Synchronous, fileSync: Connection.FileSync, expected: [String]) {
        #expect(Connection.durabilityPragmas(synchronous, fileSync: fileSync) == expected)
    }

    @Test("this machine is not an Apple platform: fsync reaches the storage")
    func currentPlatform() {
        #if canImport(Darwin)
            #expect(Connection.FileSync.current == .needsFullFsync)
        #else
            #expect(Connection.FileSync.current == .fsyncReachesStorage)
        #endif
    }

    @Test("the Apple pragmas run on a real connection and read back as set", arguments: Connection.FileSync.allCases)
    func appliedOnConnection(fileSync: Connection.FileSync) throws {
        try withTemporaryDirectory { dir in
            let db = try Connection(path: dir.path("durable.sqlite"), mode: .readWriteCreate)
            defer { db.close() }
            try db.setJournalModeWAL()
            try db.setDurability(.full, fileSync: fileSync)
            #expect(try db.pragmaText("synchronous") == "2")
            let apple = fileSync == .needsFullFsync ? "1" : "0"
            #expect(try db.pragmaText("fullfsync") == apple)
            #expect(try db.pragmaText("checkpoint_fullfsync") == apple)
        }
    }

    @Test("a store opened with each StoreOptions.synchronous runs this platform's pragmas")
    func storeOpening() throws {
        for level in [StoreOptions.Synchronous.off, .normal, .full, .extra] {
            try withTemporaryDirectory { dir in
                var options = StoreOptions()
                options.synchronous = level
                let store = try NavigationStore(path: dir.path("nav.sqlite"), options: options)
                let expected = Connection.durabilityPragmas(
                    Connection.Synchronous(rawValue: level.rawValue)!, fileSync: .current)
                let fullfsync = try store.withCore { core in
                    try (core.db as! Connection).pragmaText("fullfsync")
                }
                #expect(fullfsync == (expected.contains("PRAGMA fullfsync = ON") ? "1" : "0"))
                let synchronous = try store.withCore { core in try (core.db as! Connection).pragmaText("synchronous") }
                #expect(synchronous == ["off": "0", "normal": "1", "full": "2", "extra": "3"][level.rawValue])
            }
        }
    }

    @Test("syncing the write-ahead log: through SQLite's own file in WAL mode, nothing without a log")
    func syncWriteAheadLog() throws {
        try withTemporaryDirectory { dir in
            let db = try Connection(path: dir.path("wal.sqlite"), mode: .readWriteCreate)
            defer { db.close() }
            try db.setJournalModeWAL()
            try db.setDurability(.normal)
            try db.execute("CREATE TABLE t (x)")
            try db.execute("INSERT INTO t VALUES (1)")
            for fileSync in Connection.FileSync.allCases {
                #expect(try db.syncWriteAheadLog(fileSync: fileSync))
            }
            // A rollback-journal database has no journal open between transactions.
            let plain = try Connection(path: dir.path("plain.sqlite"), mode: .readWriteCreate)
            defer { plain.close() }
            try plain.execute("CREATE TABLE t (x)")
            #expect(try plain.syncWriteAheadLog() == false)
        }
    }
}

