import NavStore

/// What differs between the writing commands (`session start`, `push`, `pop`, ...): their help,
/// their own arguments and options, and the change they ask the store for. The rest, `<key>`
/// first, the ``WriteOptions`` last, opening the store and printing the version, is
/// ``WriteCommand``'s, in one place.
protocol WriteAction: Sendable {
    /// The help text, the arguments after `<key>` and the options before the write options.
    static var spec: CommandSpec { get }
    /// Validates the action's own arguments and options; nothing is opened yet.
    /// - Throws: ``UsageError`` (exit 64).
    init(_ arguments: ParsedArguments) throws(UsageError)
    /// What the output says when the command succeeded without an event (`nil`: nothing to do).
    var unchanged: String? { get }
    /// Appends the action's event to `session`.
    /// - Throws: whatever the store throws (refused, not found, version conflict, ...).
    func append(_ context: Context, session: String, write: WriteOptions) throws -> AppendResult
}

extension WriteAction {
    var unchanged: String? { nil }
}

/// A writing action that is one ``NavigationCommand`` for the store to decide on and append.
protocol NavigationAction: WriteAction {
    /// The command the store decides on.
    var command: NavigationCommand { get }
}

extension NavigationAction {
    func append(_ context: Context, session: String, write: WriteOptions) throws -> AppendResult {
        try context.store().execute(command, session: session, at: write.at, expectedVersion: write.expectedVersion)
    }
}

/// A writing command: `navdb WORDS <key> [arguments] [options] [--expect-version N] [--time T]`,
/// which appends at most one event and prints the session's version after it.
struct WriteCommand<Action: WriteAction>: Command {
    static var spec: CommandSpec {
        var spec = Action.spec
        spec.arguments.insert(Argument.key.spec, at: 0)
        spec.options += WriteOptions.options
        return spec
    }

    var key: String
    var action: Action
    var write: WriteOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = try arguments.value(Argument.key)
        action = try Action(arguments)
        write = try WriteOptions(arguments)
    }

    func run(_ context: Context) throws -> Outcome {
        try WriteOutput.render(action.append(context, session: key, write: write), context, unchanged: action.unchanged)
    }
}
