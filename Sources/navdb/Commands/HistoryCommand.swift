import NavStore
import NavStoreTools

/// `navdb history KEY [--type T]... [--entry ID] [--since T] [--until T] [--limit N] [--reverse]`:
/// the session's events, streamed.
struct HistoryCommand: Command {
    static let spec = CommandSpec(
        abstract: "List a session's events (streamed; any length).",
        discussion: """
            Human output: version, time, type and a one-line summary. --json prints one event per line: \
            {"at","eventID","payload","seq","session","time","type","version"} (at in ms since the Unix epoch). \
            A truncated session's history starts at its base: a note first, or with --json its \
            {"type":"session.truncated"} record (as in export; last with --reverse).
            """,
        arguments: [Argument.key.spec],
        options: [type.spec, entry.spec, since.spec, until.spec, limit.spec, reverse.spec])

    /// `--type <type> ...`.
    static let type = Option<[String]>(
        repeating: "type", "type", help: "Only events of this type (repeatable).",
        parser: .choice(EventBody.typeNames))
    /// `--entry <id>`.
    static let entry = Option<String?>("entry", "id", help: "Only events that name this entry.")
    /// `--since <time>`: digits below a millisecond round up, into the range.
    static let since = Option<Int64?>(
        "since", "time",
        help: "Only events at or after this ISO-8601 time (digits below a millisecond round up, into the range).",
        parser: .time(rounding: .up))
    /// `--until <time>`.
    static let until = Option<Int64?>(
        "until", "time",
        help: "Only events at or before this ISO-8601 time (digits below a millisecond round down, into the range).",
        parser: .time())
    /// `--limit <n>`.
    static let limit = Option<Int?>("limit", "n", help: "At most <n> events.", parser: .integer(atLeast: 1))
    /// `--reverse`.
    static let reverse = Flag("reverse", help: "Newest first.")

    var key: String
    var filter: EventFilter

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = try arguments.value(Argument.key)
        let types = try arguments.value(Self.type)
        // Digits below a millisecond round towards the inside of the range (up for --since), so
        // an empty range is judged on the times as given (rounded down alike).
        let since = try arguments.value(Self.since)
        let until = try arguments.value(Self.until)
        // An empty range is a mistake in the command, as `replay --from 5 --to 2` is: exit 64.
        if let since = arguments.text(Self.since).flatMap({ Timestamp.parse($0, rounding: .down) }), let until,
            until < since
        {
            throw arguments.invalid(
                arguments.text(Self.until) ?? "", for: Self.until.spec.synopsis,
                expected: "a time at or after --since \(arguments.text(Self.since) ?? "")")
        }
        filter = EventFilter(
            types: types.isEmpty ? nil : Set(types), entry: try arguments.value(Self.entry), since: since,
            until: until, limit: try arguments.value(Self.limit), reverse: arguments.flag(Self.reverse))
    }

    func run(_ context: Context) throws -> Outcome {
        let store = try context.store()
        var progress = Progress("history")
        var count = 0
        let encoder = JSONOutput.makeEncoder()
        // A truncated session's history starts at its base, and says so (NavStore.docc/Retention.md): a note
        // before the events, or with --json the base's session.truncated record, as in export.
        let base = try store.base(session: key)
        if let base {
            if context.json {
                if !filter.reverse { Console.line(try base.record().jsonLine()) }
            } else {
                Console.line(HistoryCommand.truncationNote(base))
            }
        }
        try store.events(session: key, filter: filter) { event in
            if count == 0 && !context.json { try Console.streamLine(EventLines.header) }
            try Console.streamLine(context.json ? try EventJSON.line(event, encoder: encoder) : EventLines.human(event))
            count += 1
            progress.update(count)
        }
        progress.finish()
        if let base, context.json, filter.reverse { Console.line(try base.record().jsonLine()) }
        if !context.json && count == 0 { Console.line("(no events match)") }
        return .success
    }

    /// `(truncated at T: history starts after base version B, whose state is kept; earlier events were deleted)`.
    static func truncationNote(_ base: SessionBase) -> String {
        "(truncated at \(Timestamp.format(base.truncatedAt)): history starts after base version \(base.version), whose state is kept; the events up to it were deleted)"
    }
}
