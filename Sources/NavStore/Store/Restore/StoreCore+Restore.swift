extension StoreCore {
    /// What a restore of `row` hands out now, and the restore status after counting it (not saved).
    package struct RestorePlan {
        /// The session's current state (the newest).
        package var current: SessionState
        /// The version naming the current state.
        package var head: Int
        /// The status after this restore was counted.
        package var status: RestoreStatus
        /// The version whose state is handed out (0: the base root alone).
        package var restoredVersion: Int
        /// The state handed out.
        package var state: SessionState
        /// The states that went unacknowledged too often, newest first (empty: no fallback).
        package var failedVersions: [Int]
        /// Why an earlier state is handed out, or `nil`.
        package var fallback: String?
        /// Why the restore after this one will hand out an earlier state, or `nil`.
        package var nextFallback: String?

        package func payload(session key: String, version: Int) -> RestorePayload {
            RestorePayload(
                session: key, version: version, restoredVersion: restoredVersion, layers: state.layers,
                backButton: state.backButton, backMenu: state.backMenu, attempts: status.attempts,
                fallback: fallback, nextFallback: nextFallback, platform: state.platform, tabBar: state.tabBar)
        }
    }

    /// Counts one restore of `row` (in memory) and reads the state it hands out; with `repairing`
    /// false, a stale snapshot is read past rather than rebuilt, so nothing is written.
    package func planRestore(_ row: SessionRow, limit: Int, repairing: Bool) throws -> RestorePlan {
        let current = try currentState(row)
        let head = try stateVersion(of: row)
        var status = try restoreStatus(sessionID: row.id)
        if let failed = status.failedVersion, try movedOn(sessionID: row.id, after: failed) {
            status.failedVersion = nil
        }
        let restoredVersion = status.countRestore(head: head, limit: limit)
        let root = current.layers[0].entries.first
        var state = current
        var failedVersions: [Int] = []
        if restoredVersion != head {
            failedVersions = [head]
            if restoredVersion > 0 {
                (state, _) = try self.state(of: row, atVersion: restoredVersion, repairing: repairing)
            } else {
                state = current.rootsAlone
                if let earlier = status.earlierAcknowledged(than: head) { failedVersions.append(earlier) }
            }
        }
        var next = status
        let nextVersion = next.countRestore(head: head, limit: limit)
        return RestorePlan(
            current: current, head: head, status: status, restoredVersion: restoredVersion, state: state,
            failedVersions: failedVersions,
            fallback: status.fallbackReason(head: head, restored: restoredVersion, limit: limit, root: root),
            nextFallback: next.fallbackReason(head: head, restored: nextVersion, limit: limit, root: root))
    }

    /// Appends, after a `session.restored` carrying `marker`, the commands that take `current` to
    /// `target`: dismiss every modal layer, remove a tab bar the target has none of, replace the
    /// base stack (with no entries when the target's base layer is empty, as a session's is at
    /// its start), present and push the target's modal layers, and give each layer the target's
    /// hidden bar (`layer.updated`, where it differs). Each is decided by the rules like any
    /// command. Returns the new version.
    package func align(
        _ row: SessionRow, from current: SessionState, to target: SessionState, marker: RestoreMarker, at: Int64?
    ) throws -> Int {
        let time = try eventTime(at, after: row)
        var write = try beginWrite(row, state: current)
        func append(_ body: EventBody?) throws {
            guard let body else { return }
            try write.state.validate(body)
            try appendEvent(body, to: &write, at: time, eventID: nil)
        }
        try append(.sessionRestored(marker))
        for _ in current.layers.dropFirst() { try append(try write.state.decide(.dismiss(source: .programmatic))) }
        // A target from before the tab bar: the tab bar goes (no command removes one, so the
        // event is appended as the fact it is), its selected stack staying the base stack.
        if target.tabBar == nil && write.state.tabBar != nil { try append(.tabsReplaced([])) }
        if let bar = target.tabBar {
            try alignTabs(to: bar, selectedStack: target.layers[0], append: append) { write.state }
        }
        let base = target.layers[0].entries
        if !(write.state.layers[0].entries.count == base.count
            && zip(write.state.layers[0].entries, base).allSatisfy { $0.isExactly($1) })
        {
            // An empty base layer is a state like any other (a session's first): replacing the
            // stack refuses an empty list, so this event is appended as the fact it is.
            try append(base.isEmpty ? .stackReplaced([]) : try write.state.decide(.setStack(base)))
        }
        // A hidden bar is the layer's own state (rule 18): set once its entries are in place
        // (no event when it already is as the target has it).
        try append(try write.state.decide(.updateLayer(navigationBarHidden: target.layers[0].navigationBarHidden)))
        for layer in target.layers.dropFirst() {
            guard let root = layer.entries.first else { continue }
            try append(try write.state.decide(.present(root, modalInPresentation: layer.modalInPresentation)))
            for entry in layer.entries.dropFirst() { try append(try write.state.decide(.push(entry))) }
            try append(try write.state.decide(.updateLayer(navigationBarHidden: layer.navigationBarHidden)))
        }
        try finishWrite(write)
        return write.version
    }

    /// The tab bar of `target` (<doc:TabBars>), with no modal layer up: its tabs (a first tab bar
    /// needs an empty base stack, so one is emptied first), each tab not selected with the
    /// target's stack and bar, then the target's selection. The selected tab's stack is the base
    /// layer, which ``align(_:from:to:marker:at:)`` aligns after this.
    ///
    /// Every tab whose stack differs from the target's (`selectedStack` for the target's selected
    /// tab) is emptied before any is filled: an entry may have moved between tabs since, and
    /// rule 16 refuses it in its old tab's place while it is live in its new one.
    private func alignTabs(
        to bar: TabBar, selectedStack: Layer, append: (EventBody?) throws -> Void, state: () -> SessionState
    ) throws {
        if state().tabBar == nil && !state().layers[0].entries.isEmpty {
            try append(.stackReplaced([]))
        }
        try append(try state().decide(.setTabs(bar.tabs)))
        for (index, tab) in bar.tabs.enumerated() {
            let wanted = index == bar.selectedIndex ? selectedStack : bar.parked[index]
            guard let have = state().stack(ofTab: tab.id), !have.entries.isEmpty, !have.hasExactEntries(of: wanted)
            else { continue }
            let selected = state().selectedTab?.hasSameScalars(as: tab.id) == true
            try append(selected ? .stackReplaced([]) : .inTab(tab.id, .stackReplaced([])))
        }
        for (index, tab) in bar.tabs.enumerated() where index != bar.selectedIndex {
            let wanted = bar.parked[index]
            let have = state().stack(ofTab: tab.id) ?? Layer()
            if !(have.entries.count == wanted.entries.count
                && zip(have.entries, wanted.entries).allSatisfy { $0.isExactly($1) })
            {
                try append(
                    wanted.entries.isEmpty
                        ? .inTab(tab.id, .stackReplaced([]))
                        : try state().decide(.inTab(tab.id, .setStack(wanted.entries))))
            }
            try append(try state().decide(.inTab(tab.id, .updateLayer(navigationBarHidden: wanted.navigationBarHidden))))
        }
        try append(try state().decide(.selectTab(bar.selected.id, source: .programmatic)))
    }
}

