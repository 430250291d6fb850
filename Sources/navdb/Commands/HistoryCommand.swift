import NavStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `navdb history KEY [--type T]... [--entry ID] [--since T] [--until T] [--limit N] [--reverse]`:
/// the session's events, streamed.
struct HistoryCommand: Command {
    static let spec = CommandSpec(
        path: ["history"],
        abstract: "List a session's events (streamed; any length).",
        discussion: """
            Human output: version, time, type and a one-line summary. --json prints one event per line: \
            {"at","eventID","payload","seq","session","time","type","version"} (at in ms since the Unix epoch). \
            A truncated session's history starts at its base: a note first, or with --json its \
            {"type":"session.truncated"} record (as in export; last with --reverse).
            """,
        arguments: [.key],
        options: [
            .repeating(
                "type", "type",
                help: "Only events of this type (repeatable): \(EventBody.typeNames.joined(separator: ", ")).",
                choices: EventBody.typeNames),
            .value("entry", "id", help: "Only events that name this entry."),
            .value(
                "since", "time",
                help:
                    "Only events at or after this ISO-8601 time (digits below a millisecond round up, into the range)."),
            .value(
                "until", "time",
                help:
                    "Only events at or before this ISO-8601 time (digits below a millisecond round down, into the range)."
            ),
            .value("limit", "n", help: "At most <n> events."),
            .flag("reverse", help: "Newest first."),
        ])

    var key: String
    var filter: EventFilter

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        var types: Set<String>?
        for type in arguments.allValues("type") {
            guard EventBody.typeNames.contains(type) else {
                throw arguments.invalid(
                    type, for: "--type <type>", expected: "one of \(EventBody.typeNames.joined(separator: ", "))")
            }
            types = (types ?? []).union([type])
        }
        // Digits below a millisecond round towards the inside of the range (up for --since), so
        // an empty range is judged on the times as given (rounded down alike).
        let since = try arguments.time("since", rounding: .up)
        let sinceAsGiven = try arguments.time("since")
        let until = try arguments.time("until")
        // An empty range is a mistake in the command, as `replay --from 5 --to 2` is: exit 64.
        if let sinceAsGiven, let until, until < sinceAsGiven {
            throw arguments.invalid(
                arguments.value("until") ?? "", for: "--until <time>",
                expected: "a time at or after --since \(arguments.value("since") ?? "")")
        }
        filter = EventFilter(
            types: types, entry: arguments.value("entry"), since: since,
            until: until, limit: try arguments.int("limit", minimum: 1),
            reverse: arguments.flag("reverse"))
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
