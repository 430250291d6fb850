import NavStore

/// The events an import has checked and folded but not yet inserted, sent as one multi-row
/// `INSERT ... ON CONFLICT (event_id) DO NOTHING` per ``capacity`` events: on PostgreSQL every
/// statement is a round trip to the server, so an import sends a batch where SQLite, whose
/// statements cost no round trip, inserts each event as it comes (``SQLDialect/importBatchSize``
/// is 1 there and no batch is made). At most ``capacity`` events are held, so memory stays
/// bounded whatever the input's length.
struct EventBatch {
    /// One `events` row waiting for its insert, with the input line it came from.
    struct Pending {
        var sessionID: Int64
        var version: Int
        var type: String
        var at: Int64
        var eventID: String
        var payload: String
        var line: Int
    }

    /// What one insert of the batch did: the `seq` and input line of each row inserted, in
    /// input order, and the first row not inserted because its event id was already stored
    /// (before this import, or by an earlier row of the same input).
    struct Outcome {
        var stored: [(seq: Int64, line: Int)] = []
        var refused: Pending?
    }

    /// The most rows one `INSERT` carries (six parameters each).
    let capacity: Int
    private(set) var rows: [Pending] = []

    init(capacity: Int) {
        self.capacity = capacity
        rows.reserveCapacity(capacity)
    }

    /// Whether the next row should be sent now.
    var isFull: Bool { rows.count >= capacity }

    /// Queues `row` for the next insert.
    mutating func append(_ row: Pending) {
        rows.append(row)
    }

    /// Inserts the queued rows with one statement inside the caller's transaction and empties the
    /// batch.
    /// - Returns: the rows inserted and the first row refused (see ``Outcome``).
    /// - Throws: database errors.
    mutating func flush(_ db: any DatabaseConnection) throws -> Outcome {
        guard !rows.isEmpty else { return Outcome() }
        defer { rows.removeAll(keepingCapacity: true) }
        var arguments: [SQLValue] = []
        arguments.reserveCapacity(rows.count * 6)
        for row in rows {
            arguments += [
                .integer(row.sessionID), SQLValue(row.version), .text(row.type), .integer(row.at), .text(row.eventID),
                .text(row.payload),
            ]
        }
        // A row is identified by its session and version (unique): `RETURNING` says which rows
        // went in, whatever order the server returns them in.
        var seqs: [Key: Int64] = [:]
        try db.forEachRow(sql: Self.sql(rows: rows.count), arguments: arguments) { row in
            seqs[Key(sessionID: try row[0], version: try row[1])] = try row[2]
        }
        var outcome = Outcome()
        for row in rows {
            if let seq = seqs[Key(sessionID: row.sessionID, version: row.version)] {
                outcome.stored.append((seq, row.line))
            } else if outcome.refused == nil {
                outcome.refused = row
            }
        }
        return outcome
    }

    private struct Key: Hashable {
        var sessionID: Int64
        var version: Int
    }

    /// `INSERT INTO events ... VALUES (...), (...) ON CONFLICT (event_id) DO NOTHING RETURNING`
    /// for `rows` rows.
    private static func sql(rows: Int) -> String {
        "INSERT INTO events (session_id, version, type, at, event_id, payload) VALUES "
            + repeatElement("(?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
            + " ON CONFLICT (event_id) DO NOTHING RETURNING session_id, version, seq"
    }
}
