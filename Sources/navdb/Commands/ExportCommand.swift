import NavStore
import NavStoreTools

/// `navdb export KEY|--all [--redact] [--keep-ids]`: the events as NDJSON, one per line, as
/// `navdb import` reads them (the store's ``NavigationStore/exportNDJSON(session:redact:keepIDs:_:)``).
struct ExportCommand: Command {
    static let spec = CommandSpec(
        abstract: "Print a session's events (or every session's) as NDJSON for 'navdb import'.",
        discussion: """
            Each line is {"at","eventID","payload","previous","seq","session","time","type","version"}; \
            "previous" is the event id of the session's event before it (left out on version 1), so \
            'navdb import' refuses a line on top of another history. --redact replaces titles, back \
            titles, custom back item titles, menu titles, prompts, session names, routes, params keys \
            and string values (at any depth) and, unless --keep-ids, entry ids and session keys, with \
            "h:" + 16 hex digits of a keyed hash drawn for this export (the same text gives the same \
            hash within one export, never across exports; lengths are not kept). It keeps exactly "", \
            "Back" and unset texts (the only texts the rules compare a label with), numbers, booleans \
            and null in params, and every shape, so the redacted log imports and replays to the same \
            stacks, back buttons (label, fallbacks) and back menus, each text hashed; what fits a given \
            --width can differ. Event ids become fresh random UUIDv4s (no time, nothing derived from \
            content, shared by no other export) and seq is renumbered from 1. A redacted export still \
            reveals times to the millisecond, event types and counts, versions, sources, flags, depths \
            and layers, which texts are equal, and which are "", "Back" or unset.
            """,
        arguments: [key.spec],
        options: [all.spec, redact.spec, keepIDs.spec])

    /// `[<key>]`.
    static let key = Argument(optional: "key", help: "The session key (or --all).", parser: String.parser)
    /// `--all`.
    static let all = Flag("all", help: "Export every session, in global seq order.")
    /// `--redact`.
    static let redact = Flag(
        "redact", help: "Replace personal text with hashes and event ids with random ones (see above for what is kept)."
    )
    /// `--keep-ids`.
    static let keepIDs = Flag("keep-ids", help: "With --redact, keep entry ids and session keys.")

    var key: String?
    var redact: Bool
    var keepIDs: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = try arguments.value(Self.key)
        let all = arguments.flag(Self.all)
        if key == nil && !all {
            throw arguments.error("Missing expected argument '<key>' (or --all for every session)")
        }
        if key != nil && all { throw arguments.error("Give either <key> or --all, not both") }
        redact = arguments.flag(Self.redact)
        keepIDs = arguments.flag(Self.keepIDs)
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
