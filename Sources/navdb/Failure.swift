import NavStore
import NavStoreTools

/// The one place that maps every error to its message on stderr and its exit code: 0 ok;
/// 1 refused by the rules, session, entry or version not found, session exists, time earlier
/// than the previous event; 2 a lint finding at `--fail-on`; 3 vetoed (the normal output was
/// printed); 4 version conflict; 64 usage; 65 bad input data; 73 output that could not be
/// written; 74 database unusable.
enum Failure {
    /// `lint` found a defect at or above `--fail-on` (the findings were printed).
    static let lintFindings: Int32 = 2
    /// A guard vetoed the command; the veto was recorded.
    static let vetoed: Int32 = 3
    /// A usage error (sysexits `EX_USAGE`).
    static let usage: Int32 = 64
    /// Bad input data (sysexits `EX_DATAERR`).
    static let dataError: Int32 = 65
    /// The database cannot be used (sysexits `EX_IOERR`).
    static let ioError: Int32 = 74
    /// The output could not be written: stdout closed or full, or an `-o` file (sysexits
    /// `EX_CANTCREAT`, "a user-specified output file cannot be created"). Not 74: the database
    /// is sound, and a caller that took 74 for a damaged file would check or restore it; what the
    /// command did to the database stands, and the message says what that was (a writing
    /// command's event is stored, so running it again would record it twice).
    static let outputLost: Int32 = 73

    /// Reports output that was lost at the end of a run (``Console/finish()``) and returns the
    /// exit status: ``outputLost`` unless the run had failed already. A writing command's message
    /// says that its event was stored, and as which version. A veto (exit 3 when its output is
    /// written) exits 73 too: exit 3 promises the veto on stdout, and that is what was lost; the
    /// message says that the command was vetoed, that nothing was popped or dismissed, and which
    /// version records the veto (so it is not run again to find out).
    static func reportLostOutput(_ reason: String, status: Int32) -> Int32 {
        if let stored = WriteOutput.stored, let veto = stored.veto {
            Console.err(
                "Error: session '\(Text.escaped(stored.session))': \(veto.sentence), the veto is recorded as version \(stored.version), but its output could not be written: \(reason)\n"
            )
        } else if let done = WriteOutput.done {
            Console.err("Error: \(done), but its output could not be written: \(reason)\n")
        } else if let stored = WriteOutput.stored {
            Console.err(
                "Error: session '\(Text.escaped(stored.session))' stored version \(stored.version), but its output could not be written: \(reason)\n"
            )
        } else {
            Console.err(
                "Error: cannot write the output: \(reason); the output is incomplete (what the command did to the database stands)\n"
            )
        }
        return status == 0 || status == vetoed || status == lintFindings ? outputLost : status
    }

    /// Writes the error to stderr and returns its exit code.
    static func report(_ error: any Error) -> Int32 {
        let (message, code) = describe(error)
        Console.err(message)
        return code
    }

    /// The stderr text (ending in a newline) and exit code of `error`.
    static func describe(_ error: any Error) -> (String, Int32) {
        switch error {
        case let error as UsageError:
            return (error.text, usage)
        case let error as StoreError:
            return (line(message(error)), exitCode(error))
        case let error as NavigationError:
            return (line(message(error)), exitCode(.rules(error)))
        case let error as InputError:
            return (line(error.description), dataError)
        case let error as EntriesFileError:
            return (
                line("invalid entries in \(error.file): \(message(error.error))\(error.location)"),
                exitCode(error.error)
            )
        case let error as OutputError:
            return (line(error.description), outputLost)
        case let error as OutputFileError:
            return (line(error.description), outputLost)
        case let error as NotFound:
            return (line(error.description), 1)
        case MaintenanceFailure.differences(let count):
            return (
                line(
                    "rebuild --verify found \(count) difference(s) between the projections or snapshots and the log; they are rebuilt now"
                ), 1
            )
        case MaintenanceFailure.problems(let count):
            return (
                line(
                    "check found \(count) problem(s); 'navdb rebuild' re-derives projections and snapshots from the log"
                ), ioError
            )
        case let error as EncodingError:
            return (line("cannot encode the output: \(error)"), dataError)
        case is DecodingError:
            return (line("invalid JSON: \(describeDecodingError(error))"), dataError)
        default:
            return (line(String(describing: error)), ioError)
        }
    }

    /// `Error: <message>` on one line: newlines in the message are escaped so the error stays
    /// one line whatever titles or ids it quotes.
    private static func line(_ message: String) -> String {
        "Error: " + Text.escaped(message) + "\n"
    }
}

