#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The options every command accepts, before or after the subcommand: `--db PATH`, `--json`,
/// `-h/--help`.
struct GlobalOptions: Sendable {
    /// The section global options are listed under in each command's help.
    static let section = "GLOBAL OPTIONS"

    /// The specs the parser adds to every command.
    static let specs: [OptionSpec] = [
        OptionSpec(
            name: "db", kind: .value, valueName: "path",
            help: "The database file (default: $NAVDB_PATH, else ./navdb.sqlite).",
            section: section, hiddenFromUsage: true),
        OptionSpec(
            name: "json", kind: .flag, help: "Print machine-readable JSON on stdout.",
            section: section, hiddenFromUsage: true),
        OptionSpec(
            name: "help", shortName: "h", kind: .flag, help: "Show help information.",
            section: section, hiddenFromUsage: true),
    ]

    /// `--db`, if given.
    var db: String?
    /// `--json`.
    var json = false

    /// The database path: `--db`, else `$NAVDB_PATH` (when set and not empty), else `./navdb.sqlite`.
    var databasePath: String {
        if let db { return db }
        if let env = getenv("NAVDB_PATH"), env.pointee != 0 { return String(cString: env) }
        return "./navdb.sqlite"
    }
}
