/// One `INSERT` of a hot path, prepared once and run many times with its arguments bound in
/// place: no argument array, no lookup of the statement by its SQL text, and text that need not
/// be copied into a `String` first. The store appends every event through one
/// (``DatabaseConnection/preparedInsert(sql:returning:)``).
///
/// Arguments are bound by their 1-based position among the statement's `?` placeholders; each
/// keeps its value until bound again. An insert is used by one thread at a time, like its
/// connection, and belongs to the connection that made it.
package protocol DatabaseInsert: AnyObject {
    /// Binds a 64-bit integer to the placeholder at `index` (1-based).
    func bind(integer: Int64, at index: Int32)
    /// Binds text to the placeholder at `index` (1-based); `""` stays an empty string.
    func bind(text: String, at index: Int32)
    /// Binds UTF-8 text to the placeholder at `index` (1-based) without copying it where the
    /// backend can: `utf8` must stay valid and unchanged until ``run()`` returns, after which the
    /// insert never reads it again (a later run binds `NULL` in its place unless it is bound
    /// again). The bytes are stored as they are (valid UTF-8 expected).
    func bind(utf8: UnsafeBufferPointer<UInt8>, at index: Int32)
    /// Runs the insert with the arguments bound.
    /// - Returns: the key column of the inserted row, or `nil` when no row was inserted
    ///   (`ON CONFLICT ... DO NOTHING`).
    /// - Throws: a ``DatabaseBackendError`` (a unique violation is
    ///   ``DatabaseErrorCategory/uniqueViolation(detail:)``, as for
    ///   ``DatabaseConnection/insert(sql:arguments:returning:)``).
    func run() throws -> Int64?
}

extension DatabaseConnection {
    /// An insert that gathers its arguments and runs
    /// ``DatabaseConnection/insert(sql:arguments:returning:)``: the portable form, for backends
    /// without a prepared one of their own.
    package func preparedInsert(sql: String, returning key: String) throws -> any DatabaseInsert {
        ArgumentListInsert(connection: self, sql: sql, key: key)
    }
}

/// ``DatabaseInsert`` over ``DatabaseConnection/insert(sql:arguments:returning:)``: the arguments
/// are kept as ``SQLValue``s (borrowed text copied into a `String`) until ``run()``.
package final class ArgumentListInsert: DatabaseInsert {
    private let connection: any DatabaseConnection
    private let sql: String
    private let key: String
    private var arguments: [SQLValue] = []

    package init(connection: any DatabaseConnection, sql: String, key: String) {
        self.connection = connection
        self.sql = sql
        self.key = key
    }

    private func set(_ value: SQLValue, at index: Int32) {
        let offset = Int(index) - 1
        while arguments.count <= offset { arguments.append(.null) }
        arguments[offset] = value
    }

    package func bind(integer: Int64, at index: Int32) { set(.integer(integer), at: index) }
    package func bind(text: String, at index: Int32) { set(.text(text), at: index) }
    package func bind(utf8: UnsafeBufferPointer<UInt8>, at index: Int32) {
        set(.text(String(decoding: utf8, as: UTF8.self)), at: index)
    }

    package func run() throws -> Int64? {
        try connection.insert(sql: sql, arguments: arguments, returning: key)
    }
}
