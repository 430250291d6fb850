import NavStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `navdb set-stack KEY --json-file F|-`: replaces the top layer's entries with a JSON array of
/// entries shaped as `stack --json` prints them.
struct SetStackCommand: WritingCommand {
    var key: String
    var action: SetStackAction
    var write: WriteOptions
}

/// What `set-stack` adds to a writing command: the file of entries.
struct SetStackAction: WriteAction {
    /// `--json-file <file>`.
    static let jsonFile = Option<String>(
        required: "json-file", "file", help: "The JSON file, or - for stdin.", parser: String.parser)

    static let spec = CommandSpec(
        abstract: "Replace the top layer's entries (last = top).",
        discussion: """
            The file holds a JSON array of entries as 'navdb stack --json' prints them: \
            [{"id": "A", "route": null, "params": null, "item": {"title": "Inbox"}}, ...]; only "id" is \
            required. JSON that does not decode exits 65 with the path and the reason.
            """,
        options: [jsonFile.spec])

    var file: InputFile

    init(_ arguments: ParsedArguments) throws(UsageError) {
        file = InputFile(path: try arguments.value(Self.jsonFile))
    }

    func append(_ context: Context, session: String, write: WriteOptions) throws -> AppendResult {
        let entries = try Self.decodeEntries(file.readAll(), from: file)
        return try context.store().execute(
            .setStack(entries), session: session, at: write.at, expectedVersion: write.expectedVersion)
    }

    /// Decodes `[Entry]`.
    /// - Throws: ``InputError`` naming the input, the coding path and the reason.
    static func decodeEntries(_ bytes: [UInt8], from file: InputFile) throws(InputError) -> [Entry] {
        // Checked before decoding: `JSONDecoder` would call a file nested past its own limit "not
        // valid JSON", and would keep one of two equal keys or round a number without a word.
        let check = JSONTextCheck(wrapperLevels: 2)
        if let problem = bytes.withUnsafeBufferPointer({ check.problem(in: $0) }) {
            throw InputError(description: "invalid entries in \(file.name): \(problem)")
        }
        do {
            return try JSONDecoder().decode([Entry].self, from: Data(bytes))
        } catch {
            throw InputError(
                description:
                    "invalid entries in \(file.name): \(describeDecodingError(error)) (expected a JSON array of {\"id\", \"route\", \"params\", \"item\"})"
            )
        }
    }
}