extension SessionState {
    /// The state a restore hands out when every recent state failed (<doc:Restore>): the base
    /// layer's root alone, or under a tab bar each tab's root alone with the selection kept; no
    /// modal layer, no hidden bar.
    package var rootsAlone: SessionState {
        var state = SessionState(layers: [Layer(entries: layers[0].entries.prefix(1).map { $0 })], platform: platform)
        if let tabBar {
            state.tabBar = TabBar(
                tabs: tabBar.tabs, selectedIndex: tabBar.selectedIndex,
                stacks: tabBar.parked.map { Layer(entries: $0.entries.prefix(1).map { $0 }) })
        }
        return state
    }
}

extension StoreCore {
    /// A row of `restore_attempts`. Versions name states: the version of the (non-marker) event
    /// that produced the state, 0 for the base root alone.
    package struct RestoreStatus: Equatable {
        /// Unacknowledged restores of `attemptedVersion`.
        package var attempts = 0
        /// The state the last restore handed out.
        package var attemptedVersion: Int?
        /// The newest state whose restore was acknowledged (never 0).
        package var acknowledgedVersion: Int?
        /// The acknowledged state before ``acknowledgedVersion`` (older, never 0).
        package var previousAcknowledgedVersion: Int?
        /// The current state, marked failed: not handed out again until the session moves on.
        package var failedVersion: Int?

        /// The newest acknowledged state other than `head` (older than it), or `nil`.
        package func earlierAcknowledged(than head: Int) -> Int? {
            [acknowledgedVersion, previousAcknowledgedVersion].compactMap { $0 }.first { $0 < head }
        }

        /// Records `version` (1 or more) as acknowledged, keeping the two newest.
        package mutating func acknowledge(_ version: Int) {
            let known = Set([acknowledgedVersion, previousAcknowledgedVersion, version].compactMap { $0 }).sorted(by: >)
            acknowledgedVersion = known.first
            previousAcknowledgedVersion = known.dropFirst().first
        }

        /// Counts one restore when the session's current state is `head` (the failed mark
        /// already cleared when the session moved on) and returns the state to hand out: `head`;
        /// once `head` went `limit` times unacknowledged, the newest acknowledged state other than
        /// `head`; once that went `limit` times unacknowledged too, or with none, 0 (the base
        /// root alone). Each state's count starts at 0 when restore moves to it.
        package mutating func countRestore(head: Int, limit: Int) -> Int {
            let earlier = earlierAcknowledged(than: head)
            var candidate: Int
            if failedVersion == nil {
                candidate = head
            } else if attemptedVersion == 0 {
                candidate = 0  // the earlier acknowledged state failed too, or there is none
            } else {
                candidate = earlier ?? 0
            }
            if attemptedVersion == candidate && attempts >= limit {
                if candidate == head {
                    failedVersion = head
                    candidate = earlier ?? 0
                } else {
                    candidate = 0
                }
            }
            if attemptedVersion != candidate { attempts = 0 }
            attempts += 1
            attemptedVersion = candidate
            return candidate
        }

        /// Why a restore that hands out `restored` while the newest state is `head` falls back:
        /// which state failed, which acknowledged state is used or why none is. `nil` when
        /// `restored` is `head`. `root` is the base layer's root (nil: the base layer is empty).
        package func fallbackReason(head: Int, restored: Int, limit: Int, root: Entry?) -> String? {
            guard restored != head else { return nil }
            let times = "\(limit) time\(limit == 1 ? "" : "s")"
            let failedHead = "version \(head) went unacknowledged \(times) in a row"
            if restored > 0 {
                let headAcknowledged =
                    acknowledgedVersion == head
                    ? " (it was acknowledged before, but it is the state that fails now)" : ""
                return
                    "\(failedHead)\(headAcknowledged); returning version \(restored), the newest acknowledged state before it"
            }
            let rootText =
                root.map { "returning the base root '\($0.id)' alone" }
                ?? "returning an empty stack (the base layer has no entries)"
            if let earlier = earlierAcknowledged(than: head) {
                return
                    "\(failedHead), and version \(earlier), the newest acknowledged state before it, \(times) too; \(rootText)"
            }
            if acknowledgedVersion == head {
                return
                    "\(failedHead); it is the only acknowledged state on record (it restored before, and fails now); \(rootText)"
            }
            return "\(failedHead) and no state was ever acknowledged; \(rootText)"
        }
    }

