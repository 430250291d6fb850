import NavStore
import NavStoreTools

/// `--vacuum` of the retention commands.
enum VacuumOption {
    static let flag = Flag(
        "vacuum", help: "Also VACUUM the file, so it shrinks (rewrites the whole file), and say the bytes it reclaimed.")
}

/// `navdb session delete KEY [--expect-version N] [--vacuum]`: removes a session and erases its text.
struct SessionDeleteCommand: Command {
    static let changesDatabase = true
    static let spec = CommandSpec(
        abstract: "Delete a session: its events, projection, snapshots and restore counters.",
        discussion: """
            No byte of the session's key, name, titles, routes, params, prompts or entry ids remains in \
            the database, its -wal or its -shm: the deletion runs with PRAGMA secure_delete=ON and the \
            -wal is checkpointed and truncated after it, then every byte of the file that no row uses is \
            zeroed (B-tree rebalancing leaves old copies of moved rows there). The key may be started \
            again. --dry-run says \
            what would go (events, bytes) and changes nothing. --json prints {"bytes","dryRun","events","freeSpaceZeroed","sessions":[{"baseVersion","bytes","events","key","updatedAt","updatedTime","version"}],"storage","vacuumed","walTruncated"} ("storage": the bytes before and after --vacuum, as 'navdb vacuum' says them; else null; "walTruncated" and "freeSpaceZeroed": whether the -wal was truncated and the file's unused bytes zeroed, false when another connection kept either from running).
            """,
        arguments: [Argument.key.spec],
        options: [expectVersion.spec, dryRun.spec, VacuumOption.flag.spec])

    /// `--expect-version <n>`.
    static let expectVersion = Option<Int?>(
        "expect-version", "n", help: "Refuse with exit 4 unless the session is at version <n> (nothing is deleted).",
        parser: .integer(atLeast: 0))
    /// `--dry-run`.
    static let dryRun = Flag("dry-run", help: "Only say what would be deleted; change nothing.")

    var key: String
    var expectedVersion: Int?
    var dryRun: Bool
    var vacuum: Bool

    /// - Throws: ``UsageError`` for `--dry-run` with `--vacuum`.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = try arguments.value(Argument.key)
        expectedVersion = try arguments.value(Self.expectVersion)
        dryRun = arguments.flag(Self.dryRun)
        vacuum = arguments.flag(VacuumOption.flag)
        if dryRun && vacuum {
            throw arguments.error("'--dry-run' and '--vacuum' cannot be combined: a dry run changes nothing")
        }
    }

    func run(_ context: Context) throws -> Outcome {
        let report = try context.store().deleteSession(
            key, expectedVersion: expectedVersion, dryRun: dryRun, vacuum: vacuum)
        return try RetentionOutput.render(report, verb: dryRun ? "would delete" : "deleted", context)
    }
}

/// `navdb session truncate KEY --before V [--expect-version N] [--vacuum]`: drops the events
/// below version V and keeps the state at V-1 as the session's base.
struct SessionTruncateCommand: Command {
    static let changesDatabase = true
    static let spec = CommandSpec(
        abstract: "Drop a session's events below a version, keeping the state before it as the base.",
        discussion: """
            Versions keep their numbers; stack, back-menu, show and --at work as before at the base \
            (version V-1) and later, and refuse earlier points naming the base. history and replay \
            start at the base; export carries it as a first {"type":"session.truncated"} line, so \
            import reproduces every later state. The dropped events' text is erased as by 'session \
            delete'. --before B+1, for a session whose base is version B, drops nothing. A version the \
            session does not hold (below or at its base, past its newest) is refused as 'stack --at' \
            refuses it (exit 1). --json prints the report of 'session delete', with baseVersion set.
            """,
        arguments: [Argument.key.spec],
        options: [before.spec, expectVersion.spec, VacuumOption.flag.spec])

    /// `--before <version>`.
    static let before = Option<Int>(
        required: "before", "version",
        help:
            "The first version to keep: above the session's base (0 before any truncation), at most the session's version.",
        parser: .integer(atLeast: 1))
    /// `--expect-version <n>`.
    static let expectVersion = Option<Int?>(
        "expect-version", "n", help: "Refuse with exit 4 unless the session is at version <n> (nothing is dropped).",
        parser: .integer(atLeast: 0))

    var key: String
    var before: Int
    var expectedVersion: Int?
    var vacuum: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = try arguments.value(Argument.key)
        before = try arguments.value(Self.before)
        expectedVersion = try arguments.value(Self.expectVersion)
        vacuum = arguments.flag(VacuumOption.flag)
    }

    func run(_ context: Context) throws -> Outcome {
        let store = try context.store()
        let report: RetentionReport
        do {
            report = try store.truncateSession(key, before: before, expectedVersion: expectedVersion, vacuum: vacuum)
        } catch {
            // A version the session does not hold is "not found", as for `stack --at` (exit 1).
            guard case .truncationOutOfRange = error else { throw error }
            throw NotFound(description: error.description)
        }
        var nothing: String?
        if report.sessions.isEmpty {
            nothing =
                try store.base(session: key).map {
                    "nothing to truncate: the session is already truncated at base version \($0.version), so --before \(before) removes nothing"
                } ?? "nothing to truncate: there is nothing before version \(before) to remove"
        }
        return try RetentionOutput.render(report, verb: "truncated", context, nothing: nothing)
    }
}

