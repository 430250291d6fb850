import CSQLite

/// The baselines' direct use of the SQLite C API (https://sqlite.org/cintro.html): no wrapper,
/// no Swift values between the caller and `sqlite3_step`, so it measures what SQLite itself costs.
final class RawDatabase {
    let handle: OpaquePointer
    let path: String

    /// Opens (creating) `path` as the store does: no mutex, extended result codes.
    init(path: String) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &db, flags, nil) == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw BenchError("cannot open \(path): \(message)")
        }
        sqlite3_extended_result_codes(db, 1)
        handle = db
        self.path = path
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that return no rows of interest.
    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &error) != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw BenchError("SQLite: \(message) - while executing \(sql)")
        }
    }

    /// The first column of the first row of `sql` as an integer.
    func integer(_ sql: String) throws -> Int64 {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw BenchError("SQLite: no row for \(sql)") }
        return sqlite3_column_int64(statement, 0)
    }

    /// The first column of the first row of `sql` as text.
    func text(_ sql: String) throws -> String {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else {
            throw BenchError("SQLite: no row for \(sql)")
        }
        return String(cString: text)
    }

    /// Compiles `sql`; the caller finalizes it.
    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
            let statement
        else {
            throw BenchError("SQLite: \(String(cString: sqlite3_errmsg(handle))) - while preparing \(sql)")
        }
        return statement
    }

    /// Throws unless `code` is `expected`.
    func check(_ code: Int32, _ expected: Int32 = SQLITE_DONE, _ what: String) throws {
        if code != expected {
            throw BenchError("SQLite error \(code): \(String(cString: sqlite3_errmsg(handle))) - while \(what)")
        }
    }

    /// `page_count * page_size` after a `wal_checkpoint(TRUNCATE)`: the main file's size with
    /// every committed page in it, free pages excluded.
    func checkpointedBytes() throws -> (bytes: Int64, pages: Int64, pageSize: Int64, freePages: Int64) {
        try execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let pages = try integer("PRAGMA page_count")
        let size = try integer("PRAGMA page_size")
        let free = try integer("PRAGMA freelist_count")
        return ((pages - free) * size, pages, size, free)
    }
}

/// `SQLITE_TRANSIENT`: SQLite copies the bound bytes (https://sqlite.org/c3ref/c_static.html).
let sqliteTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// Binds `text` to parameter `index` of `statement`, copied (`SQLITE_TRANSIENT`).
func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) {
    var text = text
    text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { chars in
            if let base = chars.baseAddress {
                _ = sqlite3_bind_text64(
                    statement, index, base, UInt64(chars.count), sqliteTransient, UInt8(SQLITE_UTF8))
            } else {
                _ = sqlite3_bind_text64(statement, index, "", 0, sqliteTransient, UInt8(SQLITE_UTF8))
            }
        }
    }
}

/// The raw baseline's table: the shape of the store's `events` rows (seq, session, version, type,
/// at, event_id, ~120-byte JSON payload) with the same uniqueness constraints, nothing else.
let rawEventsSchema = """
    CREATE TABLE events (
        seq      INTEGER PRIMARY KEY,
        session  INTEGER NOT NULL,
        version  INTEGER NOT NULL,
        type     TEXT    NOT NULL,
        at       INTEGER NOT NULL,
        event_id TEXT    NOT NULL UNIQUE,
        payload  TEXT    NOT NULL,
        UNIQUE (session, version)
    ) STRICT;
    """

/// The raw baseline's insert.
let rawInsertSQL = "INSERT INTO events (session, version, type, at, event_id, payload) VALUES (?, ?, ?, ?, ?, ?)"

extension RawDatabase {
    /// A new raw database at `path`, configured as the store configures its own: WAL and the
    /// store's `synchronous` setting.
    static func createBaseline(path: String, synchronous: String) throws -> RawDatabase {
        let db = try RawDatabase(path: path)
        try db.execute("PRAGMA journal_mode=WAL")
        try db.execute("PRAGMA synchronous=\(synchronous.uppercased())")
        try db.execute(rawEventsSchema)
        return db
    }

    /// Inserts `rows` with one prepared statement, in one transaction when `oneTransaction`, else
    /// one autocommit transaction per row.
    func insert(_ rows: ArraySlice<RawRow>, oneTransaction: Bool) throws {
        let statement = try prepare(rawInsertSQL)
        defer { sqlite3_finalize(statement) }
        if oneTransaction { try execute("BEGIN IMMEDIATE") }
        for row in rows {
            sqlite3_bind_int64(statement, 1, row.session)
            sqlite3_bind_int64(statement, 2, row.version)
            bindText(statement, 3, row.type)
            sqlite3_bind_int64(statement, 4, row.at)
            bindText(statement, 5, row.eventID)
            bindText(statement, 6, row.payload)
            try check(sqlite3_step(statement), SQLITE_DONE, "inserting a row")
            sqlite3_reset(statement)
        }
        if oneTransaction { try execute("COMMIT") }
    }
}
