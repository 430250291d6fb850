/// Reading state: the projection, a past version's state, the log as a stream.
extension StoreCore {
    /// The session's current state: from the cache when its version matches, else one read of the
    /// projection.
    /// - Throws: ``UnreadableRow`` when a projection row cannot be read (changed behind the
    ///   store's back); a rebuild repairs it.
    package func currentState(_ row: SessionRow) throws -> SessionState {
        if let cached = cache.state(session: row.id, version: row.version) { return cached }
        let state = try projectedState(row)
        cache.store(state, version: row.version, session: row.id)
        return state
    }

    /// Reads the projection of a session as a state.
    /// - Throws: ``UnreadableRow`` for the first row whose `params` or `item` cannot be read.
    package func projectedState(_ row: SessionRow) throws -> SessionState {
        let (state, unreadable) = try readProjection(row)
        if let first = unreadable.first { throw first }
        return state
    }

    /// Reads the projection of a session as a state, leaving out the rows whose `params` or `item`
    /// cannot be read (JSON changed behind the store's back), which are returned in order.
    package func readProjection(_ session: SessionRow) throws -> (state: SessionState, unreadable: [UnreadableRow]) {
        var layers: [Layer] = []
        var unreadable: [UnreadableRow] = []
        try db.forEachRow(
            sql:
                "SELECT layer, modal_in_presentation, navigation_bar_hidden FROM layers WHERE session_id = ? ORDER BY layer",
            arguments: [.integer(session.id)]
        ) { row in
            layers.append(Layer(entries: [], modalInPresentation: try row[1], navigationBarHidden: try row[2]))
        }
        try db.forEachRow(
            sql:
                "SELECT layer, entry_id, route, params, item, position FROM entries WHERE session_id = ? ORDER BY layer, position",
            arguments: [.integer(session.id)]
        ) { row in
            let layer: Int = try row[0]
            while layers.count <= layer { layers.append(Layer()) }
            switch try projectedEntry(row, session: session.key) {
            case .success(let entry): layers[layer].entries.append(entry)
            case .failure(let problem): unreadable.append(problem)
            }
        }
        var state = SessionState(layers: layers, platform: session.platform)
        try db.forEachRow(
            sql: "SELECT tab_bar FROM tab_bars WHERE session_id = ?", arguments: [.integer(session.id)]
        ) { row in
            let text: String = try row[0]
            do { state.tabBar = try decoder.decode(TabBar.self, from: Data(text.utf8)) } catch {
                unreadable.append(
                    UnreadableRow(
                        session: session.key, row: "tab bar projection row",
                        problem: "tab_bar \(UnreadableRow.quoted(text)) is not a tab bar (\(describeDecodingError(error)))"))
            }
        }
        return (state, unreadable)
    }

    /// The entry in a row of `SELECT layer, entry_id, route, params, item, position FROM entries`,
    /// or what makes its `params` or `item` unreadable.
    private func projectedEntry(_ row: Row, session: String) throws -> Result<Entry, UnreadableRow> {
        let id: String = try row[1]
        var problems: [String] = []
        var params: [String: JSONValue]?
        if let fast = try row.withUTF8(at: 3, PayloadReader.params) ?? nil {
            params = fast
        } else if let paramsText: String? = try row[3], let paramsText {
            do { params = try decoder.decode([String: JSONValue].self, from: Data(paramsText.utf8)) } catch {
                problems.append(
                    "params \(UnreadableRow.quoted(paramsText)) are not a JSON object (\(describeDecodingError(error)))"
                )
            }
        }
        var item = NavigationItem()
        if let fast = try row.withUTF8(at: 4, PayloadReader.item) ?? nil {
            item = fast
        } else {
            let itemText: String = try row[4]
            do { item = try decoder.decode(NavigationItem.self, from: Data(itemText.utf8)) } catch {
                problems.append(
                    "item \(UnreadableRow.quoted(itemText)) is not a navigation item (\(describeDecodingError(error)))")
            }
        }
        guard problems.isEmpty else {
            let layer: Int = try row[0]
            let position: Int = try row[5]
            return .failure(
                UnreadableRow(
                    session: session, row: "projection row at layer \(layer), position \(position), entry '\(id)'",
                    problem: problems.joined(separator: "; ")))
        }
        return .success(Entry(id: id, route: try row[2], params: params, item: item))
    }

