#ifndef NAVSTORE_CLIBPQ_SHIM_H
#define NAVSTORE_CLIBPQ_SHIM_H
/*
 * libpq's declarations (Debian's libpq-dev installs them in /usr/include/postgresql).
 * navdb does not link libpq: NavStore loads libpq.so.5 with dlopen the first time a
 * postgresql:// database is opened, so the statically linked navdb still builds (Debian ships no
 * static Kerberos or LDAP libraries, which libpq.a needs) and SQLite users never load it.
 * The typedefs below give each function navdb calls its exact C type, taken from the header
 * with __typeof__ (an unevaluated use: it references no symbol).
 */
#include <postgresql/libpq-fe.h>

typedef __typeof__(PQconnectdb) *navdb_PQconnectdb;
typedef __typeof__(PQfinish) *navdb_PQfinish;
typedef __typeof__(PQstatus) *navdb_PQstatus;
typedef __typeof__(PQerrorMessage) *navdb_PQerrorMessage;
typedef __typeof__(PQexecParams) *navdb_PQexecParams;
typedef __typeof__(PQexec) *navdb_PQexec;
typedef __typeof__(PQsendQueryParams) *navdb_PQsendQueryParams;
typedef __typeof__(PQsetSingleRowMode) *navdb_PQsetSingleRowMode;
typedef __typeof__(PQprepare) *navdb_PQprepare;
typedef __typeof__(PQexecPrepared) *navdb_PQexecPrepared;
typedef __typeof__(PQsendQueryPrepared) *navdb_PQsendQueryPrepared;
typedef __typeof__(PQresultStatus) *navdb_PQresultStatus;
typedef __typeof__(PQresultErrorField) *navdb_PQresultErrorField;
typedef __typeof__(PQresultErrorMessage) *navdb_PQresultErrorMessage;
typedef __typeof__(PQclear) *navdb_PQclear;
typedef __typeof__(PQntuples) *navdb_PQntuples;
typedef __typeof__(PQnfields) *navdb_PQnfields;
typedef __typeof__(PQfname) *navdb_PQfname;
typedef __typeof__(PQftype) *navdb_PQftype;
typedef __typeof__(PQgetvalue) *navdb_PQgetvalue;
typedef __typeof__(PQgetlength) *navdb_PQgetlength;
typedef __typeof__(PQgetisnull) *navdb_PQgetisnull;
typedef __typeof__(PQcmdTuples) *navdb_PQcmdTuples;
typedef __typeof__(PQputCopyData) *navdb_PQputCopyData;
typedef __typeof__(PQputCopyEnd) *navdb_PQputCopyEnd;
typedef __typeof__(PQgetResult) *navdb_PQgetResult;
typedef __typeof__(PQsetNoticeProcessor) *navdb_PQsetNoticeProcessor;
typedef __typeof__(PQtransactionStatus) *navdb_PQtransactionStatus;
typedef __typeof__(PQserverVersion) *navdb_PQserverVersion;
typedef __typeof__(PQunescapeBytea) *navdb_PQunescapeBytea;
typedef __typeof__(PQfreemem) *navdb_PQfreemem;
#endif
