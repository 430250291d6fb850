internal import CLibPQ
import NavStore

/// The parameters of one `PQexecParams` call, kept alive while libpq reads them.
///
/// Integers are sent as `int8` and doubles as `float8` (so `? IS NULL` and comparisons with
/// integer columns type-check), text as an untyped literal the server types from its use (`text`,
/// `jsonb`, ...), blobs as `bytea` in binary. PostgreSQL text cannot hold a NUL character
/// (https://www.postgresql.org/docs/current/datatype-character.html), so such text is refused
/// instead of being cut short.
struct PostgreSQLParameters {
    /// Each parameter's type OID (0: let the server infer it).
    private(set) var types: [UInt32] = []
    private var values: [[CChar]?] = []
    private var lengths: [Int32] = []
    private var formats: [Int32] = []

    init(_ arguments: [SQLValue], sql: String) throws(PostgreSQLError) {
        for argument in arguments {
            switch argument {
            case .null: append(type: 0, nil)
            case .integer(let value): append(type: 20, Array(String(value).utf8CString))
            case .real(let value): append(type: 701, Array(Self.text(of: value).utf8CString))
            case .text(let value):
                if let problem = StoredTextCheck(backend: SQLDialect.postgresql.name).problem("the text", value) {
                    throw PostgreSQLError(kind: .unsupportedValue, message: problem, sql: sql)
                }
                append(type: 0, Array(value.utf8CString))
            case .blob(let bytes):
                append(type: 17, bytes.map { CChar(bitPattern: $0) } + [0], length: bytes.count, binary: true)
            }
        }
    }

    private mutating func append(type: UInt32, _ value: [CChar]?, length: Int = 0, binary: Bool = false) {
        types.append(type)
        values.append(value)
        lengths.append(Int32(length))
        formats.append(binary ? 1 : 0)
    }

    /// A double as PostgreSQL's `float8` input reads it back exactly.
    private static func text(of value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        return "\(value)"
    }

    /// Calls `body` with C arrays of the types, values, lengths and formats.
    func withCParameters<R>(
        _ body: (
            UnsafePointer<UInt32>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?
        ) -> R
    ) -> R {
        var pointers: [UnsafePointer<CChar>?] = []
        var buffers: [UnsafeMutableBufferPointer<CChar>] = []
        for value in values {
            if let value {
                let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: value.count)
                _ = buffer.initialize(from: value)
                buffers.append(buffer)
                pointers.append(UnsafePointer(buffer.baseAddress))
            } else {
                pointers.append(nil)
            }
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        return body(types, pointers, lengths, formats)
    }
}

extension PostgreSQLConnection {
    /// The value at (`row`, `column`) of a text-format result, decoded by its column type's OID
    /// (https://www.postgresql.org/docs/current/datatype.html).
    func decodeValue(_ result: OpaquePointer, row: Int32, column: Int32, type: UInt32) -> SQLValue {
        if libpq.getisnull(result, row, column) != 0 { return .null }
        let pointer = libpq.getvalue(result, row, column)!
        let length = Int(libpq.getlength(result, row, column))
        let text = String(
            decoding: UnsafeRawBufferPointer(start: pointer, count: length).bindMemory(to: UInt8.self), as: UTF8.self)
        switch type {
        case 16: return .integer(text == "t" ? 1 : 0)  // bool
        case 20, 21, 23, 26: return Int64(text).map(SQLValue.integer) ?? .text(text)  // int8, int2, int4, oid
        case 700, 701: return .real(Self.double(text))  // float4, float8
        case 1700: return Int64(text).map(SQLValue.integer) ?? .real(Self.double(text))  // numeric
        case 17: return .blob(unescapedBytea(pointer))  // bytea
        default: return .text(text)
        }
    }

    private static func double(_ text: String) -> Double {
        switch text {
        case "NaN": .nan
        case "Infinity": .infinity
        case "-Infinity": -.infinity
        default: Double(text) ?? .nan
        }
    }

    private func unescapedBytea(_ pointer: UnsafeMutablePointer<CChar>) -> [UInt8] {
        var length = 0
        guard
            let bytes = pointer.withMemoryRebound(to: UInt8.self, capacity: 1, { libpq.unescapeBytea($0, &length) })
        else { return [] }
        defer { libpq.freemem(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }
}
