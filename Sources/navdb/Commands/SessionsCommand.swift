import NavStore
import NavStoreTools

/// `navdb sessions`: every session with its version, layers, depth and last activity.
struct SessionsCommand: Command {
    static let spec = CommandSpec(
        abstract: "List the sessions with their depth and last activity.",
        discussion:
            "--json prints an array of {\"key\",\"name\",\"version\",\"layers\",\"depth\",\"platform\",\"createdAt\",\"createdTime\",\"updatedAt\",\"updatedTime\"} (each time in ms since the Unix epoch and as ISO-8601 text)."
    )

    init(_ arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: Context) throws -> Outcome {
        let sessions = try context.store().sessions()
        if context.json {
            try JSONOutput.print(sessions.map(SessionJSON.init))
            return .success
        }
        if sessions.isEmpty {
            Console.line("no sessions")
            return .success
        }
        var table = Table(
            header: ["key", "name", "version", "layers", "depth", "platform", "started", "last activity"],
            rightAligned: [2, 3, 4])
        for s in sessions {
            table.append([
                Text.display(s.key), Text.display(s.name), String(s.version), String(s.layers), String(s.depth),
                s.platform.rawValue,
                Timestamp.format(s.createdAt), Timestamp.format(s.updatedAt),
            ])
        }
        Console.out(table.render())
        return .success
    }
}
