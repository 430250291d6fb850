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
            and layers, which texts are equal, and which are "", "Back" or unset. With -o FILE the \
            lines are written to FILE whole or not at all (a temporary file in the same folder, renamed; \
            readable by its owner only), as 'report -o' writes a page; FILE may replace an earlier \
            export or an empty file, never the database read or its -wal, -shm or -journal, nor any \
            other file (exit 73, nothing written).
            """,
        arguments: [key.spec],
        options: [all.spec, redact.spec, keepIDs.spec, output.spec])

    /// `[<key>]`.
    static let key = Argument(optional: "key", help: "The session key (or --all).", parser: .sessionKey)
    /// `--all`.
    static let all = Flag("all", help: "Export every session, in global seq order.")
    /// `--redact`.
    static let redact = Flag(
        "redact", help: "Replace personal text with hashes and event ids with random ones (see above for what is kept)."
    )
    /// `--keep-ids`.
    static let keepIDs = Flag("keep-ids", help: "With --redact, keep entry ids and session keys.")
    /// `-o, --output <file>`.
    static let output = Option<String?>(
        "output", "file", short: "o", help: "The file to write; without it the lines go to stdout.", parser: .path)

    var key: String?
    var redact: Bool
    var keepIDs: Bool
    var output: String?

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
        output = try arguments.value(Self.output)
        if output == "" { throw arguments.invalid("", for: "-o <file>", expected: "a file path") }
    }

    func run(_ context: Context) throws -> Outcome {
        if let output {
            // Refused before anything is read: the database itself, its -wal/-shm/-journal, or a
            // file that is not an earlier export would be lost when the lines replace it.
            let database = try context.globals.databasePath
            _ = try FileOutput.replaceable(output)
            try FileOutput.requireReplaceable(
                output, by: .export, notOver: StoreBackends.isFilePath(database) ? database : nil)
        }
        var progress = Progress("export")
        var count = 0
        var text = ""
        try context.store().exportNDJSON(session: key, redact: redact, keepIDs: keepIDs) { line in
            if output == nil {
                try Console.streamLine(line)
            } else {
                text += line
                text += "\n"
            }
            count += 1
            progress.update(count)
        }
        progress.finish()
        if let output { try FileOutput.write(text, to: output) }
        return .success
    }
}
