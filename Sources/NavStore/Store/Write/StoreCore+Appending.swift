/// Appending: events into the log, the projection diff and the session row, in the caller's
/// write transaction.
extension StoreCore {
    /// Starts writing `row` in the current transaction: the running state begins at `state`
    /// (the current state, read from the cache or the projection when `nil`).
    package func beginWrite(_ row: SessionRow, state: SessionState? = nil) throws -> SessionWrite {
        let current = try state ?? currentState(row)
        return SessionWrite(row: row, projected: current, state: current, version: row.version, lastAt: row.updatedAt)
    }

    /// Appends `body` as the next event of `write` (one insert), folds it into the running state
    /// and writes a snapshot every K versions. The projection and the session row are left to
    /// ``finishWrite(_:)``, once per transaction. Runs inside the caller's transaction.
    /// - Parameters:
    ///   - eventID: the event's id; a new version 7 UUID when `nil`, bound to the insert from the
    ///     stack and spelled as a `String` only when asked for (``AppendedEventID/text``).
    ///   - ignoreKnownID: insert nothing and return `nil` when `eventID` is already stored
    ///     (`ON CONFLICT (event_id) DO NOTHING`), instead of failing.
    /// - Returns: the new event's `seq` and id (its version is now `write.version`), or `nil`
    ///   when nothing was inserted. No ``Event`` is made here: a batch needs only its last one.
    /// - Throws: ``StoreError/eventIDExists(_:)`` for a known `eventID` (without `ignoreKnownID`),
    ///   ``StoreError/versionConflict(session:expected:actual:)`` when another writer stored the
    ///   version first, database errors.
    @discardableResult
    package func appendEvent(
        _ body: consuming EventBody, to write: inout SessionWrite, at: Int64, eventID: String?,
        ignoreKnownID: Bool = false
    ) throws -> (seq: Int64, eventID: AppendedEventID)? {
        let version = write.version + 1
        let id: AppendedEventID
        let inserted: Int64?
        if var given = eventID {
            id = .given(given)
            inserted = try given.withUTF8 {
                try insertEvent(
                    body, sessionID: write.row.id, sessionKey: write.row.key, version: version, at: at, eventID: $0,
                    ignoreKnownID: ignoreKnownID)
            }
        } else {
            let bits = eventIDs.nextBits()
            id = .generated(high: bits.high, low: bits.low)
            inserted = try EventIDGenerator.withText(bits) {
                try insertEvent(
                    body, sessionID: write.row.id, sessionKey: write.row.key, version: version, at: at, eventID: $0,
                    ignoreKnownID: ignoreKnownID)
            }
        }
        guard let seq = inserted else { return nil }
        try fold(body, into: &write, at: at, eventID: eventID)
        return (seq, id)
    }

    /// Folds `body`, the next event of `write` (inserted, or queued in an import's
    /// ``EventBatch``), into the running state and writes a snapshot every K versions.
    /// - Parameter eventID: the event's id, or `nil` for a generated one (``SessionWrite/lastEventID``
    ///   is then unknown until a reader looks it up).
    package func fold(_ body: consuming EventBody, into write: inout SessionWrite, at: Int64, eventID: String?) throws {
        let version = write.version + 1
        write.state.apply(body)
        write.version = version
        write.lastAt = at
        write.lastEventID = eventID
        if options.isSnapshotVersion(version, of: write.state) {
            try writeSnapshot(sessionID: write.row.id, version: version, state: &write.state)
        }
    }

    /// Ends a write: the projection diff from the state it started at to the running state, the
    /// session row's version and time, once, and the cache. Does nothing when nothing was appended.
    package func finishWrite(_ write: SessionWrite) throws {
        guard write.version != write.row.version else { return }
        try writeProjection(sessionID: write.row.id, from: write.projected, to: write.state)
        try updateSession(id: write.row.id, version: write.version, at: write.lastAt)
        cache.store(write.state, version: write.version, session: write.row.id)
    }

    /// Appends one event after `state`: ``beginWrite(_:state:)``, ``appendEvent(_:to:at:eventID:ignoreKnownID:)``
    /// and ``finishWrite(_:)``, the path every single write shares with batches and imports.
    @discardableResult
    package func append(_ body: EventBody, to row: SessionRow, state: SessionState, at: Int64, eventID: String?) throws -> Event
    {
        var write = try beginWrite(row, state: state)
        guard let appended = try appendEvent(body, to: &write, at: at, eventID: eventID) else {
            throw StoreError.eventIDExists(eventID ?? "")
        }
        try finishWrite(write)
        return Event(
            seq: appended.seq, session: row.key, version: write.version, at: at, eventID: appended.eventID.text,
            body: body)
    }

