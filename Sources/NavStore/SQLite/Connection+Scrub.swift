internal import CSQLite

/// Zeroing what deleted rows leave in the database file outside any cell (``FreeSpaceScrub``).
extension Connection {
    /// What a scrub did, for tests and the benchmark.
    package struct ScrubCount: Sendable, Equatable {
        /// Pages read: every B-tree page, overflow page and freelist page.
        package var pagesRead = 0
        /// Pages written back with bytes zeroed.
        package var pagesWritten = 0
        /// B-tree pages left alone because their layout did not add up (none in a sound file).
        package var pagesSkipped = 0
    }

    /// Zeros every byte of the database file that no row, header or pointer uses: the free space
    /// of each B-tree page (``FreeSpaceScrub/scrubBTreePage(_:pageNumber:usableSize:)``), the
    /// unused end of each overflow chain's last page, the unused part of freelist trunk pages and
    /// the whole of freelist leaf pages. `secure_delete` zeros a deleted row where it lies, but
    /// B-tree rebalancing leaves copies of moved cells behind (see ``FreeSpaceScrub``): after a
    /// deletion, only this leaves no byte of the deleted rows in the file, short of a `VACUUM`
    /// that rewrites every page.
    ///
    /// Runs on a connection of its own, after the caller's write-ahead log was checkpointed and
    /// truncated: in one `BEGIN IMMEDIATE` transaction (no writer can append to the log meanwhile)
    /// that finds the log empty (so the file holds every page's newest image), the pages are read
    /// and the changed ones written back through SQLite's own file handle
    /// (`SQLITE_FCNTL_FILE_POINTER`, https://sqlite.org/c3ref/c_fcntl_begin_atomic_write.html;
    /// a second descriptor closed in this process would drop SQLite's POSIX locks,
    /// https://sqlite.org/howtocorrupt.html §2.2). Only unused bytes change, so a reader reading
    /// a page meanwhile reads the same rows. The transaction then updates the `maintenance` row,
    /// so that every other connection, this one included, sees a changed log and drops the page
    /// images it had cached before the scrub instead of writing them back later.
    ///
    /// - Returns: the pages read, written and skipped; `nil` when the log was not empty (a writer
    ///   came first, or a reader kept the checkpoint from finishing): nothing was changed, and
    ///   running the deletion command again finishes it.
    /// - Throws: ``SQLiteError``. The rows are never changed.
    /// - Complexity: reads every page of the file once (not a rewrite: a `VACUUM` writes every
    ///   page twice).
    package func scrubFreeSpace(busyTimeoutMilliseconds: Int) throws -> ScrubCount? {
        guard !path.isEmpty, path != ":memory:" else { return ScrubCount() }
        let scrubber = try Connection(path: path, mode: .readWrite)
        defer { scrubber.close() }
        try scrubber.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        return try scrubber.transaction(.immediate) { () throws -> ScrubCount? in
            var wal = stat()
            if stat(path + "-wal", &wal) == 0, wal.st_size > 0 { return nil }
            let count = try scrubber.scrubPages()
            try scrubber.execute("UPDATE maintenance SET removing = 0 WHERE id = 1")
            return count
        }
    }

    /// The walk: every B-tree from its root (page 1 and `sqlite_schema`'s root pages), their
    /// overflow chains, then the freelist (https://sqlite.org/fileformat2.html §1.5-1.7).
    private func scrubPages() throws -> ScrubCount {
        let db = try db()
        func integer(_ sql: String) throws -> Int {
            let statement = try prepare(sql)
            defer { statement.reset() }
            guard try statement.step() else { return 0 }
            return Int(statement.int64(at: 0))
        }
        let pageSize = try integer("PRAGMA page_size")
        let pageCount = try integer("PRAGMA page_count")
        var roots: [UInt32] = [1]
        let statement = try prepare("SELECT rootpage FROM sqlite_schema WHERE rootpage > 0")
        try statement.forEachRow { roots.append(UInt32(clamping: $0.int64(at: 0))) }
        var file: UnsafeMutablePointer<sqlite3_file>?
        let code = sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file)
        guard code == SQLITE_OK, let file, let methods = file.pointee.pMethods?.pointee,
            let read = methods.xRead, let write = methods.xWrite
        else { throw SQLiteError(code: code == SQLITE_OK ? SQLITE_MISUSE : code, db: db, sql: nil) }
        var walk = PageWalk(db: db, file: file, read: read, write: write, pageSize: pageSize, pageCount: pageCount)
        defer { walk.page.deallocate() }
        try walk.load(1)
        walk.usable = pageSize - Int(walk.page[20])
        let firstTrunk = UInt32(FreeSpaceScrub.number(walk.page, 32, 4))
        let overflows = try walk.scrubTrees(roots)
        try walk.scrubOverflows(overflows)
        try walk.scrubFreelist(from: firstTrunk)
        return walk.count
    }
}

