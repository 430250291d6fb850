import NavStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `navdb import FILE|- [--format navdb|firefox-session]`: appends events from an NDJSON export
/// (streamed) or sessions from a Firefox session file, all or nothing.
struct ImportCommand: Command {
    static let changesDatabase = true
    /// The input formats.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        /// NDJSON event records, as `navdb export` prints them.
        case navdb
        /// A Firefox (Android) session store file.
        case firefoxSession = "firefox-session"
    }

    static let spec = CommandSpec(
        abstract: "Import events from 'navdb export' NDJSON (or a Firefox session file).",
        discussion: """
            All or nothing: a bad line (exit 65, with its line number, session and reason) writes \
            nothing. Each event is checked against the same decisions the commands make: an event no \
            command could have recorded after the state before it (a gesture pop with no back button, \
            a back-menu pop to an entry that is not a row of the back menu, a gesture dismissal of a \
            modalInPresentation layer, an item.updated whose fields are not the fields that changed) \
            is refused; recorded vetoes are facts and import. A line whose "previous" event id is not \
            the session's event before it here continues another history and is refused; a line \
            without "previous" (an export of navdb 0.1) is not checked for it. Events already stored \
            under the same event id with the same content are skipped, so importing the same file \
            twice is a no-op; a different event under a known id, or under an id used earlier in the \
            file, is an error (exit 65). Event ids are UUIDs (8-4-4-4-12 hexadecimal digits, either \
            letter case), stored in lower case. A newer Firefox session file brings the tabs imported \
            before up to date (pops and pushes to the tab's current history), also after a restart \
            marker (restore --mark); an older one is refused.
            """,
        arguments: [file.spec],
        options: [format.spec, time.spec, WriteOptions.allowFutureTime.spec])

    /// `<file>`.
    static let file = Argument("file", help: "The input file, or - for stdin.", parser: String.parser)
    /// `--format <format>`.
    static let format = Option<Format>(
        "format", "format", default: .navdb,
        help: "navdb: NDJSON of 'navdb export'; firefox-session: a Firefox session file (each tab a session).",
        parser: Format.parser)
    /// `--time <iso8601>`.
    static let time = Option<Int64?>(
        "time", "iso8601",
        help:
            "With firefox-session: the time of tabs without a lastAccess (default now; at most 24 hours ahead of the clock unless --allow-future-time).",
        parser: .time())

    var file: InputFile
    var format: Format
    var at: Int64?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        file = InputFile(path: try arguments.value(Self.file))
        format = try arguments.value(Self.format)
        at = try arguments.eventTime(Self.time, allowFuture: arguments.flag(WriteOptions.allowFutureTime))
        if at != nil && format != .firefoxSession {
            throw arguments.error(
                "--time only applies with --format firefox-session (NDJSON events carry their own times)")
        }
    }

    func run(_ context: Context) throws -> Outcome {
        // A refused import writes nothing; when the database did not exist, the library makes it
        // appear only with the imported events, so nothing is left to clean up here.
        try importAll(context, path: try context.globals.databasePath)
    }

    private func importAll(_ context: Context, path: String) throws -> Outcome {
        let report: ImportReport
        switch format {
        case .navdb:
            let lines = try file.lines()
            var progress = Progress("import")
            do {
                report = try NavigationStore.importNDJSON(into: path, lines: lines) { done, _ in
                    progress.update(done)
                }
            } catch {
                // A read error surfaces as a bad line; say what really happened.
                if let readError = lines.error { throw InputError(description: readError.description) }
                throw error
            }
            progress.finish()
        case .firefoxSession:
            let bytes = try file.readAll()
            report = try NavigationStore.importFirefoxSession(into: path, data: bytes, at: at)
        }
        WriteOutput.done =
            "the import stored \(report.imported) event(s) of \(report.sessions) session(s) and skipped \(report.skipped) already stored (importing it again skips them all)"
        if context.json {
            try JSONOutput.print(report)
        } else {
            // An input without events creates no database (the library's rule): say so, as a
            // later read of the path would otherwise be a surprise.
            // A URI is named without its password, as the store names it.
            let none = try !context.databaseExists
            let named = StoreBackends.displayed(path)
            Console.line(
                "imported \(report.imported) event(s) of \(report.sessions) session(s); \(report.skipped) already stored (skipped)"
                    + (none ? "; the input holds no event, so no database was created at '\(Text.escaped(named))'" : "")
            )
        }
        return .success
    }
}
