extension StoreError {
    /// Maps an error raised inside the store to a ``StoreError``, keeping its cause: a database
    /// error by its ``DatabaseBackendError/category``, an unreadable row or column as such, a
    /// migration refused as the verdict on the file (or, ``StoreErrorConvertible``, on a
    /// backend's database). An error from outside
    /// the store (a caller's closure or line reader) becomes ``interrupted(path:reason:)``.
    package static func from(_ error: any Error, path: String, options: StoreOptions) -> StoreError {
        switch error {
        case let error as StoreError: return error
        case let error as NavigationError: return .rules(error)
        case let error as UnreadableRow: return .unreadableRow(path: path, error)
        case let error as RowDecodingError: return .unreadableValue(path: path, reason: error.description)
        case let error as MigrationRefused: return from(error, path: path)
        case let error as any StoreErrorConvertible: return error.storeError(path: path)
        case let error as any DatabaseBackendError:
            let cause = error.databaseCause
            switch error.category {
            case .busy: return .busy(path: path, milliseconds: options.busyTimeoutMilliseconds, cause: cause)
            case .notADatabase: return .notANavdbFile(path: path, reason: "not an SQLite database")
            case .readOnly: return .readOnly(path: path, cause: cause)
            case .diskFull: return .diskFull(path: path, cause: cause)
            case .cannotOpen: return .openFailed(path: path, cause: cause)
            case .corrupt: return .corrupt(path: path, cause: cause)
            case .unsupportedValue(let detail): return .unsupportedValue(reason: detail)
            case .uniqueViolation, .other: return .database(cause)
            }
        default:
            return .interrupted(path: path, reason: String(describing: error))
        }
    }

    /// A migration refused, as the verdict on the file.
    private static func from(_ error: MigrationRefused, path: String) -> StoreError {
        switch error.check {
        case .newer(let version):
            .newerSchema(path: path, found: Int(version), supported: Int(error.supported))
        case .foreign(let applicationID):
            .notANavdbFile(
                path: path, reason: "an SQLite database of another application (application_id \(applicationID))")
        case .notADatabase, .empty, .current, .needsMigration:
            .notANavdbFile(path: path, reason: "not an SQLite database")
        }
    }
}
