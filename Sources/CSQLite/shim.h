#ifndef EVIDENCE_CSQLITE_SHIM_H
#define EVIDENCE_CSQLITE_SHIM_H

#include <sqlite3.h>

/// sqlite3_db_config is variadic, which Swift cannot call; these wrap the
/// integer-valued options (SQLITE_DBCONFIG_DEFENSIVE, _TRUSTED_SCHEMA, ...).
static inline int csqlite_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

/// SQLITE_TRANSIENT is a cast macro Swift does not import: SQLite copies the
/// bound text or blob before the bind call returns.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// sqlite3_config is variadic too. Turns off SQLite's memory statistics, whose
/// global mutex every allocation would take; must run before SQLite initialises.
static inline int csqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
