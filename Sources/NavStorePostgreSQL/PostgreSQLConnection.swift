internal import CLibPQ
import NavStore

/// One connection to a PostgreSQL database through libpq
/// (https://www.postgresql.org/docs/current/libpq.html).
///
/// SQL is written with `?` parameters, as for SQLite; they are numbered (`$1`, `$2`, ...) before
/// reaching the server. Values travel as text (`PQexecParams`), blobs as bytes; results are read
/// in text format and decoded by each column's type: integers (`int2`, `int4`, `int8`, and
/// `numeric` values without a fraction) as ``SQLValue/integer(_:)``, `bool` as 1 or 0 (SQLite's
/// booleans), `float4`/`float8` as ``SQLValue/real(_:)``, `bytea` as ``SQLValue/blob(_:)``,
/// everything else (`text`, `jsonb`, ...) as ``SQLValue/text(_:)``.
///
/// Not `Sendable`: libpq connections must not be used by two threads at once.
package final class PostgreSQLConnection {
    /// The connection string with its password removed: how messages name the database.
    package let displayName: String

    let libpq: LibPQ
    private var handle: OpaquePointer?
    /// The connection string as given, for removing its password from every message.
    private let uri: String
    /// The kind of the transaction running, if any.
    var transactionKind: DatabaseTransactionKind?
    /// Called when a transaction that lost a race was rolled back, before it runs again: whatever
    /// its user cached from inside it (a state it appended) is no longer true.
    var willRetry: (() -> Void)?
    /// Whether the schema is still empty and its tables are to be created inside the next write
    /// transaction, with what it writes (``inTransaction(_:_:)``), rather than before it: set by a
    /// store opened to import into an empty schema, so that a refused import leaves the schema
    /// empty. Cleared when that transaction commits.
    var createsSchemaInNextWrite = false
    /// The result ``forEachRawRow(sql:arguments:_:)`` is reading row by row, if any: a statement
    /// run inside its loop first reads the rest of it into memory (``detachActiveStream(_:)``).
    var activeStream: RowStream?
    /// The names of the statements prepared on this connection.
    private var preparedNames: [PreparedKey: String] = [:]
    /// SQL with `?` parameters, numbered, by its text.
    private var numberedSQL: [String: (sql: String, count: Int)] = [:]

    /// Connects with `PQconnectdb(uri)`: `uri` is passed as given (a URI's scheme lower-cased,
    /// ``PostgreSQLURI/forLibPQ(_:)``), so every libpq parameter
    /// (`sslmode`, `host=/socket/folder`, `connect_timeout`, ...) and libpq's environment
    /// variables (`PGPASSWORD`, `PGSSLMODE`, ...) apply.
    ///
    /// - Parameter uri: a `postgresql://` or `postgres://` URI, or a `key=value` string.
    /// - Throws: ``PostgreSQLError`` of kind ``PostgreSQLError/Kind/connection`` with libpq's
    ///   reason (server down, wrong password, no such database, libpq not installed), every
    ///   password removed.
    package init(uri: String) throws(PostgreSQLError) {
        self.uri = uri
        displayName = PostgreSQLURI.displayed(uri)
        libpq = try LibPQ.shared.get()
        Self.occupyClosedStandardDescriptors()
        handle = libpq.connectdb(PostgreSQLURI.forLibPQ(uri))
        guard let handle, libpq.status(handle) == CONNECTION_OK else {
            let reason = handle.flatMap { libpq.errorMessage($0) }.map { String(cString: $0) } ?? "out of memory"
            if let handle { libpq.finish(handle) }
            self.handle = nil
            throw PostgreSQLError(kind: .connection, message: redacted(reason))
        }
        // Notices ("relation already exists, skipping") are not NavStore's output: drop them.
        _ = libpq.setNoticeProcessor(handle, { _, _ in }, nil)
        try execute(sql: "SET client_encoding TO 'UTF8'")
    }

    deinit {
        if let handle { libpq.finish(handle) }
    }

    /// Puts a placeholder on each of descriptors 0, 1 and 2 that is closed, before libpq opens its
    /// socket: a socket opened while stdout is closed would become descriptor 1, and what the
    /// program then writes to stdout would go to the server (SQLite keeps its files off these
    /// descriptors for the same reason, https://sqlite.org/howtocorrupt.html#_continuing_to_use_a_file_descriptor_after_it_has_been_closed).
    /// The placeholder is `/dev/null` opened the other way round (write-only for stdin,
    /// read-only for stdout and stderr), so the closed stream keeps failing as before (`EBADF`).
    private static func occupyClosedStandardDescriptors() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", descriptor == 0 ? O_WRONLY : O_RDONLY)
            if opened >= 0 && opened != descriptor { close(opened) }
        }
    }

    /// Runs one statement.
    /// - Parameters:
    ///   - sql: one statement, with `?` parameters.
    ///   - arguments: one value per `?`, in order.
    /// - Returns: the number of rows the statement inserted, updated or deleted (0 for others).
    /// - Throws: ``PostgreSQLError``.
    @discardableResult
    package func execute(sql: String, arguments: [SQLValue] = []) throws(PostgreSQLError) -> Int {
        let result = try run(sql: sql, arguments: arguments)
        defer { libpq.clear(result) }
        return libpq.cmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0
    }

    /// Runs several statements separated by semicolons, without parameters (`PQexec`): a
    /// migration script.
    /// - Throws: ``PostgreSQLError``.
    package func executeScript(_ sql: String) throws(PostgreSQLError) {
        let handle = try openHandle()
        let result = libpq.exec(handle, sql)
        try check(result, sql: sql)
        libpq.clear(result)
    }

    /// Runs a query and returns every row.
    /// - Parameters:
    ///   - sql: one statement, with `?` parameters.
    ///   - arguments: one value per `?`, in order.
    /// - Throws: ``PostgreSQLError``.
    package func query(sql: String, arguments: [SQLValue] = []) throws(PostgreSQLError) -> PostgreSQLRows {
        let result = try run(sql: sql, arguments: arguments)
        defer { libpq.clear(result) }
        return decodeRows(result)
    }

    /// The first row of a query, or `nil` when it returns none.
    /// - Throws: ``PostgreSQLError``.
    package func queryFirst(sql: String, arguments: [SQLValue] = []) throws(PostgreSQLError) -> [SQLValue]? {
        try query(sql: sql, arguments: arguments).rows.first
    }

    /// The handle, ready for a new statement, or a connection error once the connection was lost.
    /// A result still being read row by row is first read to its end (libpq would drop it).
    func openHandle() throws(PostgreSQLError) -> OpaquePointer {
        guard let handle, libpq.status(handle) == CONNECTION_OK else {
            throw PostgreSQLError(kind: .connection, message: "the connection to \(displayName) was lost")
        }
        detachActiveStream(handle)
        return handle
    }

    /// Waits on the socket at most `timeout` for a notification (`LISTEN`), then takes every one
    /// received; `true` when there was one.
    /// - Throws: a connection error when the connection was lost.
    func waitForNotice(timeout: Duration) throws(PostgreSQLError) -> Bool {
        let handle = try openHandle()
        if takeNotices(handle) { return true }
        let socket = libpq.socket(handle)
        guard socket >= 0 else {
            throw PostgreSQLError(kind: .connection, message: "the connection to \(displayName) was lost")
        }
        let (seconds, attoseconds) = timeout.components
        let milliseconds = max(0, min(Int64(Int32.max), seconds * 1_000 + attoseconds / 1_000_000_000_000_000))
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(milliseconds)) > 0 else { return false }
        guard libpq.consumeInput(handle) == 1 else {
            let reason = libpq.errorMessage(handle).map { String(cString: $0) } ?? "the connection was lost"
            throw PostgreSQLError(kind: .connection, message: redacted(reason))
        }
        return takeNotices(handle)
    }

    /// Takes (and frees) every notification libpq holds; `true` when there was one.
    private func takeNotices(_ handle: OpaquePointer) -> Bool {
        var any = false
        while let notice = libpq.notifies(handle) {
            any = true
            libpq.freemem(notice)
        }
        return any
    }

    /// Executes `sql` with `arguments`; the caller clears the result.
    private func run(sql: String, arguments: [SQLValue]) throws(PostgreSQLError) -> OpaquePointer {
        let count = Int32(arguments.count)
        let result = try withPrepared(sql: sql, arguments: arguments) { handle, statement, values, lengths, formats in
            switch statement {
            case .named(let name): libpq.execPrepared(handle, name, count, values, lengths, formats, 0)
            case .text(let text, let types): libpq.execParams(handle, text, count, types, values, lengths, formats, 0)
            }
        }
        try check(result, sql: sql)
        return result!
    }

    /// How a statement reaches the server.
    enum ServerStatement {
        /// A statement prepared on this connection (`PQprepare`), by its name.
        case named(String)
        /// The text with its parameters numbered, and the parameters' types.
        case text(String, UnsafePointer<UInt32>?)
    }

    /// Calls `body` with the connection, the statement, and the parameters' C arrays (values,
    /// lengths, formats), as `PQexecPrepared`/`PQexecParams` and their `PQsend` forms take them.
    ///
    /// A statement with parameters is prepared once per connection and per parameter types
    /// (https://www.postgresql.org/docs/current/libpq-exec.html#LIBPQ-PQPREPARE), so the server
    /// parses and plans it once; one without runs as text.
    func withPrepared<R>(
        sql: String, arguments: [SQLValue],
        _ body: (
            OpaquePointer, ServerStatement, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
            UnsafePointer<Int32>?
        ) -> R
    ) throws(PostgreSQLError) -> R {
        let numbered = numberedSQL[sql] ?? SQLPlaceholders.numbered(sql)
        numberedSQL[sql] = numbered
        guard numbered.count == arguments.count else {
            throw PostgreSQLError(
                kind: .statement,
                message: "\(arguments.count) arguments for \(numbered.count) parameters", sql: sql)
        }
        let handle = try openHandle()
        let parameters = try PostgreSQLParameters(arguments, sql: sql)
        var name: String?
        if !arguments.isEmpty {
            let key = PreparedKey(sql: numbered.sql, types: parameters.types)
            if let known = preparedNames[key] {
                name = known
            } else {
                let new = "navstore_\(preparedNames.count + 1)"
                let result = parameters.withCParameters { types, _, _, _ in
                    libpq.prepare(handle, new, numbered.sql, Int32(arguments.count), types)
                }
                try check(result, sql: sql)
                libpq.clear(result)
                preparedNames[key] = new
                name = new
            }
        }
        return parameters.withCParameters { types, values, lengths, formats in
            body(handle, name.map(ServerStatement.named) ?? .text(numbered.sql, types), values, lengths, formats)
        }
    }

    /// Throws the error `result` reports (clearing it), or returns when it succeeded.
    func check(_ result: OpaquePointer?, sql: String) throws(PostgreSQLError) {
        guard let result else {
            throw PostgreSQLError(kind: .connection, message: redacted(currentErrorMessage()), sql: sql)
        }
        let status = libpq.resultStatus(result)
        if [PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_COPY_IN, PGRES_SINGLE_TUPLE].contains(status) { return }
        func field(_ code: Character) -> String? {
            libpq.resultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) }
        }
        let sqlState = field("C")
        let message = field("M") ?? libpq.resultErrorMessage(result).map { String(cString: $0) } ?? "unknown error"
        let constraint = field("n")
        let connectionMessage = currentErrorMessage()
        libpq.clear(result)
        let lost = sqlState == nil ? connectionLost() : handle.map { libpq.status($0) != CONNECTION_OK } ?? true
        throw PostgreSQLError(
            kind: lost ? .connection : .statement, sqlState: sqlState, constraint: constraint,
            message: redacted(lost && sqlState == nil ? connectionMessage : message), sql: sql)
    }

    /// Whether the connection is gone, after an error libpq raised itself (no SQLSTATE). libpq
    /// reports a write to a server that went away (stopped, crashed) as the statement's error and
    /// keeps the connection `CONNECTION_OK` until it next reads; reading what is left
    /// (`PQconsumeInput`) meets the closed socket and marks it bad. On a live connection the read
    /// finds nothing and changes nothing.
    private func connectionLost() -> Bool {
        guard let handle else { return true }
        if libpq.status(handle) == CONNECTION_OK { _ = libpq.consumeInput(handle) }
        return libpq.status(handle) != CONNECTION_OK
    }

    /// libpq's message for the last failure on this connection.
    func currentErrorMessage() -> String {
        handle.flatMap { libpq.errorMessage($0) }.map { String(cString: $0) } ?? "no connection"
    }

    /// `text` without any password of this connection's URI or of `PGPASSWORD`.
    func redacted(_ text: String) -> String {
        PostgreSQLURI.redactingPasswords(in: text, uri: uri)
    }
}

/// A prepared statement's identity: its text and its parameters' types.
struct PreparedKey: Hashable {
    let sql: String
    let types: [UInt32]
}

@available(*, unavailable, message: "libpq connections must not be shared between threads")
extension PostgreSQLConnection: Sendable {}

/// The rows of a query: column names, then one array of values per row, in order.
package struct PostgreSQLRows: Sendable, Equatable {
    /// The column names, in order.
    package let columns: [String]
    /// The rows, each with one value per column.
    package let rows: [[SQLValue]]
}
