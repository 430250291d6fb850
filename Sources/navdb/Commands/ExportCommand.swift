import NavStore

/// `navdb export KEY|--all [--redact] [--keep-ids]`: the events as NDJSON, one per line, as
/// `navdb import` reads them (the store's ``NavigationStore/exportNDJSON(session:redact:keepIDs:_:)``).
struct ExportCommand: Command {
    static let spec = CommandSpec(
        path: ["export"],
        abstract: "Print a session's events (or every session's) as NDJSON for 'navdb import'.",
        discussion: """
        Each line is {"at","eventID","payload","seq","session","time","type","version"}. --redact \
        replaces titles, prompts, names, routes, params keys and string values (at any depth) and \
        (unless --keep-ids) entry ids and session keys with hashes that are consistent within one \
        export ("" is kept; numbers, booleans and null in params carry no text and are kept), so the \
        redacted log still imports and replays to the same stacks, buttons and menus.
        """,
        arguments: [ArgumentSpec(name: "key", help: "The session key (or --all).", isOptional: true)],
        options: [
            .flag("all", help: "Export every session, in global seq order."),
            .flag("redact", help: "Replace personal text with hashes."),
            .flag("keep-ids", help: "With --redact, keep entry ids and session keys."),
        ])

    var key: String?
    var redact: Bool
    var keepIDs: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.optionalArgument("key")
        let all = arguments.flag("all")
        if key == nil && !all { throw arguments.error("Missing expected argument '<key>' (or --all for every session)") }
        if key != nil && all { throw arguments.error("Give either <key> or --all, not both") }
        redact = arguments.flag("redact")
        keepIDs = arguments.flag("keep-ids")
        if keepIDs && !redact { throw arguments.error("--keep-ids only applies with --redact") }
    }

    func run(_ context: Context) throws -> Outcome {
        var progress = Progress("export")
        var count = 0
        try context.store().exportNDJSON(session: key, redact: redact, keepIDs: keepIDs) { line in
            try Console.streamLine(line)
            count += 1
            progress.update(count)
        }
        progress.finish()
        return .success
    }
}
