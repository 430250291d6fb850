import NavStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `navdb set-stack KEY --json-file F|-`: replaces the top layer's entries (rule 12) with a JSON
/// array of entries shaped as `stack --json` prints them.
struct SetStackCommand: Command {
    static let spec = CommandSpec(
        path: ["set-stack"],
        abstract: "Replace the top layer's entries (last = top).",
        discussion: """
            The file holds a JSON array of entries as 'navdb stack --json' prints them: \
            [{"id": "A", "route": null, "params": null, "item": {"title": "Inbox"}}, ...]; only "id" is \
            required. JSON that does not decode exits 65 with the path and the reason.
            """,
        arguments: [.key],
        options: [
            .value("json-file", "file", help: "The JSON file, or - for stdin.", required: true)
        ] + WriteOptions.specs)

    var key: String
    var file: InputFile
    var write: WriteOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        file = InputFile(path: arguments.value("json-file") ?? "-")
        write = try WriteOptions(arguments)
    }

    func run(_ context: Context) throws -> Outcome {
        let entries = try Self.decodeEntries(file.readAll(), from: file)
        let command = NavigationCommand.setStack(entries)
        return try WriteOutput.render(
            context.store().execute(command, session: key, at: write.at, expectedVersion: write.expectedVersion),
            context)
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
