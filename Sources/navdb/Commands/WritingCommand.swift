import NavStore
import NavStoreTools

/// What differs between the writing commands (`session start`, `push`, `pop`, ...): their help,
/// their own arguments and options, and the change they ask the store for. The rest, `<key>`
/// first, the ``WriteOptions`` last, opening the store and printing the version, is
/// ``WritingCommand``'s, in one place.
protocol WriteAction: Sendable {
    /// The help text, the arguments after `<key>` and the options before the write options.
    static var spec: CommandSpec { get }
    /// Validates the action's own arguments and options; nothing is opened yet.
    /// - Throws: ``UsageError`` (exit 64).
    init(_ arguments: ParsedArguments) throws(UsageError)
    /// Whether the command takes `--tab <id>` (<doc:TabBars>): the commands a tab's stack off screen takes.
    static var takesTab: Bool { get }
    /// What the output says when the command succeeded without an event (`nil`: nothing to do).
    var unchanged: String? { get }
    /// Appends the action's event to `session`.
    /// - Throws: whatever the store throws (refused, not found, version conflict, ...).
    func append(_ context: Context, session: String, write: WriteOptions) throws -> AppendResult
}

extension WriteAction {
    static var takesTab: Bool { false }
    var unchanged: String? { nil }
}

/// A writing action that is one ``NavigationCommand`` for the store to decide on and append.
protocol NavigationAction: WriteAction {
    /// The command the store decides on.
    var command: NavigationCommand { get }
}

extension NavigationAction {
    /// Every navigation command takes `--tab`; the rules say which a tab's stack off screen takes.
    static var takesTab: Bool { true }

    func append(_ context: Context, session: String, write: WriteOptions) throws -> AppendResult {
        try context.store().execute(
            write.tab.map { .inTab($0, command) } ?? command, session: session, at: write.at,
            expectedVersion: write.expectedVersion)
    }
}

/// A writing command: `navdb WORDS <key> [arguments] [options] [--expect-version N] [--time T]`,
/// which appends at most one event and prints the session's version after it. A conforming type
/// only names its ``WriteAction`` and stores the three parts; parsing, the spec and the run are
/// this protocol's. (A protocol and not a generic struct: a generic command's type would be
/// instantiated at run time, with a search of the binary's conformances that cost a one-shot
/// `navdb push` as much as the rest of its work.)
protocol WritingCommand: Command {
    /// What the command adds to a writing command.
    associatedtype Action: WriteAction
    /// The session key.
    var key: String { get }
    /// The action's own arguments and options.
    var action: Action { get }
    /// `--expect-version`, `--time`.
    var write: WriteOptions { get }
    /// The memberwise initializer.
    init(key: String, action: Action, write: WriteOptions)
}

extension WritingCommand {
    static var changesDatabase: Bool { true }

    static var spec: CommandSpec {
        var spec = Action.spec
        spec.arguments.insert(Argument.key.spec, at: 0)
        spec.options += (Action.takesTab ? [WriteOptions.tab.spec] : []) + WriteOptions.options
        return spec
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let key = try arguments.value(Argument.key)
        let action = try Action(arguments)
        self.init(key: key, action: action, write: try WriteOptions(arguments))
    }

    func run(_ context: Context) throws -> Outcome {
        try WriteOutput.render(action.append(context, session: key, write: write), context, unchanged: action.unchanged)
    }
}