/// One pass over a database file's pages through SQLite's own file handle: one page in memory at
/// a time, each page visited once.
private struct PageWalk {
    let db: OpaquePointer
    let file: UnsafeMutablePointer<sqlite3_file>
    let read: @convention(c) (UnsafeMutablePointer<sqlite3_file>?, UnsafeMutableRawPointer?, Int32, sqlite3_int64) -> Int32
    let write: @convention(c) (UnsafeMutablePointer<sqlite3_file>?, UnsafeRawPointer?, Int32, sqlite3_int64) -> Int32
    let pageSize: Int
    let pageCount: Int
    /// The page in memory (deallocated by the walk's owner).
    let page: UnsafeMutableRawBufferPointer
    /// The bytes of a page that hold data: the page size less the reserved bytes at each end.
    var usable: Int
    var count = Connection.ScrubCount()
    private var seen: [Bool]

    init(
        db: OpaquePointer, file: UnsafeMutablePointer<sqlite3_file>,
        read: @escaping @convention(c) (UnsafeMutablePointer<sqlite3_file>?, UnsafeMutableRawPointer?, Int32, sqlite3_int64) -> Int32,
        write: @escaping @convention(c) (UnsafeMutablePointer<sqlite3_file>?, UnsafeRawPointer?, Int32, sqlite3_int64) -> Int32,
        pageSize: Int, pageCount: Int
    ) {
        (self.db, self.file, self.read, self.write) = (db, file, read, write)
        (self.pageSize, self.pageCount, usable) = (pageSize, pageCount, pageSize)
        page = UnsafeMutableRawBufferPointer.allocate(byteCount: pageSize, alignment: 8)
        seen = [Bool](repeating: false, count: pageCount + 1)
    }

    /// Reads page `number` (1-based) into ``page``.
    mutating func load(_ number: UInt32) throws {
        let result = read(file, page.baseAddress, Int32(pageSize), Int64(number - 1) * Int64(pageSize))
        guard result == SQLITE_OK else { throw SQLiteError(code: result, db: db, sql: nil) }
        count.pagesRead += 1
    }

    /// Writes ``page`` back as page `number`.
    mutating func store(_ number: UInt32) throws {
        let result = write(file, page.baseAddress, Int32(pageSize), Int64(number - 1) * Int64(pageSize))
        guard result == SQLITE_OK else { throw SQLiteError(code: result, db: db, sql: nil) }
        count.pagesWritten += 1
    }

    /// Zeros `range` of the page; whether a byte changed.
    func zero(_ range: Range<Int>) -> Bool { FreeSpaceScrub.zero(page, range) }

    /// Whether `number` is a page of the file not visited yet (and marks it visited): a loop in
    /// a damaged file ends.
    mutating func unseen(_ number: UInt32) -> Bool {
        guard number >= 1, Int(number) <= pageCount, !seen[Int(number)] else { return false }
        seen[Int(number)] = true
        return true
    }

    /// Scrubs every page of the B-trees under `roots`; the overflow chains their cells start.
    mutating func scrubTrees(_ roots: [UInt32]) throws -> [(page: UInt32, bytes: Int)] {
        var pending = roots
        var overflows: [(page: UInt32, bytes: Int)] = []
        while let number = pending.popLast() {
            guard unseen(number) else { continue }
            try load(number)
            guard let (layout, changed) = FreeSpaceScrub.scrubBTreePage(page, pageNumber: number, usableSize: usable)
            else {
                count.pagesSkipped += 1
                continue
            }
            if changed { try store(number) }
            pending += layout.children
            overflows += layout.overflows
        }
        return overflows
    }

    /// Zeros the unused end of each overflow chain's last page.
    mutating func scrubOverflows(_ chains: [(page: UInt32, bytes: Int)]) throws {
        for chain in chains {
            var number = chain.page
            var remaining = chain.bytes
            while remaining > 0, unseen(number) {
                try load(number)
                let next = UInt32(FreeSpaceScrub.number(page, 0, 4))
                let here = min(usable - 4, remaining)
                remaining -= here
                if remaining == 0, zero((4 + here)..<usable) { try store(number) }
                number = next
            }
        }
    }

    /// Zeros the unused part of each freelist trunk page and the whole of each leaf page.
    mutating func scrubFreelist(from firstTrunk: UInt32) throws {
        var trunk = firstTrunk
        while unseen(trunk) {
            try load(trunk)
            let next = UInt32(FreeSpaceScrub.number(page, 0, 4))
            let leafCount = FreeSpaceScrub.number(page, 4, 4)
            guard leafCount <= (usable - 8) / 4 else { break }
            let leaves = (0..<leafCount).map { UInt32(FreeSpaceScrub.number(page, 8 + 4 * $0, 4)) }
            if zero((8 + 4 * leafCount)..<usable) { try store(trunk) }
            for leaf in leaves where unseen(leaf) {
                try load(leaf)
                if zero(0..<usable) { try store(leaf) }
            }
            trunk = next
        }
    }
}
