/// Why a store operation failed. Each case has the `navdb` exit code of DESIGN §6.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No session with this key (exit 1).
    case sessionNotFound(String)
    /// `session start` with a key that exists (exit 1).
    case sessionExists(String)
    /// `session start` with an empty key (exit 1): a key has at least one character, so every
    /// session can be named on the command line and in an export.
    case emptySessionKey
    /// The rules refused the command (exit 1); see ``NavigationError``.
    case rules(NavigationError)
    /// The session's version is not the expected one (exit 4): another writer got there first.
    case versionConflict(session: String, expected: Int, actual: Int)
    /// An explicit event time earlier than the session's previous event (exit 1); times in
    /// milliseconds since the Unix epoch.
    case timeBeforePrevious(session: String, given: Int64, previous: Int64)
    /// A point in history outside the session (exit 1): `accepted` says what is.
    case pointOutOfRange(session: String, point: String, accepted: String)
    /// `session truncate --before` outside the versions a truncation accepts (exit 64): above
    /// the session's base (0 when never truncated) and at most its version; `accepted` says which.
    case truncationOutOfRange(session: String, before: Int, accepted: String)
    /// A truncation that would drop the state restore may still hand out or fall back to (exit 1):
    /// `restoreVersion` is the oldest such version.
    case truncationBelowRestore(session: String, before: Int, restoreVersion: Int)
    /// A read on a database file that does not exist (exit 74); writes create it.
    case databaseNotFound(path: String)
    /// The file is not a navdb database (exit 74); it was not modified.
    case notANavdbFile(path: String, reason: String)
    /// The file was written by a newer navdb (exit 74); it was not modified.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The file cannot be opened or written (exit 74).
    case cannotOpen(path: String, reason: String)
    /// An import line is invalid (exit 65); nothing was written.
    case invalidImport(line: Int, reason: String)
    /// An import carries a different event under a known event id (exit 65); nothing was written.
    case eventIDConflict(line: Int, eventID: String)
    /// An input read as a whole (a Firefox session file), not line by line, cannot be imported
    /// (exit 65): `reason` names the place (a decoding path, a tab) and why; nothing was written.
    case invalidImportFile(reason: String)
    /// Another writer held the database longer than the busy timeout (exit 74).
    case busy(path: String, milliseconds: Int)
    /// Any other SQLite failure (exit 74), with SQLite's extended code and message.
    case sqlite(SQLiteError)
    /// `restore --ack` after a restore that handed out a fallback, when the session moved on
    /// since (exit 1): an event other than `session.restored` came after it, so bringing the log
    /// in line with the fallback would throw that navigation away. `handedOut` is the version the
    /// restore handed out (0 for the base root alone), `failed` the state it stood in for,
    /// `version` the session's version now.
    case restoreMovedOn(session: String, handedOut: Int, failed: Int, version: Int)
    /// The caller could not deliver a restore payload (exit 74; `reason` says why, e.g. a full
    /// disk or a closed output): the attempt was not counted and nothing was appended.
    case restoreNotDelivered(reason: String)

    /// The `navdb` exit code (DESIGN §6): 1 refused or not found, 4 conflict, 64 a truncation
    /// point outside the session, 65 bad input data,
    /// 74 database unusable.
    public var exitCode: Int32 {
        switch self {
        case .rules(.invalidItem), .rules(.invalidEvent), .rules(.invalidParams), .rules(.emptyEntryID): 65
        case .sessionNotFound, .sessionExists, .emptySessionKey, .rules, .timeBeforePrevious, .pointOutOfRange,
            .restoreMovedOn:
            1
        case .versionConflict: 4
        case .truncationOutOfRange: 64
        case .truncationBelowRestore: 1
        case .invalidImport, .eventIDConflict, .invalidImportFile: 65
        case .databaseNotFound, .notANavdbFile, .newerSchema, .cannotOpen, .busy, .sqlite, .restoreNotDelivered: 74
        }
    }

    /// A one-line message naming the bad value and what is accepted.
    public var description: String {
        switch self {
        case .sessionNotFound(let key):
            "session '\(key)' not found (list them with 'navdb sessions'; create it with 'navdb session start \(key)')"
        case .sessionExists(let key): "session '\(key)' already exists"
        case .emptySessionKey: "the session key '' is empty: a key has at least one character"
        case .rules(let error): error.description
        case .versionConflict(let session, let expected, let actual):
            "version conflict on session '\(session)': expected version \(expected), found \(actual)"
        case .timeBeforePrevious(let session, let given, let previous):
            "time \(Timestamp.format(given)) is earlier than the previous event of session '\(session)' at \(Timestamp.format(previous)); times never go backwards"
        case .pointOutOfRange(let session, let point, let accepted):
            "\(point) is outside session '\(session)' (accepted: \(accepted))"
        case .truncationOutOfRange(let session, let before, let accepted):
            "cannot truncate session '\(session)' before version \(before): it is not a version above the base that the session holds (accepted: \(accepted))"
        case .truncationBelowRestore(let session, let before, let restoreVersion):
            "cannot truncate session '\(session)' before version \(before): restore may still hand out or fall back to version \(restoreVersion) (acknowledge a newer restore with 'navdb restore \(session) --ack', or truncate before version \(restoreVersion + 1) at most)"
        case .databaseNotFound(let path):
            "no navdb database at '\(path)' (it is created by 'navdb session start' or 'navdb import')"
        case .notANavdbFile(let path, let reason): "'\(path)' is not a navdb database: \(reason); it was left unchanged"
        case .newerSchema(let path, let found, let supported):
            "'\(path)' has schema version \(found), newer than this navdb supports (\(supported)); it was left unchanged"
        case .cannotOpen(let path, let reason): "cannot use database '\(path)': \(reason)"
        case .invalidImport(let line, let reason): "line \(line): \(reason); nothing was imported"
        case .eventIDConflict(let line, let eventID):
            "line \(line): event id \(eventID) is already stored with different content; nothing was imported"
        case .invalidImportFile(let reason): "\(reason); nothing was imported"
        case .busy(let path, let ms): "database '\(path)' stayed locked by another writer for \(ms) ms; try again"
        case .sqlite(let error): error.description
        case .restoreMovedOn(let session, let handedOut, let failed, let version):
            "session '\(session)' moved on since its last restore, which handed out "
                + (handedOut == 0 ? "the base root alone" : "version \(handedOut)")
                + " in place of version \(failed) (a fallback): navigation was recorded after it (the session is at version \(version)), "
                + "so acknowledging that restore would throw it away; nothing was changed. Restore again ('navdb restore \(session)') and acknowledge what it hands out"
        case .restoreNotDelivered(let reason):
            "cannot write the restore payload: \(reason); no attempt was counted and nothing was appended"
        }
    }
}