/// `navdb prune --before TIME [--dry-run] [--vacuum]`: deletes every session whose last event is older.
struct PruneCommand: Command {
    static let changesDatabase = true
    static let spec = CommandSpec(
        abstract: "Delete every session whose last event is older than a time.",
        discussion: """
            Each session goes as with 'session delete', all in one transaction. --dry-run lists what \
            would go (sessions, events, bytes of row content) and changes no byte of the files. \
            --json prints the report of 'session delete'.
            """,
        options: [before.spec, dryRun.spec, VacuumOption.flag.spec])

    /// `--before <time>`.
    static let before = Option<Int64>(
        required: "before", "time", help: "An ISO-8601 time; sessions whose last event is at or after it stay.",
        parser: .time())
    /// `--dry-run`.
    static let dryRun = Flag("dry-run", help: "Only list what would be deleted.")

    var before: Int64
    var dryRun: Bool
    var vacuum: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        before = try arguments.value(Self.before)
        dryRun = arguments.flag(Self.dryRun)
        vacuum = arguments.flag(VacuumOption.flag)
        if dryRun && vacuum {
            throw arguments.error("'--dry-run' and '--vacuum' cannot be combined: a dry run changes nothing")
        }
    }

    func run(_ context: Context) throws -> Outcome {
        let report = try context.store().prune(before: before, dryRun: dryRun, vacuum: vacuum)
        return try RetentionOutput.render(report, verb: dryRun ? "would delete" : "deleted", context)
    }
}

/// `navdb vacuum`: shrinks the file and truncates the -wal.
struct VacuumCommand: Command {
    static let changesDatabase = true
    static let spec = CommandSpec(
        abstract: "Shrink the database file (VACUUM) and truncate its -wal; the log does not change.",
        discussion: """
            Prints the bytes before and after and the bytes reclaimed: on SQLite those of the file and its \
            -wal; on PostgreSQL those of NavStore's tables with their indexes and TOAST (the server's VACUUM \
            gives back only the free pages at a table's end, and keeps the rest for reuse). --json prints the \
            report of 'session delete', with no sessions and "storage": {"after","before","measured","reclaimed"} \
            ("measured": "sqliteFile" or "postgresqlTables"; null when not measured).
            """)

    init(_ arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: Context) throws -> Outcome {
        try RetentionOutput.render(try context.store().vacuum(), verb: "vacuumed", context)
    }
}

/// What the retention commands print.
enum RetentionOutput {
    /// What a vacuum gave back: `the file and its -wal took 1056768 bytes before, 16384 after:
    /// 1040384 bytes reclaimed`; on PostgreSQL the tables' bytes and that the server keeps the rest
    /// of deleted rows' space for reuse; `sizes not measured` when the backend could not say.
    static func storageText(_ storage: StorageChange?) -> String {
        guard let storage else { return "sizes not measured" }
        let change =
            storage.reclaimed >= 0 ? "\(storage.reclaimed) bytes reclaimed" : "grew by \(-storage.reclaimed) bytes"
        switch storage.measured {
        case .sqliteFile:
            return "the file and its -wal took \(storage.before) bytes before, \(storage.after) after: \(change)"
        case .postgresqlTables:
            return
                "NavStore's tables (with indexes and TOAST) took \(storage.before) bytes before, \(storage.after) after: \(change); PostgreSQL's VACUUM keeps deleted rows' space for the tables' later rows and gives back only free pages at a table's end"
        }
    }

    /// A table of the sessions (key, events, bytes, version, last activity) and a summary line,
    /// or the report as JSON; a warning on stderr when the -wal could not be truncated.
    /// - Parameter nothing: the summary when nothing was removed (`session truncate` says why).
    static func render(_ report: RetentionReport, verb: String, _ context: Context, nothing: String? = nil) throws
        -> Outcome
    {
        if context.json {
            try JSONOutput.print(RetentionJSON(report: report))
        } else {
            if !report.sessions.isEmpty {
                var table = Table(
                    header: ["key", "events", "bytes", "version", "base", "last activity"], rightAligned: [1, 2, 3, 4])
                for s in report.sessions {
                    table.append([
                        Text.display(s.key), String(s.events), String(s.bytes), String(s.version),
                        s.baseVersion.map(String.init) ?? "-", Timestamp.format(s.updatedAt),
                    ])
                }
                Console.out(table.render())
            }
            var summary =
                verb == "vacuumed"
                ? "vacuumed"
                : "\(verb) \(report.sessions.count) session\(report.sessions.count == 1 ? "" : "s"): \(report.events) event\(report.events == 1 ? "" : "s"), \(report.bytes) bytes"
            if report.sessions.isEmpty, let nothing { summary = nothing }
            if report.vacuumed && verb != "vacuumed" { summary += "; file vacuumed" }
            if report.vacuumed { summary += ": " + storageText(report.storage) }
            Console.line(summary)
        }
        if !report.dryRun && !(report.walTruncated && report.freeSpaceZeroed) {
            let blocked =
                report.walTruncated
                ? "the file's unused bytes could not be zeroed"
                : report.freeSpaceZeroed
                    ? "the -wal could not be checkpointed and truncated"
                    : "the -wal could not be checkpointed and truncated, nor the file's unused bytes zeroed"
            // A call that removed nothing was only finishing what an earlier one left.
            let remaining = report.sessions.isEmpty ? "bytes that earlier deletions removed" : "deleted bytes"
            Console.err(
                "warning: \(blocked) (another connection is reading or writing); \(remaining) may remain until 'navdb vacuum' succeeds, or a later deletion, truncation or prune that removes something finishes it\n"
            )
        }
        return .success
    }
}
