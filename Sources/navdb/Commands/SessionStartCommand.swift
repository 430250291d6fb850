import NavStore
import NavStoreTools

/// `navdb session start KEY [--name N] [--platform G] [--expect-version 0] [--time T]`: creates a
/// session (version 1).
struct SessionStartCommand: WritingCommand {
    var key: String
    var action: SessionStartAction
    var write: WriteOptions
}

/// What `session start` adds to a writing command: the session's name and generation.
struct SessionStartAction: WriteAction {
    /// `--name <name>`.
    static let name = Option<String?>("name", "name", help: "A human name for the session.")
    /// `--platform <generation>`: fixed from the start.
    static let platform = Option<PlatformGeneration>(
        "platform", "generation", default: .default,
        help:
            "The generation of UIKit rules the session follows, fixed from now on: ios14 (iOS 14-18, and iOS 26 apps with UIDesignRequiresCompatibility) or ios26.",
        parser: PlatformGeneration.parser)

    static let spec = CommandSpec(
        abstract: "Start a session (an event stream for one window or scene).",
        discussion: """
            Creates the database on first use (owner-only permissions). Prints the session's version, 1. \
            A session that does not exist yet is at version 0, so --expect-version 0 is the only value \
            that lets the start go through: on an existing session it is a version conflict (exit 4).
            """,
        options: [name.spec, platform.spec])

    var name: String?
    var platform: PlatformGeneration

    init(_ arguments: ParsedArguments) throws(UsageError) {
        name = try arguments.value(Self.name)
        platform = try arguments.value(Self.platform)
    }

    func append(_ context: Context, session: String, write: WriteOptions) throws -> AppendResult {
        // A missing file holds no session: an expected version other than 0 is a conflict, and
        // refused before the file is created, so the refusal leaves nothing behind.
        if let expected = write.expectedVersion, expected != 0, try !context.databaseExists {
            throw StoreError.versionConflict(session: session, expected: expected, actual: 0)
        }
        return try context.store(create: true).startSession(
            session, name: name, platform: platform, at: write.at, expectedVersion: write.expectedVersion)
    }
}
