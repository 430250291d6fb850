import NavStore

/// `navdb session start KEY [--name N] [--time T]`: creates a session (version 1).
struct SessionStartCommand: Command {
    static let spec = CommandSpec(
        path: ["session", "start"],
        abstract: "Start a session (an event stream for one window or scene).",
        discussion: "Creates the database on first use (owner-only permissions). Prints the session's version, 1.",
        arguments: [.key],
        options: [
            .value("name", "name", help: "A human name for the session."),
            .value("time", "iso8601", help: "The event's time (ISO-8601); now when not given."),
        ])

    var key: String
    var name: String?
    var at: Int64?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        name = arguments.value("name")
        at = try arguments.time("time")
    }

    func run(_ context: Context) throws -> Outcome {
        try WriteOutput.render(context.store(create: true).startSession(key, name: name, at: at), context)
    }
}
