internal import CLibPQ
import NavStore

/// libpq's functions, bound at run time from the shared library (`libpq.so.5`).
///
/// NavStore does not link libpq: a statically linked executable cannot (Debian ships libpq.a but no
/// static Kerberos or LDAP libraries, which it needs), and a user of SQLite files never needs it.
/// The library is opened with `dlopen` the first time a PostgreSQL database is opened; each
/// function's type is the C declaration's own (`Sources/CLibPQ/shim.h`).
/// See https://www.postgresql.org/docs/current/libpq.html.
struct LibPQ: @unchecked Sendable {
    let connectdb: libpq_PQconnectdb
    let finish: libpq_PQfinish
    let status: libpq_PQstatus
    let consumeInput: libpq_PQconsumeInput
    let socket: libpq_PQsocket
    let notifies: libpq_PQnotifies
    let errorMessage: libpq_PQerrorMessage
    let execParams: libpq_PQexecParams
    let exec: libpq_PQexec
    let sendQueryParams: libpq_PQsendQueryParams
    let setSingleRowMode: libpq_PQsetSingleRowMode
    let prepare: libpq_PQprepare
    let execPrepared: libpq_PQexecPrepared
    let sendQueryPrepared: libpq_PQsendQueryPrepared
    let resultStatus: libpq_PQresultStatus
    let resultErrorField: libpq_PQresultErrorField
    let resultErrorMessage: libpq_PQresultErrorMessage
    let clear: libpq_PQclear
    let ntuples: libpq_PQntuples
    let nfields: libpq_PQnfields
    let fname: libpq_PQfname
    let ftype: libpq_PQftype
    let getvalue: libpq_PQgetvalue
    let getlength: libpq_PQgetlength
    let getisnull: libpq_PQgetisnull
    let cmdTuples: libpq_PQcmdTuples
    let putCopyData: libpq_PQputCopyData
    let putCopyEnd: libpq_PQputCopyEnd
    let getResult: libpq_PQgetResult
    let setNoticeProcessor: libpq_PQsetNoticeProcessor
    let transactionStatus: libpq_PQtransactionStatus
    let unescapeBytea: libpq_PQunescapeBytea
    let freemem: libpq_PQfreemem

    /// The library's file names tried in order: Debian's soname, then the names macOS and a
    /// development install use.
    private static let candidates = ["libpq.so.5", "libpq.so", "libpq.5.dylib", "libpq.dylib"]

    /// The bound library, or why it could not be loaded (loaded once per process).
    static let shared: Result<LibPQ, PostgreSQLError> = load()

    private static func load() -> Result<LibPQ, PostgreSQLError> {
        var reasons: [String] = []
        for name in candidates {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) {
                do {
                    return .success(try LibPQ(handle: handle))
                } catch {
                    return .failure(error)
                }
            }
            if let reason = dlerror() { reasons.append(String(cString: reason)) }
        }
        return .failure(
            PostgreSQLError(
                kind: .connection,
                message: "libpq is not installed (Debian: apt-get install libpq5): \(reasons.first ?? "not found")"))
    }

    private init(handle: UnsafeMutableRawPointer) throws(PostgreSQLError) {
        func bind<F>(_ name: String) throws(PostgreSQLError) -> F {
            guard let symbol = dlsym(handle, name) else {
                throw PostgreSQLError(kind: .connection, message: "libpq has no function \(name): too old a libpq")
            }
            return unsafeBitCast(symbol, to: F.self)
        }
        connectdb = try bind("PQconnectdb")
        finish = try bind("PQfinish")
        status = try bind("PQstatus")
        consumeInput = try bind("PQconsumeInput")
        socket = try bind("PQsocket")
        notifies = try bind("PQnotifies")
        errorMessage = try bind("PQerrorMessage")
        execParams = try bind("PQexecParams")
        exec = try bind("PQexec")
        sendQueryParams = try bind("PQsendQueryParams")
        setSingleRowMode = try bind("PQsetSingleRowMode")
        prepare = try bind("PQprepare")
        execPrepared = try bind("PQexecPrepared")
        sendQueryPrepared = try bind("PQsendQueryPrepared")
        resultStatus = try bind("PQresultStatus")
        resultErrorField = try bind("PQresultErrorField")
        resultErrorMessage = try bind("PQresultErrorMessage")
        clear = try bind("PQclear")
        ntuples = try bind("PQntuples")
        nfields = try bind("PQnfields")
        fname = try bind("PQfname")
        ftype = try bind("PQftype")
        getvalue = try bind("PQgetvalue")
        getlength = try bind("PQgetlength")
        getisnull = try bind("PQgetisnull")
        cmdTuples = try bind("PQcmdTuples")
        putCopyData = try bind("PQputCopyData")
        putCopyEnd = try bind("PQputCopyEnd")
        getResult = try bind("PQgetResult")
        setNoticeProcessor = try bind("PQsetNoticeProcessor")
        transactionStatus = try bind("PQtransactionStatus")
        unescapeBytea = try bind("PQunescapeBytea")
        freemem = try bind("PQfreemem")
    }
}
