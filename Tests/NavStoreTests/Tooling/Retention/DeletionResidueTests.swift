import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// NavStore.docc/Retention.md, "Deleted text does not linger": B-tree rebalancing copies cells
/// between pages and leaves the old copies in the pages' free space, past `secure_delete`; after
/// each deletion the store zeros every byte that no row uses (``Connection/scrubFreeSpace(busyTimeoutMilliseconds:)-(Int)``).
@Suite("Deletion leaves no residue in free space")
struct DeletionResidueTests {
    /// Sessions whose keys and texts carry markers of their number (`K00042K`, `E00042E`, ...)
    /// and vary in length, as NDJSON an import takes: many sessions on shared pages, so that
    /// deleting one rebalances pages holding the others.
    static func markedSessions(_ count: Int, seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        func pad(_ letter: String, _ most: Int) -> String {
            String(repeating: letter, count: Int.random(in: 0...most, using: &random))
        }
        var lines: [String] = []
        var at: Int64 = 1_767_225_600_000
        for s in 0..<count {
            let n = String(format: "%05d", s)
            let key = "K\(n)K" + pad("k", 40)
            var bodies: [EventBody] = [.sessionStarted(name: nil)]
            for d in 0..<Int.random(in: 1...6, using: &random) {
                var item = NavigationItem(title: "T\(n)T\(d)" + pad("t", 60))
                item.backButtonTitle = "B\(n)B\(d)"
                bodies.append(
                    .entryPushed(
                        Entry(
                            id: "E\(n)E\(d)" + pad("e", 30), route: "/R\(n)R\(d)" + pad("r", 50),
                            params: ["p": .string("P\(n)P\(d)" + pad("p", 20))], item: item)))
            }
            for (offset, body) in bodies.enumerated() {
                at += 1
                let event = Event(
                    session: key, version: offset + 1, at: at,
                    eventID: UUID(uuid: (
                        UInt8(s >> 8), UInt8(s & 0xFF), UInt8(offset), 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1
                    )).uuidString.lowercased(),
                    body: body)
                lines.append(try! String(decoding: JSONEncoder().encode(EventRecord(event)), as: UTF8.self))
            }
        }
        return lines
    }

    /// The markers of session `number` (its key, entry ids, titles, back titles, routes, params).
    static func markers(_ number: Int) -> [String] {
        let n = String(format: "%05d", number)
        return ["K", "E", "T", "B", "R", "P"].map { "\($0)\(n)\($0)" }
    }

