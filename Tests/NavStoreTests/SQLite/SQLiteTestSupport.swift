import Foundation

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// The POSIX permission bits of the file at `path` (for example `0o600`).
func sqliteTestPermissions(ofFileAtPath path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

extension Connection {
    /// The first column of the first row of `sql`, with `values` bound: a test shorthand.
    func testScalar(_ sql: String, _ values: [SQLValue] = []) throws -> SQLValue {
        let statement = try prepare(sql)
        statement.bind(values)
        guard try statement.step() else { return .null }
        return statement.value(at: 0)
    }
}