    /// The state after `version` and that event's time: the nearest snapshot at or below it under
    /// the current rules, then at most K events. Snapshots of other rules versions are ignored,
    /// and rebuilt when `repairing` is true: only inside a write transaction (a read, such as
    /// `state(session:at:)` or a restore preview, passes false and repairs afterwards, if at all).
    package func state(of row: SessionRow, atVersion version: Int, repairing: Bool) throws -> (SessionState, Int64?) {
        let read = try historicalState(of: row, atVersion: version, repairing: repairing)
        return (read.state, read.at)
    }

    /// ``state(of:atVersion:repairing:)``, and whether snapshots of other rules stand at or
    /// below `version` where no current one does and the connection can write them again
    /// (`needsRepair`: the read should be followed by ``rebuildSnapshots(sessionID:)`` in a write
    /// transaction; always `false` after `repairing`).
    package func historicalState(of row: SessionRow, atVersion version: Int, repairing: Bool) throws -> (
        state: SessionState, at: Int64?, needsRepair: Bool
    ) {
        var (base, baseVersion, stale) = try nearestSnapshot(sessionID: row.id, atOrBelow: version)
        if repairing, baseVersion == nil, stale, !readOnly {
            try rebuildSnapshots(sessionID: row.id)
            (base, baseVersion, stale) = try nearestSnapshot(sessionID: row.id, atOrBelow: version)
        }
        var at: Int64?
        if baseVersion == nil, let truncated = try self.base(of: row) {
            base = truncated.state
            baseVersion = truncated.version
            if version == truncated.version { at = truncated.at }
        }
        var state = base ?? SessionState()
        try db.forEachRow(
            sql: Self.eventsAfterSnapshotSQL,
            arguments: [.integer(row.id), SQLValue(baseVersion ?? 0), SQLValue(version)]
        ) { row in
            state.apply(try decodeBody(row, type: 0, payload: 1))
            at = try row[2]
        }
        if at == nil { at = try eventTime(sessionID: row.id, version: version) }
        return (state, at, stale && !readOnly)
    }

    /// The events of a session after one version up to another, in order.
    private static let eventsAfterSnapshotSQL =
        "SELECT type, payload, at FROM events WHERE session_id = ? AND version > ? AND version <= ? ORDER BY version"

    /// The time of the event at `version`, or `nil` when the session has no such event.
    package func eventTime(sessionID: Int64, version: Int) throws -> Int64? {
        try db.fetchOne(
            sql: "SELECT at FROM events WHERE session_id = ? AND version = ?",
            arguments: [.integer(sessionID), SQLValue(version)]
        ).map { try $0[0] }
    }

    /// The event body in columns `type` and `payload` of `row`, as every reader of the log reads
    /// it (folds, rebuild, history, export, lint): by ``PayloadReader`` straight from the
    /// columns' bytes, or, where it hands the payload on (or a column is not text), with both
    /// columns read as `String`s (invalid UTF-8 repaired, as ``Row`` reads text) and decoded by
    /// ``EventBody/init(type:payload:)-(_,DataProtocol)``, which gives the same value for every
    /// payload the reader takes. Folds used to give JSONDecoder the raw bytes instead, so an event
    /// with invalid UTF-8 written by another tool showed in `history` but made `stack --at` and
    /// `rebuild` refuse it as not JSON (found by a tester).
    /// - Throws: ``NavigationError/invalidEvent(_:)`` as ``EventBody/init(type:payload:)-(_,DataProtocol)``,
    ///   ``RowDecodingError`` for a `NULL` column.
    package func decodeBody(_ row: Row, type: Int, payload: Int) throws -> EventBody {
        // Both columns read in place at once, the type matched on its bytes without a `String`.
        let fast = row.withUTF8(at: type, payload) { type, payload in
            PayloadReader.kinds.value(type).flatMap { PayloadReader.body(kind: $0, payload: payload) }
        }
        if let fast, let fast { return fast }
        return try EventBody(type: try row[type], payload: Array((try row[payload] as String).utf8))
    }

