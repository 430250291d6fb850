import NavStore
import NavStoreTools

/// `navdb import FILE|- [--format navdb|firefox-session|uikit-trace] [--session KEY] [--platform G]`:
/// appends events from an NDJSON export (streamed), sessions from a Firefox session file, or the
/// events a UIKit callback trace records (NavStore.docc/Recording.md, "How a pop happened"), all or nothing.
struct ImportCommand: Command {
    static let changesDatabase = true
    /// The input formats.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        /// NDJSON event records, as `navdb export` prints them.
        case navdb
        /// A Firefox (Android) session store file.
        case firefoxSession = "firefox-session"
        /// A UIKit callback trace: NDJSON, one callback a line, replayed into one session.
        case uikitTrace = "uikit-trace"
        /// A SwiftUI path trace: NDJSON, one path or sheet value a line, replayed into one session.
        case swiftUIPath = "swiftui-path"

        /// Whether the input is a trace replayed into the session `--session` names.
        var isTrace: Bool { self == .uikitTrace || self == .swiftUIPath }
    }

    static let spec = CommandSpec(
        abstract: "Import events from 'navdb export' NDJSON (or a Firefox session file, or a UIKit or SwiftUI trace).",
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
            marker (restore --mark); an older one is refused. \
            With --format uikit-trace the input is a UIKit callback trace (one {"callback": ..., "at": ms} \
            object a line: didShow, shouldPop, didPop, programmatic, interactivePop, itemChanged, present, \
            dismissAttempt, didDismiss, dismiss), replayed through NavStore's observer into the session \
            --session names (started, with --platform, when it does not exist): pushes, pops with their \
            source (back-button, gesture, back-menu, programmatic), vetoes, item updates and stack \
            replacements; a change the rules refuse is kept as an observed stack.replaced (lint: \
            model-divergence). A bad line (unknown callback, missing stack, an id not on the stack, a \
            time going backwards or more than 24 hours ahead of the clock without --allow-future-time, \
            not JSON) is refused with its line number (exit 65). A trace's line is identified by its \
            JSON (key order, spacing and escapes aside) and the lines before it: importing the same \
            trace into the same session again changes nothing (its events are found and skipped), a \
            longer trace appends what follows the part imported before, and a trace that begins with \
            the same line and then differs, also in a line that makes no event, is refused (exit 65). \
            With --format swiftui-path the input is a SwiftUI path trace (one {"path": [entries, root \
            first], "by": "user"|"app", "layer": N} or {"sheet": [entries] | null, "by", \
            "modalInPresentation"} object a line, "at" optional), replayed the same way: entries added \
            on top are pushes, entries removed from the top a pop (programmatic by the app, back-menu \
            when the user removed several, user when one: SwiftUI does not say whether the back button \
            or a swipe), a changed item an update, anything else a stack replacement.
            """,
        arguments: [file.spec],
        options: [format.spec, session.spec, platform.spec, time.spec, allowFutureTime.spec])

    /// `<file>`.
    static let file = Argument("file", help: "The input file, or - for stdin.", parser: .path)
    /// `--format <format>`.
    static let format = Option<Format>(
        "format", "format", default: .navdb,
        help:
            "navdb: NDJSON of 'navdb export'; firefox-session: a Firefox session file (each tab a session); uikit-trace: a UIKit callback trace; swiftui-path: a SwiftUI path trace (both need --session).",
        parser: Format.parser)
    /// `--session <key>`.
    static let session = Option<String?>(
        "session", "key", help: "With uikit-trace or swiftui-path: the session the trace is replayed into (started when missing).",
        parser: .sessionKey)
    /// `--platform <generation>`.
    static let platform = Option<PlatformGeneration?>(
        "platform", "generation",
        help:
            "With uikit-trace or swiftui-path: the generation a session the import starts follows (ios14 or ios26; default ios14); an existing session must follow it."
    )
    /// `--time <iso8601>`.
    static let time = Option<Int64?>(
        "time", "iso8601",
        help:
            "With firefox-session: the time of tabs without a lastAccess (default now; at most 24 hours ahead of the clock unless --allow-future-time).",
        parser: .time())

    /// `--allow-future-time`: as the writing commands' (`WriteOptions.allowFutureTime`), for
    /// trace lines too.
    static let allowFutureTime = Flag(
        "allow-future-time", help: "Accept a --time, or a trace line's \"at\", more than 24 hours ahead of the clock.")

    var file: InputFile
    var format: Format
    var at: Int64?
    var session: String?
    var platform: PlatformGeneration?
    /// `--allow-future-time`: a `--time`, or a trace line's `at`, may be more than 24 hours ahead.
    var allowFutureTime: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        file = InputFile(path: try arguments.value(Self.file))
        format = try arguments.value(Self.format)
        allowFutureTime = arguments.flag(Self.allowFutureTime)
        at = try arguments.eventTime(Self.time, allowFuture: allowFutureTime)
        session = try arguments.value(Self.session)
        platform = try arguments.value(Self.platform)
        if at != nil && format != .firefoxSession {
            throw arguments.error(
                "--time only applies with --format firefox-session (NDJSON events and trace lines carry their own times)"
            )
        }
        if format.isTrace {
            guard let session else { throw arguments.error("--format \(format.rawValue) needs --session KEY") }
            if session.isEmpty {
                throw arguments.error("the session key '' is empty: a key has at least one character")
            }
        } else {
            if session != nil { throw arguments.error("--session only applies with --format uikit-trace or swiftui-path") }
            if platform != nil { throw arguments.error("--platform only applies with --format uikit-trace or swiftui-path") }
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
        case .uikitTrace, .swiftUIPath:
            return try importTrace(context, path: path)
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

    private func importTrace(_ context: Context, path: String) throws -> Outcome {
        let lines = try file.lines()
        let report: TraceImportReport
        do {
            report =
                format == .swiftUIPath
                ? try NavigationStore.importSwiftUIPath(
                    into: path, lines: lines, session: session!, platform: platform,
                    allowingFutureTimes: allowFutureTime)
                : try NavigationStore.importUIKitTrace(
                    into: path, lines: lines, session: session!, platform: platform,
                    allowingFutureTimes: allowFutureTime)
        } catch {
            if let readError = lines.error { throw InputError(description: readError.description) }
            throw error
        }
        WriteOutput.done =
            "the import stored \(report.imported) event(s) in session '\(Text.escaped(report.session))' (version \(report.version))"
        if context.json {
            try JSONOutput.print(report)
        } else if report.callbacks == 0 {
            Console.line("imported 0 event(s): the trace holds no callback, so nothing was written")
        } else {
            Console.line(
                "imported \(report.imported) event(s) from \(report.callbacks) callback(s) into session '\(Text.escaped(report.session))'"
                    + (report.created ? " (started)" : "")
                    + (report.skipped > 0 ? "; \(report.skipped) already stored by an earlier import of these lines (skipped)" : "")
                    + "; it is at version \(report.version)")
        }
        return .success
    }
}
