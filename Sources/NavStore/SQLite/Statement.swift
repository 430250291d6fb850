internal import CSQLite

/// A prepared SQL statement: bind values, step through rows, read typed columns.
///
/// Wraps an `sqlite3_stmt` (https://sqlite.org/c3ref/stmt.html) and finalizes it in `deinit`.
/// Parameter indexes are 1-based (`?1`, or the position of `?`), column indexes 0-based, as in the
/// C API. Like its ``Connection``, a statement is not `Sendable`: use it on the thread that owns
/// the connection.
///
/// Binding never throws: a failed bind (an index out of range, a value over SQLite's length
/// limit, binding a statement that was stepped but not reset) is remembered and thrown by the next
/// ``step()``, with the SQL text, so a caller can bind several values and check once.
package final class Statement {
    /// The `sqlite3_stmt` handle; finalized in `deinit`.
    package let handle: OpaquePointer

    /// The SQL text this statement was compiled from (no bound values).
    package let sql: String

    /// The first bind error since the last ``step()`` or ``clearBindings()``, thrown by ``step()``.
    private var pendingBindError: SQLiteError?

    /// Whether a ``Connection`` read is stepping this (cached) statement right now, so that a
    /// nested use of the same SQL gets a statement of its own instead of resetting this one.
    package var inUse = false

    /// The address of the SQL text's bytes this statement was cached under by
    /// ``Connection/cachedStatement(_:)``, when that text had a lasting one; `nil` otherwise.
    package var cacheAddress: UInt?

    /// Whether the statement makes no direct change to the database (`sqlite3_stmt_readonly`,
    /// https://sqlite.org/c3ref/stmt_readonly.html): `SELECT`, `BEGIN`, `COMMIT`, ...
    package var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// Wraps a statement just compiled by ``Connection/prepare(_:)``.
    package init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The destructor that tells SQLite to copy bound text and blobs (`SQLITE_TRANSIENT`),
    /// which Swift cannot import as a macro (https://sqlite.org/c3ref/c_static.html).
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Keeps a failed bind's error (`code` other than `SQLITE_OK`) for the next step; inline,
    /// as every bind of every append calls it.
    @inline(__always)
    private func check(_ code: Int32) {
        if code != SQLITE_OK { keepBindError(code) }
    }

    /// Keeps the first failed bind's error for the next step: the rare path, out of line.
    @inline(never)
    private func keepBindError(_ code: Int32) {
        if pendingBindError == nil {
            pendingBindError = SQLiteError(code: code, db: sqlite3_db_handle(handle), sql: sql)
        }
    }

    // MARK: Binding (https://sqlite.org/c3ref/bind_blob.html)

    /// Binds `value` to the parameter at `index` (1-based).
    ///
    /// - Parameters:
    ///   - value: any storage class, ``SQLValue/null`` included.
    ///   - index: the parameter's 1-based index.
    package func bind(_ value: SQLValue, at index: Int32) {
        switch value {
        case .null: check(sqlite3_bind_null(handle, index))
        case .integer(let v): check(sqlite3_bind_int64(handle, index, v))
        case .real(let v): check(sqlite3_bind_double(handle, index, v))
        case .text(let v): bindText(v, at: index)
        case .blob(let v): bindBlob(v, at: index)
        }
    }

    /// Binds a 64-bit integer, or `NULL` for `nil`, to the parameter at `index` (1-based).
    package func bind(_ value: Int64?, at index: Int32) {
        bind(value.map(SQLValue.integer) ?? .null, at: index)
    }

    /// Binds an integer (stored as 64 bits), or `NULL` for `nil`, to the parameter at `index` (1-based).
    package func bind(_ value: Int?, at index: Int32) {
        bind(value.map { SQLValue.integer(Int64($0)) } ?? .null, at: index)
    }

    /// Binds text, or `NULL` for `nil`, to the parameter at `index` (1-based).
    ///
    /// The string's UTF-8 bytes are copied with their exact length (`sqlite3_bind_text64`,
    /// `SQLITE_TRANSIENT`), so embedded NUL characters round-trip and `""` stays an empty
    /// string, distinct from `NULL`.
    package func bind(_ value: String?, at index: Int32) {
        bind(value.map(SQLValue.text) ?? .null, at: index)
    }

    /// Binds a double, or `NULL` for `nil`, to the parameter at `index` (1-based).
    package func bind(_ value: Double?, at index: Int32) {
        bind(value.map(SQLValue.real) ?? .null, at: index)
    }

    /// Binds a Boolean as the integer 1 or 0 to the parameter at `index` (1-based).
    package func bind(_ value: Bool, at index: Int32) {
        bind(.integer(value ? 1 : 0), at: index)
    }

    /// Binds bytes, or `NULL` for `nil`, to the parameter at `index` (1-based).
    ///
    /// `[]` binds a zero-length blob, distinct from `NULL`.
    package func bind(_ value: [UInt8]?, at index: Int32) {
        bind(value.map(SQLValue.blob) ?? .null, at: index)
    }

    /// Binds `values[0]` to parameter 1, `values[1]` to parameter 2, and so on.
    ///
    /// Parameters after `values.count` keep their current bindings.
    /// - Complexity: O(n) in the number of values (plus the bytes copied).
    package func bind(_ values: [SQLValue]) {
        for (offset, value) in values.enumerated() {
            bind(value, at: Int32(offset + 1))
        }
    }

    private func bindText(_ text: String, at index: Int32) {
        var text = text
        text.withUTF8 { bytes in
            if let base = bytes.baseAddress, !bytes.isEmpty {
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
                    check(
                        sqlite3_bind_text64(
                            handle, index, chars, UInt64(bytes.count), Self.transient, UInt8(SQLITE_UTF8)))
                }
            } else {
                // A NULL pointer would bind NULL: pass a real (empty) C string for "".
                check(sqlite3_bind_text64(handle, index, "", 0, Self.transient, UInt8(SQLITE_UTF8)))
            }
        }
    }

    /// Binds UTF-8 bytes as text without copying them (`SQLITE_STATIC`): `bytes` must stay valid
    /// and unchanged until the statement is stepped for the last time or bound again; bind `NULL`
    /// at `index` afterwards so that the statement refers to them no longer.
    package func bind(borrowedUTF8 bytes: UnsafeBufferPointer<UInt8>, at index: Int32) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return bind(.text(""), at: index) }
        base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
            check(sqlite3_bind_text64(handle, index, chars, UInt64(bytes.count), nil, UInt8(SQLITE_UTF8)))
        }
    }

    private func bindBlob(_ bytes: [UInt8], at index: Int32) {
        if bytes.isEmpty {
            // A NULL pointer would bind NULL: a zero-length blob is a zeroblob(0).
            check(sqlite3_bind_zeroblob(handle, index, 0))
            return
        }
        bytes.withUnsafeBytes { buffer in
            check(sqlite3_bind_blob64(handle, index, buffer.baseAddress, UInt64(buffer.count), Self.transient))
        }
    }

    /// Sets every parameter back to `NULL` (https://sqlite.org/c3ref/clear_bindings.html)
    /// and forgets a pending bind error.
    package func clearBindings() {
        sqlite3_clear_bindings(handle)
        pendingBindError = nil
    }

    // MARK: Stepping (https://sqlite.org/c3ref/step.html)

    /// Runs the statement until its next row.
    ///
    /// - Returns: `true` when a row is available (read it with the column accessors),
    ///   `false` when the statement has finished.
    /// - Throws: ``SQLiteError`` with the extended result code, message and this statement's SQL:
    ///   a pending bind error, a constraint violation, `SQLITE_BUSY` after the busy timeout, etc.
    @discardableResult
    package func step() throws(SQLiteError) -> Bool {
        if let error = pendingBindError {
            pendingBindError = nil
            throw error
        }
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(code: code, db: sqlite3_db_handle(handle), sql: sql)
        }
    }

    /// Rewinds the statement so it can run again; bindings are kept
    /// (https://sqlite.org/c3ref/reset.html).
    ///
    /// The error code `sqlite3_reset` repeats from a failed ``step()`` is ignored: that step
    /// already threw it.
    package func reset() {
        sqlite3_reset(handle)
    }

    /// Steps until the statement is done (for `INSERT`, `UPDATE`, `DELETE`, DDL), then resets it.
    ///
    /// - Throws: ``SQLiteError`` from ``step()``; the statement is reset either way.
    package func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    /// Calls `body` once per row, with this statement positioned on the row, then resets it.
    ///
    /// - Parameter body: reads the current row's columns; must not step or reset the statement.
    /// - Throws: ``SQLiteError`` from ``step()``, or what `body` throws (which stops the loop).
    ///   The statement is reset either way, so it never holds a read transaction open.
    package func forEachRow(_ body: (Statement) throws -> Void) throws {
        defer { reset() }
        while try step() {
            try body(self)
        }
    }

    // MARK: Columns (https://sqlite.org/c3ref/column_blob.html)

    /// The number of columns in a row of this statement's result (0 for statements without rows).
    package var columnCount: Int32 {
        sqlite3_column_count(handle)
    }

    /// The name of the column at `index` (0-based), as given by `AS` or derived by SQLite.
    package func columnName(at index: Int32) -> String {
        guard let name = sqlite3_column_name(handle, index) else { return "" }
        return String(cString: name)
    }

    /// Whether the column at `index` (0-based) of the current row is `NULL`.
    package func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Whether the column at `index` (0-based) of the current row holds text (`SQLITE_TEXT`).
    package func isText(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_TEXT
    }

    /// The column at `index` (0-based) as a 64-bit integer; `NULL` reads as 0, other storage
    /// classes are converted as by SQLite (https://sqlite.org/c3ref/column_blob.html).
    package func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// The column at `index` (0-based) as an `Int`; see ``int64(at:)``.
    package func int(at index: Int32) -> Int {
        Int(sqlite3_column_int64(handle, index))
    }

    /// The column at `index` (0-based) as a double; `NULL` reads as 0.0.
    package func double(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// The column at `index` (0-based) as text, or `nil` when it is `NULL`.
    ///
    /// Built from `sqlite3_column_text` and `sqlite3_column_bytes`, so NUL characters inside the
    /// text round-trip and an empty string reads as `""`. Invalid UTF-8 is repaired with U+FFFD.
    package func string(at index: Int32) -> String? {
        guard !isNull(at: index) else { return nil }
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Calls `body` with the UTF-8 bytes of the text column at `index` (0-based), without copying
    /// them (valid until the next step or reset); `nil` when the column is `NULL`. The bytes are
    /// as stored: unlike ``string(at:)``, invalid UTF-8 is not repaired.
    package func withText<Result>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result?
    {
        guard !isNull(at: index) else { return nil }
        guard let text = sqlite3_column_text(handle, index) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, index))))
    }

    /// Calls `body` with the UTF-8 bytes of two text columns of the current row, without
    /// copying them (valid until the next step or reset); `nil`, without calling `body`, when
    /// either column is not `SQLITE_TEXT`. The bytes are as stored, as in ``withText(at:_:)``.
    @inline(__always)
    package func withTexts<Result>(
        at first: Int32, _ second: Int32,
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result? {
        guard isText(at: first), isText(at: second) else { return nil }
        // Text of zero bytes may come back as a null pointer: an empty buffer, as withText gives.
        let a = sqlite3_column_text(handle, first)
        let aCount = Int(sqlite3_column_bytes(handle, first))
        let b = sqlite3_column_text(handle, second)
        let bCount = Int(sqlite3_column_bytes(handle, second))
        return try body(
            UnsafeBufferPointer(start: a, count: a == nil ? 0 : aCount),
            UnsafeBufferPointer(start: b, count: b == nil ? 0 : bCount))
    }

    /// The column at `index` (0-based) as bytes, or `nil` when it is `NULL`; a zero-length blob
    /// reads as `[]`.
    package func blob(at index: Int32) -> [UInt8]? {
        guard !isNull(at: index) else { return nil }
        guard let bytes = sqlite3_column_blob(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// The column at `index` (0-based) in its storage class.
    package func value(at index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(int64(at: index))
        case SQLITE_FLOAT: return .real(double(at: index))
        case SQLITE_TEXT: return .text(string(at: index) ?? "")
        case SQLITE_BLOB: return .blob(blob(at: index) ?? [])
        default: return .null
        }
    }
}

@available(*, unavailable, message: "A Statement belongs to its Connection's thread; share a NavigationStore instead")
extension Statement: Sendable {}
