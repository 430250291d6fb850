import NavStore

/// `navdb session start KEY [--name N] [--expect-version 0] [--time T]`: creates a session (version 1).
struct SessionStartCommand: Command {
    static let spec = CommandSpec(
        path: ["session", "start"],
        abstract: "Start a session (an event stream for one window or scene).",
        discussion: """
            Creates the database on first use (owner-only permissions). Prints the session's version, 1. \
            A session that does not exist yet is at version 0, so --expect-version 0 is the only value \
            that lets the start go through: on an existing session it is a version conflict (exit 4).
            """,
        arguments: [.key],
        options: [
            .value("name", "name", help: "A human name for the session."),
            PlatformOption.spec(
                "The generation of UIKit rules the session follows, fixed from now on: ios14 (iOS 14-18, and iOS 26 apps with UIDesignRequiresCompatibility; the default) or ios26."
            ),
            .value(
                "expect-version", "n",
                help:
                    "Refuse with exit 4 unless the session is at version <n>; 0 for a session that must not exist yet."),
            .value(
                "time", "iso8601",
                help:
                    "The event's time (ISO-8601); now when not given; at most 24 hours ahead of the clock unless --allow-future-time."
            ),
            .flag("allow-future-time", help: "Accept a --time more than 24 hours ahead of the clock."),
        ])

    var key: String
    var name: String?
    var platform: PlatformGeneration
    var write: WriteOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        name = arguments.value("name")
        platform = try arguments.choice("platform") ?? .default
        write = try WriteOptions(arguments)
    }

    func run(_ context: Context) throws -> Outcome {
        // A missing file holds no session: an expected version other than 0 is a conflict, and
        // refused before the file is created, so the refusal leaves nothing behind.
        if let expected = write.expectedVersion, expected != 0, !context.databaseExists {
            throw StoreError.versionConflict(session: key, expected: expected, actual: 0)
        }
        return try WriteOutput.render(
            context.store(create: true).startSession(
                key, name: name, platform: platform, at: write.at, expectedVersion: write.expectedVersion), context)
    }
}
