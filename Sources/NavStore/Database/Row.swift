/// One row of a query's result, read by column index (0-based) or name with typed accessors that
/// throw instead of guessing: `let version: Int = try row[0]`, `let name: String? = try row["name"]`.
///
/// A `NULL` read as a non-optional type, or a value of another storage class than the type asks
/// for (text read as an integer, an integer read as text), throws ``RowDecodingError``: no `NULL`
/// ever reads as `0` or `""`. Read a nullable column as an `Optional`. The one conversion made is
/// the one every backend shares: an integer read as a `Double`.
///
/// A row handed to a ``DatabaseConnection/forEachRow(sql:arguments:_:)`` closure may be a view on
/// the running statement (no copy): it is valid only inside that call. Rows returned by
/// ``DatabaseConnection/fetchOne(sql:arguments:)`` and ``DatabaseConnection/fetchAll(sql:arguments:)``
/// own their values.
package struct Row {
    /// Where the values are.
    package enum Storage {
        /// The current row of a running SQLite statement.
        case statement(Statement)
        /// Values copied out, with their column names.
        case values([SQLValue], columns: [String])
    }

    package let storage: Storage

    /// A row over the current row of `statement`, valid until the statement steps or resets.
    package init(statement: Statement) {
        storage = .statement(statement)
    }

    /// A row that owns `values`, named by `columns` (same count): what a backend that copies its
    /// results (PostgreSQL's `PGresult`) hands to the store.
    package init(values: [SQLValue], columns: [String]) {
        storage = .values(values, columns: columns)
    }

    /// The number of columns.
    package var count: Int {
        switch storage {
        case .statement(let statement): Int(statement.columnCount)
        case .values(let values, _): values.count
        }
    }

    /// The column names, in order.
    package var columnNames: [String] {
        switch storage {
        case .statement(let statement): (0..<statement.columnCount).map { statement.columnName(at: $0) }
        case .values(_, let columns): columns
        }
    }

    /// The value at `index` (0-based) in its storage class.
    /// - Throws: ``RowDecodingError`` when `index` is out of range.
    package func value(at index: Int) throws(RowDecodingError) -> SQLValue {
        guard index >= 0, index < count else { throw RowDecodingError(column: "\(index)", problem: .noSuchColumn) }
        switch storage {
        case .statement(let statement): return statement.value(at: Int32(index))
        case .values(let values, _): return values[index]
        }
    }

    /// The index of the column named `name` (the first one, compared exactly).
    /// - Throws: ``RowDecodingError`` when no column has that name.
    package func index(of name: String) throws(RowDecodingError) -> Int {
        switch storage {
        case .statement(let statement):
            for index in 0..<statement.columnCount where statement.columnName(at: index) == name {
                return Int(index)
            }
        case .values(_, let columns):
            if let index = columns.firstIndex(of: name) { return index }
        }
        throw RowDecodingError(column: name, problem: .noSuchColumn)
    }

    /// Whether the column at `index` (0-based) is `NULL`.
    /// - Throws: ``RowDecodingError`` when `index` is out of range.
    package func isNull(at index: Int) throws(RowDecodingError) -> Bool {
        try value(at: index) == .null
    }

    /// The column at `index` (0-based) decoded as `T`.
    /// - Throws: ``RowDecodingError`` for `NULL` (unless `T` is optional), another storage class,
    ///   or an index out of range.
    package subscript<T: DatabaseValueDecodable>(_ index: Int) -> T {
        get throws(RowDecodingError) {
            let value = try value(at: index)
            do { return try T.decode(value) } catch { throw RowDecodingError(column: "\(index)", problem: error) }
        }
    }

    /// The column named `name` decoded as `T`.
    /// - Throws: ``RowDecodingError`` as ``subscript(_:)-(Int)``, or when no column has that name.
    package subscript<T: DatabaseValueDecodable>(_ name: String) -> T {
        get throws(RowDecodingError) {
            let value = try value(at: try index(of: name))
            do { return try T.decode(value) } catch { throw RowDecodingError(column: name, problem: error) }
        }
    }

    /// Calls `body` with the UTF-8 bytes of the text column at `index` (0-based), without copying
    /// them when the row is a view on a statement (valid only during the call).
    /// - Returns: what `body` returns, or `nil` when the column is `NULL`.
    /// - Throws: ``RowDecodingError`` when the column is not text, or what `body` throws.
    package func withUTF8<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R? {
        switch storage {
        case .statement(let statement):
            // The storage class alone: no copy of the text to learn that it is text.
            guard statement.isText(at: Int32(index)) else {
                switch statement.value(at: Int32(index)) {
                case .null: return nil
                case let other: throw RowDecodingError(column: "\(index)", problem: .typeMismatch(other.storageClass))
                }
            }
            return try statement.withText(at: Int32(index), body)
        case .values:
            switch try value(at: index) {
            case .null: return nil
            case .text(var text): return try text.withUTF8(body)
            case let other: throw RowDecodingError(column: "\(index)", problem: .typeMismatch(other.storageClass))
            }
        }
    }

    /// Calls `body` with the UTF-8 bytes of two text columns, `first` and `second` (0-based),
    /// without copying them when the row is a view on a statement (valid only during the call):
    /// the event log's `type` and `payload`, read once per event of every fold.
    /// - Returns: what `body` returns, or `nil`, without calling it, when either column is not
    ///   text (`NULL` or another storage class) or out of range: the caller then reads the two
    ///   one by one, which throws ``RowDecodingError`` naming the column.
    /// - Throws: what `body` throws.
    package func withUTF8<R>(
        at first: Int, _ second: Int, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws -> R
    ) rethrows -> R? {
        switch storage {
        case .statement(let statement):
            let columns = Int(statement.columnCount)
            guard first >= 0, second >= 0, first < columns, second < columns else { return nil }
            return try statement.withTexts(at: Int32(first), Int32(second), body)
        case .values(let values, _):
            guard first >= 0, second >= 0, first < values.count, second < values.count,
                case .text(var a) = values[first], case .text(var b) = values[second]
            else { return nil }
            return try a.withUTF8 { a in try b.withUTF8 { b in try body(a, b) } }
        }
    }

    /// The row's values copied out, so the row outlives its statement.
    package func copied() -> Row {
        guard case .statement(let statement) = storage else { return self }
        let count = statement.columnCount
        return Row(
            values: (0..<count).map { statement.value(at: $0) },
            columns: (0..<count).map { statement.columnName(at: $0) })
    }
}

