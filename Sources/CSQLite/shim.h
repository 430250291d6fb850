#ifndef NAVSTORE_CSQLITE_SHIM_H
#define NAVSTORE_CSQLITE_SHIM_H
#include <sqlite3.h>

// sqlite3_config and sqlite3_db_config take variable arguments, which Swift cannot pass: each
// option NavStore uses gets a fixed signature here.

/// `sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on)` (https://sqlite.org/c3ref/c_config_covering_index_scan.html#sqliteconfigmemstatus):
/// only before SQLite is initialized; `SQLITE_MISUSE` after.
static inline int navstore_sqlite3_config_memstatus(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}

/// `sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FKEY, on, &now)` (https://sqlite.org/c3ref/c_dbconfig_defensive.html#sqlitedbconfigenablefkey):
/// `*now` receives whether enforcement is on after the call.
static inline int navstore_sqlite3_db_config_enable_fkey(sqlite3 *db, int on, int *now) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FKEY, on, now);
}
#endif
