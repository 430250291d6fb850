internal import CLibPQ
import NavStore

extension PostgreSQLConnection {
    /// Calls `body` once per row of a query, in order, holding one row in memory at a time
    /// (libpq's single-row mode, https://www.postgresql.org/docs/current/libpq-single-row-mode.html).
    ///
    /// When `body` throws, the rest of the result is read and dropped (the connection stays
    /// usable) and the error is rethrown. A statement `body` runs on this connection (a snapshot
    /// written while a log is folded) first reads the rest of the result into memory, since a
    /// connection carries one statement at a time; the loop then goes on from there.
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
        let stream = RowStream(sql: sql)
        let outer = activeStream
        activeStream = stream
        defer { activeStream = outer }
        while let values = try nextRow(of: stream, handle) {
            do {
                try body(stream.columns ?? [], values)
            } catch {
                if !stream.detached { drain(handle) }
                throw error
            }
        }
    }

    /// The next row of `stream`: from memory once it was detached, else from the connection.
    private func nextRow(of stream: RowStream, _ handle: OpaquePointer) throws -> [SQLValue]? {
        while !stream.detached, let result = libpq.getResult(handle) {
            do {
                try check(result, sql: stream.sql)
            } catch {
                drain(handle)
                throw error
            }
            defer { libpq.clear(result) }
            guard libpq.resultStatus(result) == PGRES_SINGLE_TUPLE else { continue }
            return stream.decode(result, self)
        }
        guard stream.detached, stream.next < stream.rows.count else {
            if let error = stream.error { throw error }
            return nil
        }
        defer { stream.next += 1 }
        return stream.rows[stream.next]
    }

    /// Reads the rest of the result being streamed into memory, so that another statement can
    /// run on the connection; the stream's loop then reads its rows from there.
    func detachActiveStream(_ handle: OpaquePointer) {
        guard let stream = activeStream, !stream.detached else { return }
        stream.detached = true
        while let result = libpq.getResult(handle) {
            if stream.error == nil {
                do throws(PostgreSQLError) { try check(result, sql: stream.sql) } catch {
                    stream.error = error
                    continue
                }
            } else {
                libpq.clear(result)
                continue
            }
            if libpq.resultStatus(result) == PGRES_SINGLE_TUPLE { stream.rows.append(stream.decode(result, self)) }
            libpq.clear(result)
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

/// A result read row by row (libpq's single-row mode), and, once a statement run inside its loop
/// detached it, the rest of its rows in memory.
final class RowStream {
    let sql: String
    var columns: [String]?
    var detached = false
    var rows: [[SQLValue]] = []
    var next = 0
    var error: PostgreSQLError?

    init(sql: String) {
        self.sql = sql
    }

    /// The one row of a single-row result, its column names noted.
    func decode(_ result: OpaquePointer, _ connection: PostgreSQLConnection) -> [SQLValue] {
        let names =
            columns
            ?? (0..<connection.libpq.nfields(result)).map {
                connection.libpq.fname(result, $0).map { String(cString: $0) } ?? ""
            }
        columns = names
        return (0..<Int32(names.count)).map { column in
            connection.decodeValue(result, row: 0, column: column, type: connection.libpq.ftype(result, column))
        }
    }
}
