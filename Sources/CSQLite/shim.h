#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call. Memory statistics make every SQLite
// allocation take a global mutex; routine never reads them. Must run before sqlite3_initialize.
static inline int csqlite_disable_memory_statistics(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
