#ifndef NAVSTORE_CSQLITE_SHIM_H
#define NAVSTORE_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
