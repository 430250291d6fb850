/// A value as SQLite stores it: one of its five storage classes.
///
/// See https://sqlite.org/datatype3.html. Text is UTF-8 and may contain NUL characters;
/// `.text("")` and `.null` are different values, as are `.blob([])` and `.null`.
package enum SQLValue: Sendable, Hashable {
    /// `NULL`.
    case null
    /// A 64-bit signed integer (`INTEGER`).
    case integer(Int64)
    /// An IEEE 754 double (`REAL`).
    case real(Double)
    /// UTF-8 text (`TEXT`).
    case text(String)
    /// Bytes (`BLOB`).
    case blob([UInt8])
}

extension SQLValue: ExpressibleByNilLiteral {
    /// `nil` is ``SQLValue/null``.
    package init(nilLiteral: ()) { self = .null }
}

extension SQLValue: ExpressibleByIntegerLiteral {
    /// An integer literal is ``SQLValue/integer(_:)``.
    package init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLValue: ExpressibleByFloatLiteral {
    /// A floating-point literal is ``SQLValue/real(_:)``.
    package init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLValue: ExpressibleByStringLiteral {
    /// A string literal is ``SQLValue/text(_:)``.
    package init(stringLiteral value: String) { self = .text(value) }
}

extension SQLValue: ExpressibleByBooleanLiteral {
    /// `true` and `false` are stored as the integers 1 and 0, as SQLite does
    /// (https://sqlite.org/datatype3.html#boolean_datatype).
    package init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLValue {
    // Conversions for arguments: `[SQLValue(name), SQLValue(version)]`.

    /// `.text(value)`, or `.null` for `nil`.
    package init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }
    /// `.integer(value)`, or `.null` for `nil`.
    package init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    /// `.integer(value)`.
    package init(_ value: Int64) { self = .integer(value) }
    /// `.integer(1)` or `.integer(0)`.
    package init(_ value: Bool) { self = .integer(value ? 1 : 0) }
}
