import NavStore
import NavStoreTools

/// `navdb set-stack KEY --json-file F|-`: replaces the top layer's entries with a JSON array of
/// entries shaped as `stack --json` prints them.
struct SetStackCommand: WritingCommand {
    var key: String
    var action: SetStackAction
    var write: WriteOptions
}

/// What `set-stack` adds to a writing command: the file of entries.
struct SetStackAction: WriteAction {
    static let takesTab = true
    /// `--json-file <file>`.
    static let jsonFile = Option<String>(
        required: "json-file", "file", help: "The JSON file, or - for stdin.", parser: .path)

    static let spec = CommandSpec(
        abstract: "Replace the top layer's entries (last = top).",
        discussion: """
            The file holds a JSON array of entries as 'navdb stack --json' prints them: \
            [{"id": "A", "route": null, "params": null, "item": {"title": "Inbox"}}, ...]; only "id" is \
            required. Every error about the file names it and the JSON path of the bad entry or value \
            ("invalid entries in 'stack.json': ... at [1].id"): JSON that does not decode, an empty id, or a number \
            or key NavStore would not keep exactly exits 65; an id given twice or live in another layer, or an empty \
            array, is refused by the rules (exit 1).
            """,
        options: [jsonFile.spec])

    var file: InputFile

    init(_ arguments: ParsedArguments) throws(UsageError) {
        file = InputFile(path: try arguments.value(Self.jsonFile))
    }

    func append(_ context: Context, session: String, write: WriteOptions) throws -> AppendResult {
        let entries = try Self.decodeEntries(file.readAll(), from: file)
        do {
            return try context.store().execute(
                write.tab.map { .inTab($0, .setStack(entries)) } ?? .setStack(entries), session: session,
                at: write.at, expectedVersion: write.expectedVersion)
        } catch StoreError.rules(let rules) {
            // The rules name the entry; the file's reader wants its place in the file too.
            guard let location = Self.location(of: rules, in: entries) else { throw StoreError.rules(rules) }
            throw EntriesFileError(file: file.name, error: .rules(rules), location: location)
        }
    }

    /// Where in the file the entry a rule refused is, as a decoding error says it
    /// (` at [1].id`), or `nil` for a refusal about no entry in particular.
    static func location(of error: NavigationError, in entries: [Entry]) -> String? {
        // Ids are compared by their bytes, as the rules compare them.
        func places(_ id: String) -> [Int] { entries.indices.filter { entries[$0].id.utf8.elementsEqual(id.utf8) } }
        switch error {
        case .emptyStackReplacement: return " (the array is empty)"
        case .emptyEntryID: return places("").first.map { " at [\($0)].id" }
        case .duplicateEntryInReplacement(let id):
            let found = places(id).prefix(2).map { "[\($0)].id" }
            return found.isEmpty ? nil : " at " + found.joined(separator: " and ")
        case .entryAlreadyLive(let id, _, _): return places(id).first.map { " at [\($0)].id" }
        case .invalidParams(let id, _): return places(id).first.map { " at [\($0)].params" }
        default: return nil
        }
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

/// A set-stack file whose entries the rules refused, with the place of the entry in the file:
/// `invalid entries in 'stack.json': the entry id '' is empty: ... at [1].id`, with the exit code
/// of the refusal (65 for an empty id, 1 for a rule such as distinct ids).
struct EntriesFileError: Error {
    /// How messages name the file: `'stack.json'` or `stdin`.
    var file: String
    /// The refusal.
    var error: StoreError
    /// Where the entry is, ` at [1].id`.
    var location: String
}
