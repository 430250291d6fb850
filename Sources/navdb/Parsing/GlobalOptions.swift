import NavStore
import NavStoreTools

/// The options every command accepts, before or after the subcommand: `--db PATH`, `--json`,
/// `-h/--help`.
struct GlobalOptions: Sendable {
    /// The section global options are listed under in each command's help.
    static let section = "GLOBAL OPTIONS"

    /// `--db <path>`: never empty.
    static let db = Option<String?>(
        "db", "path", help: "The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).",
        section: section,
        parser: .nonEmpty(accepted).ofKind(.path))
    /// `--json`.
    static let json = Flag("json", help: "Print machine-readable JSON on stdout.", section: section)
    /// `-h`, `--help`.
    static let help = Flag("help", short: "h", help: "Show help information.", section: section)

    /// The specs the parser adds to every command (left out of usage lines).
    static let specs: [OptionSpec] = [db.spec, json.spec, help.spec].map { option in
        var option = option
        option.hiddenFromUsage = true
        return option
    }

    /// `--db`, if given.
    var db: String?
    /// `--json`.
    var json = false

    /// The global options given after the subcommand, over those given before it.
    static func read(_ arguments: ParsedArguments, over before: GlobalOptions) throws(UsageError) -> GlobalOptions {
        var globals = before
        if let db = try arguments.value(Self.db) {
            // `--db A <command> --db B`: the same refusal as an option repeated after the command.
            try CommandLineParser.refuseSecondValue(
                db, of: Self.db.spec, after: before.db.map { [$0] }, spec: arguments.spec)
            globals.db = db
        }
        if arguments.flag(Self.json) { globals.json = true }
        return globals
    }

    /// The database path: `--db`, else `$NAVDB_PATH`, else `./navdb.sqlite`.
    /// - Throws: ``UsageError`` (exit 64) when no `--db` is given and `NAVDB_PATH` is set but
    ///   empty: `NAVDB_PATH=` is usually a mistake (a variable meant to be filled), and taking it
    ///   for unset would quietly write to `./navdb.sqlite` (`--db ""` is refused by its parser);
    ///   and when either is a URI of another scheme than PostgreSQL's (`mysql://...`), which is
    ///   no file name either.
    var databasePath: String {
        get throws(UsageError) {
            if let db { return try Self.checked(db, from: "--db") }
            guard let env = getenv("NAVDB_PATH") else { return "./navdb.sqlite" }
            guard env.pointee != 0 else {
                throw UsageError(
                    "NAVDB_PATH is set but empty: expected \(Self.accepted) (unset it for ./navdb.sqlite, or give --db <path>)"
                )
            }
            return try Self.checked(String(cString: env), from: "NAVDB_PATH")
        }
    }

    /// `location` when it is a file path or a URI of a backend navdb registered (PostgreSQL's).
    /// - Throws: ``UsageError`` naming `source`, the URI without its password and its scheme
    ///   (`is a URI with the scheme 'mysql'`: no article before a scheme, which reads wrong for
    ///   most of them, `a a://`, `a x://`).
    private static func checked(_ location: String, from source: String) throws(UsageError) -> String {
        guard let scheme = StoreBackends.uriScheme(of: location), StoreBackends.backend(for: location) == nil else {
            return location
        }
        throw UsageError(
            "\(source) '\(StoreBackends.displayed(location))' is a URI with the scheme '\(scheme)', which navdb does not open: expected \(accepted)"
        )
    }

    /// What `--db` and `NAVDB_PATH` accept, as their errors say.
    static let accepted = "a file path or a postgresql:// URI"
}
