import NavStore
import NavStoreTools

/// One `navdb` subcommand: a declarative spec, validation of the parsed words into typed values,
/// and a run that calls the library and renders the result. Its name is declared where it is
/// listed, in the command tree (``NavDB/configuration``).
protocol Command: Sendable {
    /// The command's help text, arguments and options (its path comes from the command tree).
    static var spec: CommandSpec { get }
    /// Validates the parsed words (ints, enums, times); nothing is opened yet.
    /// - Throws: ``UsageError`` (exit 64).
    init(_ arguments: ParsedArguments) throws(UsageError)
    /// Runs the command and prints its output.
    /// - Returns: how it ended (`.vetoed` exits 3 after the normal output).
    /// - Throws: ``StoreError``, ``InputError`` or anything the one error mapping understands.
    func run(_ context: Context) throws -> Outcome
    /// Whether the command can change the database. Such a command ignores `SIGPIPE`, so a
    /// closed pipe on stdout is a failed write it reports (exit 73, saying what it stored), not a
    /// silent death after its commit; a reading command keeps the default and ends quietly at
    /// `| head`, as other Unix tools do.
    static var changesDatabase: Bool { get }
}

extension Command {
    static var changesDatabase: Bool { false }
}

/// How a command that did not throw ended.
enum Outcome {
    /// Exit 0.
    case success
    /// A guard vetoed the command; the veto was recorded (exit 3).
    case vetoed
    /// `lint` found a defect at or above `--fail-on` (exit 2, after the normal output).
    case lintFindings
}

/// What a running command gets: the global options and access to the store.
struct Context {
    /// `--db`, `--json`.
    var globals: GlobalOptions

    /// Whether to print JSON.
    var json: Bool { globals.json }

    /// Whether a database exists at the database path (``NavigationStore/databaseExists(at:options:)``:
    /// a file, or a PostgreSQL schema holding NavStore's tables).
    /// - Throws: ``UsageError`` for an empty `NAVDB_PATH` (``GlobalOptions/databasePath``);
    ///   ``StoreError`` when a PostgreSQL server cannot be reached.
    var databaseExists: Bool {
        get throws { try NavigationStore.databaseExists(at: try globals.databasePath) }
    }

    /// Opens the database. Reads pass `create: false`, so a missing file is an error instead of a
    /// new empty database; only `session start` and `import` create one. An older file is
    /// migrated on opening, which the NavStore that wrote it cannot undo: stderr says so once, in
    /// a `navdb: note:` line.
    /// - Throws: ``UsageError`` for an empty `NAVDB_PATH`; ``StoreError`` when it cannot be opened.
    func store(create: Bool = false) throws -> NavigationStore {
        let store = try NavigationStore(path: globals.databasePath, create: create)
        Failure.openedDatabase = store.path
        if let from = store.upgradedFrom {
            Console.err(
                "navdb: note: upgraded '\(Text.escaped(store.path))' from schema \(from) to schema \(NavigationStore.schemaVersion); a navdb of schema \(from) cannot open it any more\n"
            )
        }
        return store
    }
}