    /// Inserts one row into `events` with the prepared insert (``eventInsert(ignoringKnownID:)``),
    /// the payload written by ``PayloadWriter`` into ``payloadBuffer`` and bound in place.
    /// - Returns: the new `seq`, or `nil` when `ignoreKnownID` and the event id is already stored.
    /// - Throws: ``StoreError/eventIDExists(_:)`` or ``StoreError/versionConflict(session:expected:actual:)``
    ///   for a unique-constraint violation (see ``DatabaseConnection``), database errors.
    package func insertEvent(
        _ body: EventBody, sessionID: Int64, sessionKey: String, version: Int, at: Int64,
        eventID: UnsafeBufferPointer<UInt8>, ignoreKnownID: Bool = false
    ) throws -> Int64? {
        let insert = try eventInsert(ignoringKnownID: ignoreKnownID)
        insert.bind(integer: sessionID, at: 1)
        insert.bind(integer: Int64(version), at: 2)
        insert.bind(integer: at, at: 4)
        // Every text bound in place, none copied: the type, the id and the payload's buffer.
        var type = body.type
        do {
            return try type.withUTF8 { type in
                insert.bind(utf8: type, at: 3)
                insert.bind(utf8: eventID, at: 5)
                return try PayloadWriter.withPayload(body, in: payloadBuffer) { payload in
                    try Self.checkPayloadSize(payload.count, of: body)
                    insert.bind(utf8: payload, at: 6)
                    return try insert.run()
                }
            }
        } catch let error as any DatabaseBackendError {
            guard case .uniqueViolation(let detail) = error.category else { throw error }
            if detail.contains("event_id") { throw StoreError.eventIDExists(String(decoding: eventID, as: UTF8.self)) }
            throw StoreError.versionConflict(session: sessionKey, expected: version - 1, actual: version)
        }
    }

    /// The prepared `events` insert, made on first use and kept for the connection's life.
    private func eventInsert(ignoringKnownID: Bool) throws -> any DatabaseInsert {
        let columns = "INSERT INTO events (session_id, version, type, at, event_id, payload) VALUES (?, ?, ?, ?, ?, ?)"
        if ignoringKnownID {
            if let insert = eventInserts.ignoringKnownID { return insert }
            let insert = try db.preparedInsert(sql: columns + " ON CONFLICT (event_id) DO NOTHING", returning: "seq")
            eventInserts.ignoringKnownID = insert
            return insert
        }
        if let insert = eventInserts.plain { return insert }
        let insert = try db.preparedInsert(sql: columns, returning: "seq")
        eventInserts.plain = insert
        return insert
    }

    /// Sets the session row's version and the time of its newest event.
    package func updateSession(id: Int64, version: Int, at: Int64) throws {
        try db.execute(
            sql: "UPDATE sessions SET version = ?, updated_at = ? WHERE id = ?",
            arguments: [SQLValue(version), .integer(at), .integer(id)])
    }

    /// The most bytes of JSON one event's payload holds: 16 MiB, a quarter of the longest line
    /// an import reads (``LineReader/maximumLineBytes``, 64 MiB), so that what a write takes,
    /// every reader reads back: an export line is its payload, escaped at most as the store
    /// escapes it, plus a few hundred bytes.
    package static let maximumPayloadBytes = 16 << 20

    /// Refuses a payload of `count` bytes past ``maximumPayloadBytes``, before anything is written.
    /// - Throws: ``StoreError/unsupportedValue(reason:)`` naming the event type, its size and the limit.
    package static func checkPayloadSize(_ count: Int, of body: EventBody) throws(StoreError) {
        guard count > maximumPayloadBytes else { return }
        throw .unsupportedValue(
            reason:
                "the \(body.type) event would be \(count) bytes of JSON; an event holds at most \(maximumPayloadBytes) bytes (16 MiB), so that every reader reads back what was written")
    }

    /// The payload text stored in `events.payload`: ``PayloadWriter``'s, the store's one writer
    /// of stored JSON (the same JSON as ``EventBody/payloadJSON()`` at a fraction of the cost).
    package func payloadText(_ body: EventBody) -> String {
        PayloadWriter.json(body)
    }

    /// A new event id: a version 7 UUID in lowercase text (see ``EventIDGenerator``).
    package func newEventID() -> String {
        eventIDs.next()
    }

    // MARK: Projection

