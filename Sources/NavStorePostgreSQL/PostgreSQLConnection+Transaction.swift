import NavStore

extension PostgreSQLConnection {
    /// How many times a transaction that lost a race (serialization failure, deadlock) is run.
    static let maximumAttempts = 100

    /// Runs `body` in one transaction and commits it; rolls back when `body` throws. A
    /// ``DatabaseTransactionKind/read`` is `REPEATABLE READ READ ONLY`: one consistent snapshot that
    /// cannot write. A ``DatabaseTransactionKind/write`` is `SERIALIZABLE`: it reads and writes as
    /// if alone, so the store's checks hold as under SQLite's single writer.
    ///
    /// A serialization failure (`40001`) or deadlock (`40P01`), in `body` or at `COMMIT`, rolls
    /// back and runs `body` again after a short random pause (at most ``maximumAttempts`` runs),
    /// so `body` must not keep state outside the database between runs.
    /// See https://www.postgresql.org/docs/current/transaction-iso.html#XACT-SERIALIZABLE.
    ///
    /// When ``createsSchemaInNextWrite`` is set, a write first takes the schema's migration lock
    /// (``PostgreSQLMigrator/holdingLock(_:_:)``) and creates NavStore's tables inside the
    /// transaction, before `body`: they are committed with what `body` wrote, or not at all.
    /// - Throws: what `body` throws, ``PostgreSQLMigrator/Refusal`` for a schema another process
    ///   filled meanwhile, or ``PostgreSQLError``.
    package func inTransaction<T>(_ kind: DatabaseTransactionKind, _ body: () throws -> T) throws -> T {
        guard kind == .write, createsSchemaInNextWrite else { return try runTransaction(kind, body) }
        return try PostgreSQLMigrator.holdingLock(self) {
            let value = try runTransaction(kind) {
                try PostgreSQLMigrator.applyPending(self)
                return try body()
            }
            createsSchemaInNextWrite = false
            return value
        }
    }

    /// ``inTransaction(_:_:)`` without the schema's creation: BEGIN, `body`, COMMIT, run again
    /// after a lost race.
    private func runTransaction<T>(_ kind: DatabaseTransactionKind, _ body: () throws -> T) throws -> T {
        let begin =
            kind == .read
            ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN ISOLATION LEVEL SERIALIZABLE"
        var attempt = 1
        transactionKind = kind
        defer { transactionKind = nil }
        while true {
            try execute(sql: begin)
            do {
                let value = try body()
                try execute(sql: "COMMIT")
                return value
            } catch let error as PostgreSQLError where error.isRetryable && attempt < Self.maximumAttempts {
                rollbackQuietly()
                willRetry?()
                attempt += 1
                // Up to 1 ms, then up to 2, 4 ... 32 ms: contenders spread out instead of colliding again.
                usleep(UInt32.random(in: 0...(1000 << UInt32(min(attempt, 6)))))
            } catch {
                rollbackQuietly()
                throw error
            }
        }
    }

    /// Rolls back the open transaction, if any; a lost connection has nothing to roll back.
    func rollbackQuietly() {
        _ = try? execute(sql: "ROLLBACK")
    }

    /// Copies rows into `table` with `COPY ... FROM STDIN` in text format
    /// (https://www.postgresql.org/docs/current/sql-copy.html), in the current transaction.
    /// - Parameters:
    ///   - table: the table name (not quoted: NavStore's own names only).
    ///   - columns: the columns, in the order of each row's values.
    ///   - rows: the rows; text is escaped as COPY's text format requires.
    /// - Returns: the number of rows copied.
    /// - Throws: ``PostgreSQLError``.
    @discardableResult
    package func copy(into table: String, columns: [String], rows: some Sequence<[SQLValue]>) throws(PostgreSQLError)
        -> Int
    {
        let sql = "COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN"
        let handle = try openHandle()
        try check(libpq.exec(handle, sql), sql: sql)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 16)
        func flush() throws(PostgreSQLError) {
            let sent = buffer.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { libpq.putCopyData(handle, $0.baseAddress, Int32($0.count)) }
            }
            guard sent == 1 else { throw PostgreSQLError(kind: .connection, message: redacted(currentErrorMessage())) }
            buffer.removeAll(keepingCapacity: true)
        }
        for row in rows {
            Self.appendCopyLine(row, to: &buffer)
            if buffer.count >= 1 << 16 { try flush() }
        }
        if !buffer.isEmpty { try flush() }
        guard libpq.putCopyEnd(handle, nil) == 1 else {
            throw PostgreSQLError(kind: .connection, message: redacted(currentErrorMessage()))
        }
        let result = libpq.getResult(handle)
        try check(result, sql: sql)
        let count = libpq.cmdTuples(result!).flatMap { Int(String(cString: $0)) } ?? 0
        libpq.clear(result)
        while let extra = libpq.getResult(handle) { libpq.clear(extra) }
        return count
    }

    /// One row in COPY's text format: tab-separated, `\N` for NULL, backslash escapes.
    private static func appendCopyLine(_ row: [SQLValue], to buffer: inout [UInt8]) {
        for (index, value) in row.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: "\t")) }
            switch value {
            case .null: buffer += [UInt8(ascii: "\\"), UInt8(ascii: "N")]
            case .integer(let number): buffer += Array(String(number).utf8)
            case .real(let number): buffer += Array("\(number)".utf8)
            case .text(let text): appendEscaped(text.utf8, to: &buffer)
            case .blob(let bytes):
                appendEscaped("\\x".utf8, to: &buffer)
                for byte in bytes { buffer += Array(String(byte, radix: 16).leftPadded().utf8) }
            }
        }
        buffer.append(UInt8(ascii: "\n"))
    }

    private static func appendEscaped(_ bytes: some Sequence<UInt8>, to buffer: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            default: buffer.append(byte)
            }
        }
    }
}

extension String {
    fileprivate func leftPadded() -> String { count == 1 ? "0" + self : self }
}
