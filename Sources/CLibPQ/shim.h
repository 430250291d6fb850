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

typedef __typeof__(PQconnectdb) *libpq_PQconnectdb;
typedef __typeof__(PQfinish) *libpq_PQfinish;
typedef __typeof__(PQstatus) *libpq_PQstatus;
typedef __typeof__(PQconsumeInput) *libpq_PQconsumeInput;
typedef __typeof__(PQsocket) *libpq_PQsocket;
typedef __typeof__(PQnotifies) *libpq_PQnotifies;
typedef __typeof__(PQerrorMessage) *libpq_PQerrorMessage;
typedef __typeof__(PQexecParams) *libpq_PQexecParams;
typedef __typeof__(PQexec) *libpq_PQexec;
typedef __typeof__(PQsendQueryParams) *libpq_PQsendQueryParams;
typedef __typeof__(PQsetSingleRowMode) *libpq_PQsetSingleRowMode;
typedef __typeof__(PQprepare) *libpq_PQprepare;
typedef __typeof__(PQexecPrepared) *libpq_PQexecPrepared;
typedef __typeof__(PQsendQueryPrepared) *libpq_PQsendQueryPrepared;
typedef __typeof__(PQresultStatus) *libpq_PQresultStatus;
typedef __typeof__(PQresultErrorField) *libpq_PQresultErrorField;
typedef __typeof__(PQresultErrorMessage) *libpq_PQresultErrorMessage;
typedef __typeof__(PQclear) *libpq_PQclear;
typedef __typeof__(PQntuples) *libpq_PQntuples;
typedef __typeof__(PQnfields) *libpq_PQnfields;
typedef __typeof__(PQfname) *libpq_PQfname;
typedef __typeof__(PQftype) *libpq_PQftype;
typedef __typeof__(PQgetvalue) *libpq_PQgetvalue;
typedef __typeof__(PQgetlength) *libpq_PQgetlength;
typedef __typeof__(PQgetisnull) *libpq_PQgetisnull;
typedef __typeof__(PQcmdTuples) *libpq_PQcmdTuples;
typedef __typeof__(PQputCopyData) *libpq_PQputCopyData;
typedef __typeof__(PQputCopyEnd) *libpq_PQputCopyEnd;
typedef __typeof__(PQgetResult) *libpq_PQgetResult;
typedef __typeof__(PQsetNoticeProcessor) *libpq_PQsetNoticeProcessor;
typedef __typeof__(PQtransactionStatus) *libpq_PQtransactionStatus;
typedef __typeof__(PQserverVersion) *libpq_PQserverVersion;
typedef __typeof__(PQunescapeBytea) *libpq_PQunescapeBytea;
typedef __typeof__(PQfreemem) *libpq_PQfreemem;
#endif