    /// Writes only what differs between `old` and `new` to `layers` and `entries`, so a push is
    /// one insert and a pop one delete.
    package func writeProjection(sessionID: Int64, from old: SessionState, to new: SessionState) throws {
        let session = SQLValue.integer(sessionID)
        if old.layers.count > new.layers.count {
            let from = SQLValue(new.layers.count)
            try db.execute(sql: "DELETE FROM entries WHERE session_id = ? AND layer >= ?", arguments: [session, from])
            try db.execute(sql: "DELETE FROM layers WHERE session_id = ? AND layer >= ?", arguments: [session, from])
        }
        for (index, layer) in new.layers.enumerated() {
            let oldLayer: Layer? = index < old.layers.count ? old.layers[index] : nil
            if oldLayer?.modalInPresentation != layer.modalInPresentation
                || oldLayer?.navigationBarHidden != layer.navigationBarHidden || oldLayer == nil
            {
                try db.execute(
                    sql: """
                        INSERT INTO layers (session_id, layer, modal_in_presentation, navigation_bar_hidden)
                        VALUES (?, ?, ?, ?)
                        ON CONFLICT (session_id, layer) DO UPDATE SET
                            modal_in_presentation = excluded.modal_in_presentation,
                            navigation_bar_hidden = excluded.navigation_bar_hidden
                        """,
                    arguments: [
                        session, SQLValue(index), SQLValue(layer.modalInPresentation),
                        SQLValue(layer.navigationBarHidden),
                    ])
            }
            let oldEntries = oldLayer?.entries ?? []
            if oldEntries.count > layer.entries.count {
                try db.execute(
                    sql: "DELETE FROM entries WHERE session_id = ? AND layer = ? AND position >= ?",
                    arguments: [session, SQLValue(index), SQLValue(layer.entries.count)])
            }
            // Exactly, not `!=`: an entry whose title changed to a canonically equivalent
            // spelling is rewritten.
            for (position, entry) in layer.entries.enumerated()
            where position >= oldEntries.count || !oldEntries[position].isExactly(entry) {
                try writeEntry(entry, sessionID: sessionID, layer: index, position: position)
            }
        }
        if old.tabBar != nil || new.tabBar != nil {
            try writeTabBar(sessionID: sessionID, from: old.tabBar, to: new.tabBar)
        }
    }

    /// The `tab_bars` row (<doc:TabBars>): written when the tab bar changes, deleted with it.
    private func writeTabBar(sessionID: Int64, from old: TabBar?, to new: TabBar?) throws {
        // Compared exactly (a title changed to a canonically equivalent spelling is rewritten),
        // and without writing either as text: a push onto the selected tab leaves the bar as it was.
        if SessionState.sameTabBar(old, new) { return }
        if let text = new.map({ PayloadWriter.json($0) }) {
            try db.execute(
                sql: """
                    INSERT INTO tab_bars (session_id, tab_bar) VALUES (?, ?)
                    ON CONFLICT (session_id) DO UPDATE SET tab_bar = excluded.tab_bar
                    """,
                arguments: [.integer(sessionID), .text(text)])
        } else {
            try db.execute(sql: "DELETE FROM tab_bars WHERE session_id = ?", arguments: [.integer(sessionID)])
        }
    }

    /// Inserts or replaces the projection row of `entry` at `layer`, `position`.
    private func writeEntry(_ entry: Entry, sessionID: Int64, layer: Int, position: Int) throws {
        let params: String?
        if case .text(let text, isCanonical: true) = entry.storedParams {
            params = text
        } else {
            params = entry.params.map { PayloadWriter.json($0) }
        }
        try db.execute(
            sql: """
                INSERT INTO entries (session_id, layer, position, entry_id, route, params, item)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (session_id, layer, position) DO UPDATE SET
                    entry_id = excluded.entry_id, route = excluded.route, params = excluded.params, item = excluded.item
                """,
            arguments: [
                .integer(sessionID), SQLValue(layer), SQLValue(position), .text(entry.id), SQLValue(entry.route),
                SQLValue(params), .text(PayloadWriter.json(entry.item)),
            ])
    }
}

/// The id of an appended event (``StoreCore/appendEvent(_:to:at:eventID:ignoreKnownID:)``): the one
/// the caller gave, or the bits of one generated, spelled only when asked for.
package enum AppendedEventID {
    case given(String)
    case generated(high: UInt64, low: UInt64)

    /// The id as stored: lowercase UUID text for a generated one.
    package var text: String {
        switch self {
        case .given(let text): return text
        case .generated(let high, let low): return EventIDGenerator.text((high, low))
        }
    }
}