    /// The body of the event with `seq` `seq`, or `nil` when there is none.
    /// - Throws: as ``decodeBody(_:type:payload:)``, database errors.
    package func eventBody(seq: Int64) throws -> EventBody? {
        var body: EventBody?
        try db.forEachRow(sql: "SELECT type, payload FROM events WHERE seq = ?", arguments: [.integer(seq)]) { row in
            body = try decodeBody(row, type: 0, payload: 1)
        }
        return body
    }

    /// Streams a session's log in version order as (version, time, decoded body).
    package func foldLog(sessionID: Int64, _ body: (Int, Int64, EventBody) throws -> Void) throws {
        try db.forEachRow(
            sql: "SELECT version, at, type, payload FROM events WHERE session_id = ? ORDER BY version",
            arguments: [.integer(sessionID)]
        ) { row in
            try body(try row[0], try row[1], try decodeBody(row, type: 2, payload: 3))
        }
    }

    /// Streams events matching `filter` (all sessions in `seq` order when `row` is `nil`).
    package func streamEvents(session row: SessionRow?, filter: EventFilter, _ body: (Event) throws -> Void) throws {
        if let limit = filter.limit, limit <= 0 { return }
        let (sql, arguments) = try eventQuery(session: row, filter: filter)
        var emitted = 0
        struct LimitReached: Error {}
        do {
            try db.forEachRow(sql: sql, arguments: arguments) { event in
                let eventBody = try decodeBody(event, type: 3, payload: 6)
                if let entry = filter.entry, !eventBody.entryIDs.contains(where: { $0.hasSameScalars(as: entry) }) {
                    return
                }
                try body(
                    Event(
                        seq: try event[0], session: try event[1], version: try event[2], at: try event[4],
                        eventID: try event[5], body: eventBody))
                emitted += 1
                if let limit = filter.limit, emitted >= limit { throw LimitReached() }
            }
        } catch is LimitReached {}
    }

    /// The `SELECT` of ``streamEvents(session:filter:_:)`` and its arguments: columns `seq`,
    /// session key, `version`, `type`, `at`, `event_id`, `payload`.
    private func eventQuery(session row: SessionRow?, filter: EventFilter) throws -> (String, [SQLValue]) {
        var conditions: [String] = []
        var values: [SQLValue] = []
        var fromVersion = filter.fromVersion
        var toVersion = filter.toVersion
        func add(_ condition: String, _ value: SQLValue) {
            conditions.append(condition)
            values.append(value)
        }
        if let row {
            add("e.session_id = ?", .integer(row.id))
            // Within a session, times never go backwards: a time range is a version range.
            if let since = filter.since {
                fromVersion = max(fromVersion ?? 1, try firstVersion(of: row, atOrAfter: since))
            }
            if let until = filter.until {
                toVersion = min(toVersion ?? row.version, try lastVersion(of: row, atOrBefore: until) ?? 0)
            }
        } else {
            if let since = filter.since { add("e.at >= ?", .integer(since)) }
            if let until = filter.until { add("e.at <= ?", .integer(until)) }
        }
        if let from = fromVersion { add("e.version >= ?", SQLValue(from)) }
        if let to = toVersion { add("e.version <= ?", SQLValue(to)) }
        if let types = filter.types, !types.isEmpty {
            conditions.append("e.type IN (" + Array(repeating: "?", count: types.count).joined(separator: ", ") + ")")
            values.append(contentsOf: types.sorted().map { .text($0) })
        }
        let order = row == nil ? "e.seq" : "e.version"
        let sql = """
            SELECT e.seq, s.key, e.version, e.type, e.at, e.event_id, e.payload
            FROM events AS e JOIN sessions AS s ON s.id = e.session_id
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY \(order) \(filter.reverse ? "DESC" : "ASC")
            """
        return (sql, values)
    }
}
