/// Settings of the process's SQLite library, for a program that owns its process (a command-line
/// tool's `main`), never made by opening a store.
extension NavigationStore {
    /// Turns off SQLite's memory statistics for the whole process (`SQLITE_CONFIG_MEMSTATUS`,
    /// https://sqlite.org/c3ref/c_config_covering_index_scan.html#sqliteconfigmemstatus), as
    /// SQLite's recommended build options do (`SQLITE_DEFAULT_MEMSTATUS=0`,
    /// https://sqlite.org/compile.html#recommended_compile_time_options): each allocation SQLite
    /// makes then skips a global mutex and two counters, a noticeable share of a one-shot
    /// command-line append. `sqlite3_memory_used()` and the memory counters of `sqlite3_status()`
    /// report 0 afterwards; nothing in NavStore reads them.
    ///
    /// A process-wide setting that SQLite accepts only before it is initialized (by the first
    /// database opened in the process): call it at start-up. An app whose other code may read
    /// SQLite's memory statistics should not call it; stores work the same either way.
    /// - Returns: `true` when the setting took; `false` when SQLite was already initialized (the
    ///   statistics then stay as they were).
    @discardableResult
    public static func disableSQLiteMemoryStatistics() -> Bool {
        Connection.disableMemoryStatistics()
    }
}