extension Failure {
    /// The exit code of a store error: 1 refused or not found (a session, or the database itself:
    /// a file that does not exist yet holds no session), 4 version conflict, 64 a
    /// truncation point outside the session, 65 bad input data, 73 a restore payload that could
    /// not be written, 74 database unusable.
    static func exitCode(_ error: StoreError) -> Int32 {
        switch error {
        case .rules(.invalidItem), .rules(.invalidEvent), .rules(.invalidParams), .rules(.emptyEntryID): dataError
        case .sessionNotFound, .databaseNotFound, .sessionExists, .emptySessionKey, .sessionKeyTooLong, .rules,
            .timeBeforePrevious,
            .pointOutOfRange,
            .restoreMovedOn, .truncationBelowRestore:
            1
        case .versionConflict: 4
        case .truncationOutOfRange: usage
        case .invalidImport, .eventIDConflict, .invalidImportFile, .invalidEventID, .eventIDExists, .unsupportedValue,
            .timeOutOfRange:
            dataError
        case .notANavdbFile, .newerSchema, .cannotOpen, .openFailed, .readOnly, .diskFull, .corrupt,
            .busy, .database, .unreadableRow, .unreadableValue, .interrupted:
            ioError
        case .restoreNotDelivered: outputLost
        }
    }

    /// The database the command opened, if any: a session key not found is compared with its
    /// keys (read again when the message is made: the command's store is closed by then).
    nonisolated(unsafe) static var openedDatabase: String?

    /// `session 'demoo' not found; did you mean 'demo'? (list them ...; create it with ...)`: the
    /// nearest existing key first, when one is close (a typo), then how to list and create.
    static func sessionNotFound(_ key: String) -> String {
        let keys = openedDatabase.flatMap { try? NavigationStore(path: $0, create: false).sessions().map(\.key) } ?? []
        let near = Suggestions.closest(to: key, in: keys).map { "; did you mean '\($0)'?" } ?? ""
        return
            "session '\(key)' not found\(near) (list them with 'navdb sessions'; create it with \(ShellWord.suggestion("session start", key: key)))"
    }

    /// The library's message for `error`, in navdb's words where navdb has a command to name.
    static func message(_ error: StoreError) -> String {
        switch error {
        case .sessionNotFound(let key):
            sessionNotFound(key)
        case .truncationBelowRestore(let session, let before, let restoreVersion):
            "cannot truncate session '\(session)' before version \(before): restore may still hand out or fall back to version \(restoreVersion) (acknowledge a newer restore with \(ShellWord.suggestion("restore", key: session, options: "--ack")), or truncate before version \(restoreVersion + 1) at most)"
        case .databaseNotFound(let path):
            "no navdb database at '\(path)' (it is created by 'navdb session start' or 'navdb import')"
        case .notANavdbFile(let path, let reason):
            "'\(path)' is not a navdb database: \(reason.replacing("NavStore", with: "navdb")); it was left unchanged"
        case .newerSchema(let path, let found, let supported):
            "'\(path)' has schema version \(found), newer than this navdb supports (\(supported)); it was left unchanged"
        case .unreadableRow(let path, let row):
            "cannot use database '\(path)': session '\(row.session)': \(row.summary); 'navdb rebuild' rewrites it from the log"
        case .restoreMovedOn(let session, _, _, _):
            error.description.replacing(
                "Restore again and", with: "Restore again (\(ShellWord.suggestion("restore", key: session))) and")
        case .invalidImport:
            error.description.replacing(
                "(an import reads NDJSON, one JSON event object per line, as an export writes)",
                with: "(navdb imports NDJSON, one JSON event object per line, as 'navdb export' writes)")
        case .rules(let rules): message(rules)
        default: error.description
        }
    }

    /// The model's message for `error`, naming navdb's command where the model names the
    /// UIKit call or the command's case.
    static func message(_ error: NavigationError) -> String {
        switch error {
        case .emptyStackReplacement: "set-stack needs at least one entry"
        case .duplicateEntryInReplacement(let id): "set-stack lists entry '\(id)' more than once; ids must be distinct"
        case .invalidSource("popTo", let source, let accepted):
            NavigationError.invalidSource(operation: "pop-to", source: source, accepted: accepted).description
        case .sourceNotOnPlatform:
            error.description.replacing("chosen when the session started", with: "chosen at 'session start --platform'")
        default: error.description
        }
    }
}

/// Something named on the command line is not where it was looked for (exit 1), outside the
/// database (a session that an `--input` file does not hold).
struct NotFound: Error, CustomStringConvertible {
    var description: String
}

/// What `rebuild --verify` and `check` found, thrown after their report is printed.
enum MaintenanceFailure: Error {
    /// `rebuild --verify` found this many differences (now repaired): exit 1.
    case differences(Int)
    /// `check` found this many problems: exit 74, the database is inconsistent.
    case problems(Int)
}