    @Test(
        "100 single deletes in a file of 1,000 sessions: after each, no byte of any deleted session's text in the file, -wal or -shm; the rest reads as before"
    )
    func randomDeletes() throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        try store.importNDJSON(lines: Self.markedSessions(1_000, seed: 7))
        var keys = try store.sessions().map(\.key)
        var random = SplitMix64(seed: 11)
        keys.shuffle(using: &random)
        let kept = Array(keys.dropFirst(100))
        let before = try kept.map { try store.state(session: $0) }
        var deleted: [String] = []
        for (index, key) in keys.prefix(100).enumerated() {
            let report = try store.deleteSession(key)
            #expect(report.walTruncated && report.freeSpaceZeroed, "\(report)")
            let markers = Self.markers(Int(key.dropFirst().prefix(5))!)
            deleted += markers
            // This session's texts after each delete; every deleted session's every 50 deletes.
            let found = RetentionTests.lingering((index + 1) % 50 == 0 ? deleted : markers, in: store.path)
            #expect(found.isEmpty, "after delete \(index + 1) (\(key)): \(found)")
            if !found.isEmpty { break }
        }
        #expect(try kept.map { try store.state(session: $0) } == before)
        #expect(try store.check().problems == [])
    }

    @Test(
        "a second connection that cached pages before the deletion and writes after it does not write the old bytes back"
    )
    func otherConnectionsDropTheirCache() throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        try store.importNDJSON(lines: Self.markedSessions(600, seed: 3))
        let other = try NavigationStore(path: store.path)
        var keys = try other.sessions().map(\.key)
        // The other connection reads every page of the projection and the log.
        for key in keys { _ = try other.state(session: key) }
        var random = SplitMix64(seed: 5)
        keys.shuffle(using: &random)
        var deleted: [String] = []
        for key in keys.prefix(20) {
            try store.deleteSession(key)
            deleted += Self.markers(Int(key.dropFirst().prefix(5))!)
            // The other connection writes to pages it had cached before the deletion.
            for target in keys.dropFirst(20).prefix(10) {
                try other.execute(.push(Entry(id: "x-\(deleted.count)", item: NavigationItem(title: "X"))), session: target)
            }
            let found = RetentionTests.lingering(deleted, in: store.path)
            #expect(found.isEmpty, "after deleting \(key): \(found)")
            if !found.isEmpty { break }
        }
        #expect(try store.check().problems == [])
    }

    @Test("a prune and a truncation zero free space too, and change no row they keep")
    func pruneTruncateAndRows() throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        try store.importNDJSON(lines: Self.markedSessions(400, seed: 9))
        let keys = try store.sessions().map(\.key)
        let states = try keys.map { try store.state(session: $0) }
        // A prune removing 50 sessions: the pass zeros their texts, and every other row reads as before.
        let cut = try store.sessionInfo(keys[50]).updatedAt
        #expect(try store.prune(before: cut).sessions.count == 50)
        #expect(try keys.dropFirst(50).map { try store.state(session: $0) } == Array(states.dropFirst(50)))
        let gone = (0..<50).flatMap { Self.markers($0) }
        #expect(RetentionTests.lingering(gone, in: store.path) == [])
        // A truncation drops the early events of a session: a popped entry's texts go with them.
        try store.startSession("t")
        try store.execute(.push(Entry(id: "root", item: NavigationItem(title: "Root"))), session: "t")
        try store.execute(
            .push(Entry(id: "Gone-Ja8", route: "/gone-Ja8", item: NavigationItem(title: "Gone title Ja8"))), session: "t")
        try store.execute(.pop(source: .programmatic), session: "t")
        try store.execute(.push(Entry(id: "kept", item: NavigationItem(title: "Kept"))), session: "t")
        #expect(!RetentionTests.lingering(["Gone-Ja8"], in: store.path).isEmpty)
        try store.truncateSession("t", before: 5)
        let found = RetentionTests.lingering(["Gone-Ja8", "/gone-Ja8", "Gone title Ja8"], in: store.path)
        #expect(found.isEmpty, "\(found)")
        #expect(try store.check().problems == [])
    }

    @Test("a B-tree page whose header, cells or fragment count do not add up is left alone")
    func inconsistentPageLeftAlone() throws {
        let size = 4096
        let page = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
        defer { page.deallocate() }
        func reset() {
            page.initializeMemory(as: UInt8.self, repeating: 0xAB)
            // A table leaf with one 10-byte cell at 4086 and nothing else: 8-byte header, one pointer.
            let header: [UInt8] = [13, 0, 0, 0, 1, 0x0F, 0xF6, 0]
            for (i, byte) in header.enumerated() { page[i] = byte }
            page[8] = 0x0F
            page[9] = 0xF6
            // Payload 8 bytes, rowid 1, then 8 bytes of record.
            page[4086] = 8
            page[4087] = 1
        }
        reset()
        let scrubbed = try #require(FreeSpaceScrub.scrubBTreePage(page, pageNumber: 2, usableSize: size))
        #expect(scrubbed.changed)
        #expect((10..<4086).allSatisfy { page[$0] == 0 }, "the gap is zeroed")
        #expect((4088..<4096).allSatisfy { page[$0] == 0xAB }, "the cell's payload stays")
        #expect(FreeSpaceScrub.scrubBTreePage(page, pageNumber: 2, usableSize: size)?.changed == false)
        // A fragment count that does not match: nothing changes.
        reset()
        page[7] = 3
        #expect(FreeSpaceScrub.scrubBTreePage(page, pageNumber: 2, usableSize: size) == nil)
        #expect((10..<4086).allSatisfy { page[$0] == 0xAB })
        // A cell pointer into the header: nothing changes.
        reset()
        page[8] = 0
        page[9] = 4
        #expect(FreeSpaceScrub.scrubBTreePage(page, pageNumber: 2, usableSize: size) == nil)
        // Not a B-tree page (an overflow page's first bytes): nothing changes.
        reset()
        page[0] = 0
        #expect(FreeSpaceScrub.scrubBTreePage(page, pageNumber: 2, usableSize: size) == nil)
        #expect(page[100] == 0xAB)
    }
}
