#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot call: one wrapper per use. */
static inline int habitcore_sqlite_config_memstatus(int enabled) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled);
}