@available(*, unavailable, message: "A Row may be a view on its connection's statement")
extension Row: Sendable {}

/// A column of a ``Row`` that could not be decoded as asked: which column and why.
package struct RowDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    package enum Problem: Error, Sendable, Equatable {
        /// The column is `NULL` and the type asked for is not optional.
        case unexpectedNull
        /// The column holds another storage class (its name: `integer`, `real`, `text`, `blob`).
        case typeMismatch(String)
        /// The integer does not fit the type asked for.
        case outOfRange(Int64)
        /// No column has this index or name.
        case noSuchColumn
    }

    /// The column's index or name, as the caller gave it.
    package let column: String
    /// What went wrong.
    package let problem: Problem

    /// For example `column 'version' is NULL, not a value` or `column 2 holds text, not integer`.
    package var description: String {
        let name = Int(column) != nil ? "column \(column)" : "column '\(column)'"
        return switch problem {
        case .unexpectedNull: "\(name) is NULL, not a value"
        case .typeMismatch(let found): "\(name) holds \(found), not the type asked for"
        case .outOfRange(let value): "\(name) holds \(value), out of range for the type asked for"
        case .noSuchColumn: "\(name) is not in the result"
        }
    }
}

extension SQLValue {
    /// The storage class's name: `null`, `integer`, `real`, `text` or `blob`.
    package var storageClass: String {
        switch self {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
    }
}

/// A type a ``Row`` column decodes into: from one ``SQLValue``, throwing on `NULL` (unless the
/// type is optional) and on another storage class.
package protocol DatabaseValueDecodable {
    /// The value `value` holds.
    /// - Throws: ``RowDecodingError/Problem`` when `value` is `NULL` or of another storage class.
    static func decode(_ value: SQLValue) throws(RowDecodingError.Problem) -> Self
}

extension Int64: DatabaseValueDecodable {
    /// An `INTEGER` column.
    package static func decode(_ value: SQLValue) throws(RowDecodingError.Problem) -> Int64 {
        switch value {
        case .integer(let integer): return integer
        case .null: throw .unexpectedNull
        default: throw .typeMismatch(value.storageClass)
        }
    }
}

extension Int: DatabaseValueDecodable {
    /// An `INTEGER` column that fits an `Int`.
    package static func decode(_ value: SQLValue) throws(RowDecodingError.Problem) -> Int {
        let integer = try Int64.decode(value)
        guard let result = Int(exactly: integer) else { throw .outOfRange(integer) }
        return result
    }
}

extension Int32: DatabaseValueDecodable {
    /// An `INTEGER` column that fits an `Int32`.
    package static func decode(_ value: SQLValue) throws(RowDecodingError.Problem) -> Int32 {
        let integer = try Int64.decode(value)
        guard let result = Int32(exactly: integer) else { throw .outOfRange(integer) }
        return result
    }
}

extension Bool: DatabaseValueDecodable {
    /// An `INTEGER` column: 0 is `false`, anything else `true`, as SQLite's booleans
    /// (https://sqlite.org/datatype3.html#boolean_datatype).
    package static func decode(_ value: SQLValue) throws(RowDecodingError.Problem) -> Bool {
        try Int64.decode(value) != 0
    }
}

extension Double: DatabaseValueDecodable {
    /// A `REAL` column, or an `INTEGER` one converted.
    package static func decode(_ value: SQLValue) throws(RowDecodingError.Problem) -> Double {
        switch value {
        case .real(let real): return real
        case .integer(let integer): return Double(integer)
        case .null: throw .unexpectedNull
        default: throw .typeMismatch(value.storageClass)
        }
    }
}

extension String: DatabaseValueDecodable {
    /// A `TEXT` column; `""` is a value, distinct from `NULL`.
    package static func decode(_ value: SQLValue) throws(RowDecodingError.Problem) -> String {
        switch value {
        case .text(let text): return text
        case .null: throw .unexpectedNull
        default: throw .typeMismatch(value.storageClass)
        }
    }
}

extension [UInt8]: DatabaseValueDecodable {
    /// A `BLOB` column; `[]` is a value, distinct from `NULL`.
    package static func decode(_ value: SQLValue) throws(RowDecodingError.Problem) -> [UInt8] {
        switch value {
        case .blob(let bytes): return bytes
        case .null: throw .unexpectedNull
        default: throw .typeMismatch(value.storageClass)
        }
    }
}

extension SQLValue: DatabaseValueDecodable {
    /// Any column, `NULL` included, as it is stored.
    package static func decode(_ value: SQLValue) throws(RowDecodingError.Problem) -> SQLValue { value }
}

extension Optional: DatabaseValueDecodable where Wrapped: DatabaseValueDecodable {
    /// `nil` for `NULL`, else the wrapped type's decoding (which throws on another storage class).
    package static func decode(_ value: SQLValue) throws(RowDecodingError.Problem) -> Wrapped? {
        if case .null = value { return nil }
        return try Wrapped.decode(value)
    }
}
