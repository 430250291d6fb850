/// Why a store operation failed: a typed value that keeps its cause (the database's own error,
/// the rules' error, the unreadable row), with a one-line ``description`` naming the bad value
/// and what is accepted. It names no tool: a command-line front end maps the cases to its exit
/// codes and adds its own hints.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No session with this key.
    case sessionNotFound(String)
    /// Starting a session with a key that exists.
    case sessionExists(String)
    /// Starting a session with an empty key: a key has at least one character, so every session
    /// can be named in a command and in an export.
    case emptySessionKey
    /// Starting a session with a key longer than ``StoreError/maximumSessionKeyBytes`` bytes of
    /// UTF-8 (its first 40 characters, its length in bytes): one limit on every backend,
    /// below PostgreSQL's for an index entry, so that a log SQLite keeps can move to PostgreSQL.
    case sessionKeyTooLong(prefix: String, bytes: Int)
    /// The rules refused the command; see ``NavigationError``.
    case rules(NavigationError)
    /// The session's version is not the expected one: another writer got there first.
    case versionConflict(session: String, expected: Int, actual: Int)
    /// An explicit event time earlier than the session's previous event; times in milliseconds
    /// since the Unix epoch.
    case timeBeforePrevious(session: String, given: Int64, previous: Int64)
    /// An explicit event time outside ``Timestamp/accepted`` (the years 0000 through 9999), in
    /// milliseconds since the Unix epoch: such a time could not be written as ISO-8601 in an
    /// export, nor read back by an import.
    case timeOutOfRange(session: String, given: Int64)
    /// A point in history outside the session: `accepted` says what is.
    case pointOutOfRange(session: String, point: String, accepted: String)
    /// A truncation point outside the versions a truncation accepts: above the session's base
    /// (0 when never truncated) and at most its version; `accepted` says which.
    case truncationOutOfRange(session: String, before: Int, accepted: String)
    /// A truncation that would drop the state restore may still hand out or fall back to:
    /// `restoreVersion` is the oldest such version.
    case truncationBelowRestore(session: String, before: Int, restoreVersion: Int)
    /// A read on a database file that does not exist; writes create it.
    case databaseNotFound(path: String)
    /// The file is not a database of this store; it was not modified.
    case notANavdbFile(path: String, reason: String)
    /// The file was written by a newer version of the store (its schema version `found`); it was
    /// not modified.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The path cannot hold a database (a directory, for example): `reason` says why.
    case cannotOpen(path: String, reason: String)
    /// The database could not be opened or reached (SQLite `SQLITE_CANTOPEN`).
    case openFailed(path: String, cause: DatabaseCause)
    /// The database, its file or its directory cannot be written (SQLite `SQLITE_READONLY`).
    case readOnly(path: String, cause: DatabaseCause)
    /// The disk is full (SQLite `SQLITE_FULL`, or the `-shm` index that cannot grow,
    /// `SQLITE_IOERR_SHMSIZE`); nothing was written.
    case diskFull(path: String, cause: DatabaseCause)
    /// The database is damaged (SQLite `SQLITE_CORRUPT`).
    case corrupt(path: String, cause: DatabaseCause)
    /// Another writer held the database longer than the busy timeout (in milliseconds).
    case busy(path: String, milliseconds: Int, cause: DatabaseCause)
    /// Any other failure of the database, with its own error (SQLite's extended code, message
    /// and SQL).
    case database(DatabaseCause)
    /// A projection row, snapshot, base or session row the store cannot read: changed behind its
    /// back with plain SQL. The log is untouched; a rebuild rewrites the row from it.
    case unreadableRow(path: String, UnreadableRow)
    /// A stored column holds `NULL` or a value of another type than the schema gives it
    /// (changed behind the store's back); `reason` names the column.
    case unreadableValue(path: String, reason: String)
    /// An import line is invalid; nothing was written.
    case invalidImport(line: Int, reason: String)
    /// An import carries a different event under a known event id; nothing was written.
    case eventIDConflict(line: Int, eventID: String)
    /// An input read as a whole (a Firefox session file), not line by line, cannot be imported:
    /// `reason` names the place (a decoding path, a tab) and why; nothing was written.
    case invalidImportFile(reason: String)
    /// A client-supplied event id that is not a UUID (8-4-4-4-12 hexadecimal digits).
    case invalidEventID(String)
    /// A client-supplied event id that is already stored: event ids are unique across the
    /// database; nothing was written.
    case eventIDExists(String)
    /// Acknowledging a restore that handed out a fallback, when the session moved on since: an
    /// event other than `session.restored` came after it, so bringing the log in line with the
    /// fallback would throw that navigation away. `handedOut` is the version the restore handed
    /// out (0 for the base root alone), `failed` the state it stood in for, `version` the
    /// session's version now.
    case restoreMovedOn(session: String, handedOut: Int, failed: Int, version: Int)
    /// The caller could not deliver a restore payload (`reason` says why, e.g. a full disk or a
    /// closed output): the attempt was not counted and nothing was appended.
    case restoreNotDelivered(reason: String)
    /// An error from outside the store (a caller's closure or line reader) that stopped the
    /// operation, described; the operation's transaction was rolled back.
    case interrupted(path: String, reason: String)
    /// A value the database cannot store, refused before it reached the database: PostgreSQL text
    /// cannot hold U+0000 (https://www.postgresql.org/docs/current/datatype-character.html), so
    /// a session key or name, entry id or route containing it is refused there (SQLite stores it; titles
    /// and params, stored as JSON, may hold it on both). `reason` names the value, why, and what
    /// the backend accepts; nothing was written.
    case unsupportedValue(reason: String)

    /// A one-line message naming the bad value and what is accepted.
    public var description: String {
        switch self {
        case .sessionNotFound(let key): "session '\(key)' not found"
        case .sessionExists(let key): "session '\(key)' already exists"
        case .emptySessionKey: "the session key '' is empty: a key has at least one character"
        case .sessionKeyTooLong(let prefix, let bytes):
            "the session key '\(prefix)…' is \(bytes) bytes of UTF-8; a key holds at most \(Self.maximumSessionKeyBytes) bytes (the same on every backend)"
        case .rules(let error): error.description
        case .versionConflict(let session, let expected, let actual):
            "version conflict on session '\(session)': expected version \(expected), found \(actual)"
        case .timeBeforePrevious(let session, let given, let previous):
            "time \(Timestamp.format(given)) is earlier than the previous event of session '\(session)' at \(Timestamp.format(previous)); times never go backwards"
        case .timeOutOfRange(let session, let given):
            "time \(given) ms since the Unix epoch (for session '\(session)') is outside the years 0000 through 9999 in which times are read and written (accepted: \(Timestamp.accepted.lowerBound) through \(Timestamp.accepted.upperBound), \(Timestamp.format(Timestamp.accepted.lowerBound)) through \(Timestamp.format(Timestamp.accepted.upperBound)))"
        case .pointOutOfRange(let session, let point, let accepted):
            "\(point) is outside session '\(session)' (accepted: \(accepted))"
        case .truncationOutOfRange(let session, let before, let accepted):
            "cannot truncate session '\(session)' before version \(before): it is not a version above the base that the session holds (accepted: \(accepted))"
        case .truncationBelowRestore(let session, let before, let restoreVersion):
            "cannot truncate session '\(session)' before version \(before): restore may still hand out or fall back to version \(restoreVersion) (acknowledge a newer restore, or truncate before version \(restoreVersion + 1) at most)"
        case .databaseNotFound(let path): "no database at '\(path)' (a write creates it)"
        case .notANavdbFile(let path, let reason):
            "'\(path)' is not a NavStore database: \(reason); it was left unchanged"
        case .newerSchema(let path, let found, let supported):
            "'\(path)' has schema version \(found), newer than this NavStore supports (\(supported)); it was left unchanged"
        case .cannotOpen(let path, let reason): "cannot use database '\(path)': \(reason)"
        case .openFailed(let path, let cause): "cannot use database '\(path)': \(cause.message)"
        case .readOnly(let path, let cause):
            "cannot use database '\(path)': the file or its directory is read-only (\(cause.message))"
        case .diskFull(let path, .sqlite(let cause)) where cause.extendedResultCode == .ioErrorShmSize:
            "cannot use database '\(path)': the disk is full: SQLite cannot grow the -shm index that even reading needs (\(cause.message)); nothing was written"
        case .diskFull(let path, let cause):
            "cannot use database '\(path)': the disk is full (\(cause.message)); nothing was written"
        case .corrupt(let path, let cause): "cannot use database '\(path)': the database is corrupt (\(cause.message))"
        case .busy(let path, let ms, _): "database '\(path)' stayed locked by another writer for \(ms) ms; try again"
        case .database(let error): error.description
        case .unreadableRow(let path, let row): "cannot use database '\(path)': \(row)"
        case .unreadableValue(let path, let reason): "cannot use database '\(path)': \(reason)"
        case .interrupted(let path, let reason): "cannot use database '\(path)': \(reason)"
        case .unsupportedValue(let reason): "\(reason); nothing was written"
        case .invalidImport(let line, let reason): "line \(line): \(reason); nothing was imported"
        case .eventIDConflict(let line, let eventID):
            "line \(line): event id \(eventID) is already stored with different content; nothing was imported"
        case .invalidImportFile(let reason): "\(reason); nothing was imported"
        case .invalidEventID(let eventID): "invalid event: event id '\(eventID)' is not \(EventIDGenerator.uuidShape)"
        case .eventIDExists(let eventID):
            "invalid event: event id \(eventID) is already stored (event ids are unique across the database)"
        case .restoreMovedOn(let session, let handedOut, let failed, let version):
            "session '\(session)' moved on since its last restore, which handed out \(handedOut == 0 ? "the base root alone" : "version \(handedOut)") in place of version \(failed) (a fallback): navigation was recorded after it (the session is at version \(version)), so acknowledging that restore would throw it away; nothing was changed. Restore again and acknowledge what it hands out"
        case .restoreNotDelivered(let reason):
            "cannot write the restore payload: \(reason); no attempt was counted and nothing was appended"
        }
    }
}

extension StoreError {
    /// The longest session key a store takes, in bytes of UTF-8: 1,000 on every backend
    /// (PostgreSQL's index entries hold at most 2,704 bytes; a key is in the sessions' unique
    /// index, with its row's other columns).
    public static let maximumSessionKeyBytes = 1_000

    /// ``sessionKeyTooLong(prefix:bytes:)`` for `key` when it is longer than
    /// ``maximumSessionKeyBytes``; `nil` otherwise.
    package static func checkKeyLength(_ key: String) -> StoreError? {
        let bytes = key.utf8.count
        guard bytes > maximumSessionKeyBytes else { return nil }
        return .sessionKeyTooLong(prefix: String(key.prefix(40)), bytes: bytes)
    }
}

extension StoreError: LocalizedError {
    /// ``description``: what an app shows (`error.localizedDescription`) or logs. In English, as
    /// the rest of NavStore's messages; it names the bad value and what is accepted.
    public var errorDescription: String? { description }
}
