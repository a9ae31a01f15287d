#ifndef MYWORKOUT_CSQLITE_SHIM_H
#define MYWORKOUT_CSQLITE_SHIM_H

// The system's SQLite (Debian's libsqlite3-dev), plus static inline wrappers for what Swift
// cannot import: the SQLITE_TRANSIENT and SQLITE_STATIC destructor constants are casts of
// integers to function pointers. Only Sources/MyworkoutServices/SQLite uses this module.
#include <sqlite3.h>

/// Binds text that SQLite copies at once, so the Swift buffer may go away after the call.
static inline int mw_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index,
                                                 const char *text, int bytes) {
  return sqlite3_bind_text(statement, index, text, bytes, SQLITE_TRANSIENT);
}

/// Binds a blob that SQLite copies at once.
static inline int mw_sqlite3_bind_blob_transient(sqlite3_stmt *statement, int index,
                                                 const void *bytes, int count) {
  return sqlite3_bind_blob(statement, index, bytes, count, SQLITE_TRANSIENT);
}

#endif
