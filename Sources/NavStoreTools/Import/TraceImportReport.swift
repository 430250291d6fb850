/// What a trace import did (``NavigationStore/importUIKitTrace(lines:session:platform:allowingFutureTimes:)``).
public struct TraceImportReport: Sendable, Hashable, Codable {
    /// The session key.
    public var session: String
    /// Whether the import started the session.
    public var created: Bool
    /// The callback lines read (blank lines not counted).
    public var callbacks: Int
    /// Events appended (a `session.started` included when the import started the session).
    public var imported: Int
    /// Events the trace makes that the session already holds from an earlier import of the same
    /// lines (a `session.started` included when that import started the session): skipped.
    public var skipped: Int
    /// The session's version after the import.
    public var version: Int
}
