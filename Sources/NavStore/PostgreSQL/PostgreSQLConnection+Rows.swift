internal import CLibPQ

extension PostgreSQLConnection {
    /// Calls `body` once per row of a query, in order, holding one row in memory at a time
    /// (libpq's single-row mode, https://www.postgresql.org/docs/current/libpq-single-row-mode.html).
    ///
    /// When `body` throws, the rest of the result is read and dropped (the connection stays
    /// usable) and the error is rethrown.
    /// - Parameters:
    ///   - sql: one query, with `?` parameters.
    ///   - arguments: one value per `?`, in order.
    ///   - body: called with the column names and one row's values.
    /// - Throws: ``PostgreSQLError``, or what `body` throws.
    package func forEachRawRow(
        sql: String, arguments: [SQLValue] = [], _ body: (_ columns: [String], _ values: [SQLValue]) throws -> Void
    ) throws {
        let count = Int32(arguments.count)
        let sent = try withPrepared(sql: sql, arguments: arguments) { handle, statement, values, lengths, formats in
            let sent =
                switch statement {
                case .named(let name): libpq.sendQueryPrepared(handle, name, count, values, lengths, formats, 0)
                case .text(let text, let types):
                    libpq.sendQueryParams(handle, text, count, types, values, lengths, formats, 0)
                }
            return sent == 1 && libpq.setSingleRowMode(handle) == 1
        }
        let handle = try openHandle()
        guard sent else {
            drain(handle)
            throw PostgreSQLError(kind: .connection, message: redacted(currentErrorMessage()), sql: sql)
        }
        var columns: [String]?
        while let result = libpq.getResult(handle) {
            do {
                try check(result, sql: sql)
            } catch {
                drain(handle)
                throw error
            }
            defer { libpq.clear(result) }
            guard libpq.resultStatus(result) == PGRES_SINGLE_TUPLE else { continue }
            let names = columns ?? columnNames(result)
            columns = names
            let values = (0..<Int32(names.count)).map { column in
                decodeValue(result, row: 0, column: column, type: libpq.ftype(result, column))
            }
            do {
                try body(names, values)
            } catch {
                drain(handle)
                throw error
            }
        }
    }

    /// Reads and drops every result still pending on the connection.
    private func drain(_ handle: OpaquePointer) {
        while let result = libpq.getResult(handle) { libpq.clear(result) }
    }

    private func columnNames(_ result: OpaquePointer) -> [String] {
        (0..<libpq.nfields(result)).map { libpq.fname(result, $0).map { String(cString: $0) } ?? "" }
    }

    /// Every row of a finished result, decoded.
    func decodeRows(_ result: OpaquePointer) -> PostgreSQLRows {
        let rowCount = libpq.ntuples(result)
        let columnCount = libpq.nfields(result)
        let types = (0..<columnCount).map { libpq.ftype(result, $0) }
        var rows: [[SQLValue]] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            rows.append(
                (0..<columnCount).map { column in
                    decodeValue(result, row: row, column: column, type: types[Int(column)])
                })
        }
        return PostgreSQLRows(columns: columnNames(result), rows: rows)
    }
}