    /// The version that names the session's current state: its newest event other than a
    /// `session.restored` marker (markers change nothing). One indexed read, backwards over the
    /// trailing markers.
    package func stateVersion(of row: SessionRow) throws -> Int {
        try db.fetchOne(
            sql: """
                SELECT version FROM events WHERE session_id = ? AND type <> 'session.restored'
                ORDER BY version DESC LIMIT 1
                """,
            arguments: [.integer(row.id)]
        ).map { try $0[0] } ?? row.version
    }

    /// Whether the session moved on after `version`: an event other than `session.restored` was
    /// appended after it. One indexed query.
    package func movedOn(sessionID: Int64, after version: Int) throws -> Bool {
        try count(
            "SELECT EXISTS(SELECT 1 FROM events WHERE session_id = ? AND version > ? AND type <> 'session.restored')",
            arguments: [.integer(sessionID), SQLValue(version)]) != 0
    }

    package func restoreStatus(sessionID: Int64) throws -> RestoreStatus {
        guard
            let row = try db.fetchOne(
                sql: """
                    SELECT attempts, attempted_version, acknowledged_version, previous_acknowledged_version, failed_version
                    FROM restore_attempts WHERE session_id = ?
                    """,
                arguments: [.integer(sessionID)])
        else { return RestoreStatus() }
        return RestoreStatus(
            attempts: try row[0], attemptedVersion: try row[1], acknowledgedVersion: try row[2],
            previousAcknowledgedVersion: try row[3], failedVersion: try row[4])
    }

    package func saveRestoreStatus(sessionID: Int64, _ status: RestoreStatus) throws {
        try db.execute(
            sql: """
                INSERT INTO restore_attempts
                    (session_id, attempts, attempted_version, acknowledged_version, previous_acknowledged_version, failed_version)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (session_id) DO UPDATE SET attempts = excluded.attempts,
                    attempted_version = excluded.attempted_version, acknowledged_version = excluded.acknowledged_version,
                    previous_acknowledged_version = excluded.previous_acknowledged_version,
                    failed_version = excluded.failed_version
                """,
            arguments: [
                .integer(sessionID), SQLValue(status.attempts), SQLValue(status.attemptedVersion),
                SQLValue(status.acknowledgedVersion), SQLValue(status.previousAcknowledgedVersion),
                SQLValue(status.failedVersion),
            ])
    }
}
