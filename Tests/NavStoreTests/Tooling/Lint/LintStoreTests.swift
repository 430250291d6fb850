import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// A store holding two sessions with defects: "mail" (a blank row from version 4 on, a guard
/// bypassed by the back menu at version 6) and "alpha" (an untitled row).
private func storeWithDefects(_ dir: TemporaryDirectory, on backend: StoreBackend = .sqlite) throws -> NavigationStore {
    let store = try makeStore(dir, on: backend, options: fastOptions())
    try store.startSession("mail", at: 1_000)
    try store.execute(
        .push(Entry(id: "mailboxes", item: NavigationItem(title: "Mailboxes"))), session: "mail", at: 2_000)
    try store.execute(
        .push(Entry(id: "inbox", item: NavigationItem(title: "Inbox", backButtonTitle: ""))), session: "mail", at: 3_000
    )
    try store.execute(.push(Entry(id: "message", item: NavigationItem(title: "Message"))), session: "mail", at: 4_000)
    try store.execute(
        .push(Entry(id: "reply", item: NavigationItem(title: "Reply", popGuard: PopGuard(prompt: "Discard reply?")))),
        session: "mail", at: 5_000)
    try store.execute(.popTo(entryID: "inbox", source: .backMenu), session: "mail", at: 6_000)
    try store.startSession("alpha", at: 1_000)
    try store.execute(.push(Entry(id: "A")), session: "alpha", at: 2_000)
    try store.execute(.push(Entry(id: "B", item: NavigationItem(title: "B"))), session: "alpha", at: 3_000)
    return store
}

@Suite("NavigationStore: lint")
struct LintStoreTests {
    @Test("every session, in key order, with findings as runs and the totals", arguments: StoreBackend.all)
    func everySession(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try storeWithDefects(dir, on: backend)
        let report = try store.lint()
        #expect(report.findings.map(\.session) == ["alpha", "mail", "mail"])
        #expect(report.findings.map(\.rule) == [.untitledMenuRow, .blankMenuRow, .guardBypassed])
        let blank = report.findings[1]
        #expect(blank.entries == ["inbox"] && blank.firstVersion == 4 && blank.lastVersion == 5 && !blank.current)
        let bypass = report.findings[2]
        #expect(bypass.entries == ["reply"] && bypass.firstVersion == 6 && bypass.lastVersion == 6 && bypass.current)
        #expect(report.summary == LintSummary(sessions: 2, events: 9, errors: 1, warnings: 2, infos: 0))
    }

    @Test("named sessions only, in the order given, each once", arguments: StoreBackend.all)
    func namedSessions(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try storeWithDefects(dir, on: backend)
        let report = try store.lint(sessions: ["mail", "alpha", "mail"])
        #expect(report.findings.map(\.session) == ["mail", "mail", "alpha"])
        #expect(report.summary.sessions == 2)
        #expect(
            try store.lint(sessions: ["alpha"]).summary
                == LintSummary(sessions: 1, events: 3, errors: 0, warnings: 1, infos: 0))
    }

    @Test(
        "an unknown session is refused before anything is linted, and the file is unchanged",
        arguments: StoreBackend.all)
    func unknownSession(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try storeWithDefects(dir, on: backend)
        let before = try databaseContent(store)
        var delivered = 0
        #expect(throws: StoreError.sessionNotFound("nope")) {
            try store.lint(sessions: ["mail", "nope"]) { _ in delivered += 1 }
        }
        #expect(delivered == 0)
        #expect(try databaseContent(store) == before)
    }

    @Test("an error thrown by the body stops the lint and is rethrown", arguments: StoreBackend.all)
    func bodyErrorStops(backend: StoreBackend) throws {
        struct Stop: Error {}
        let dir = try TemporaryDirectory()
        let store = try storeWithDefects(dir, on: backend)
        var delivered = 0
        #expect(throws: Stop.self) {
            try store.lint { _ in
                delivered += 1
                throw Stop()
            }
        }
        #expect(delivered == 1)
        // The store is still usable: the lock was released.
        #expect(try store.lint().summary.sessions == 2)
    }

    @Test("progress reports sessions and events", arguments: StoreBackend.all)
    func progress(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try storeWithDefects(dir, on: backend)
        var calls: [[Int]] = []
        try store.lint(progress: { calls.append([$0, $1]) }) { _ in }
        #expect(calls == [[1, 3], [2, 9]])
    }

    @Test("an empty database lints to nothing", arguments: StoreBackend.all)
    func emptyDatabase(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        #expect(try store.lint() == LintReport())
    }

    @Test("an NDJSON export lints, with no database, to the same report as the database", arguments: StoreBackend.all)
    func exportLintsTheSame(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try storeWithDefects(dir, on: backend)
        let lines = try store.exportLines()
        #expect(try NavigationStore.lintNDJSON(lines: lines) == store.lint())
        #expect(try NavigationStore.lintNDJSON(lines: [""] + lines + ["  "]) == store.lint())
    }

    @Test(
        "a truncated session is linted from its base on, in the database and in its export", arguments: StoreBackend.all
    )
    func truncatedSession(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try storeWithDefects(dir, on: backend)
        // Drop mail's versions 1-4: the base is the state after 4 (the blank row already showing).
        try store.truncateSession("mail", before: 5)
        let report = try store.lint(sessions: ["mail"])
        #expect(report.findings.map(\.rule) == [.blankMenuRow, .guardBypassed])
        // The state rules are judged at the base version too: the blank row holds from 4 on.
        #expect(report.findings.map(\.firstVersion) == [4, 6])
        #expect(report.findings.first?.lastVersion == 5)
        #expect(report.summary.events == 2)
        let lines = try store.exportLines()
        #expect(lines.contains { $0.contains(#""type":"session.truncated""#) })
        #expect(try NavigationStore.lintNDJSON(lines: lines) == store.lint())
        // A base after the session's events is not a stream a log could hold.
        let base = try #require(lines.first { $0.contains(#""type":"session.truncated""#) })
        let events = lines.filter { $0 != base }
        #expect(throws: StoreError.self) { try NavigationStore.lintNDJSON(lines: events + [base]) }
    }

    @Test(
        "NDJSON lint: a bad line names its number and reason",
        arguments: [
            ("not json", 1, "not JSON: it reads \"not json\""),
            (
                #"{"session":"s","version":2,"type":"session.started","at":0,"eventID":"00000000-0000-4000-8000-000000000001","payload":{}}"#,
                1, "does not exist and this event is its version 2"
            ),
            (
                #"{"session":"s","version":1,"type":"entry.pushed","at":0,"eventID":"00000000-0000-4000-8000-000000000001","payload":{"entry":{"id":"A"}}}"#,
                1, "its version 1 is entry.pushed; a session's log starts with session.started"
            ),
        ])
    func badNDJSON(line: String, number: Int, reason: String) {
        #expect {
            try NavigationStore.lintNDJSON(lines: [line])
        } throws: { error in
            guard case StoreError.invalidImport(let at, let why) = error else { return false }
            return at == number && why.contains(reason)
        }
    }

    /// A rule's subject as NavStore.docc/Lint.md words it: the entries a finding names, or for
    /// `duplicate-menu-rows` the title the rows share (as the message quotes it, after the count)
    /// and the farthest row, whatever rows come and go nearer.
    static func subject(_ rule: LintRule, _ entries: [String], _ message: String) -> String {
        guard rule == .duplicateMenuRows, let list = message.range(of: ": entries ", options: .backwards) else {
            return "\(rule.id) \(entries)"
        }
        let title = message[..<list.lowerBound].drop { $0 != " " }
        return "\(rule.id) \(entries.last ?? "")\(title)"
    }

    /// Seeds for the property below: `NAVSTORE_LINT_SEEDS` (a count) or 20.
    static let seeds: [UInt64] = Array(
        0..<UInt64(ProcessInfo.processInfo.environment["NAVSTORE_LINT_SEEDS"].flatMap { UInt64($0) } ?? 20))

    /// NavStore.docc/Lint.md as a property over random sessions (every operation, unusual text): for every
    /// rule and subject, the findings' version ranges are exactly the versions at which the rule
    /// holds, as maximal runs; `current` means the run reaches the latest version; blank and
    /// "Back" rows and bypassed guards are judged from the menu and the events as the contract
    /// words them; the database and its export lint the same.
    // Seed 0 also on PostgreSQL, in plain text there (the unusual texts hold U+0000, which
    // PostgreSQL text cannot hold).
    @Test(
        "findings are exactly the maximal runs of versions where each rule holds (property)",
        arguments: StoreBackend.firstOnPostgreSQL(seeds))
    func runsProperty(seed: UInt64, backend: StoreBackend) throws {
        let reproduce = "seed \(seed); reproduce: NAVSTORE_LINT_SEEDS=\(seed + 1) swift test --filter LintStoreTests"
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend, options: fastOptions())
        var random = RandomCommands(seed: seed, unusual: seed % 2 == 1 && backend == .sqlite)
        let width = Int.random(in: 1...24, using: &random.rng)
        for key in ["s1", "s2"] {
            try store.startSession(key, at: 0)
            random.state = SessionState()
            try store.append(contentsOf: random.commands(120), session: key, at: 0)
        }
        let options = LintOptions(width: width)
        let report = try store.lint(options: options)
        #expect(try NavigationStore.lintNDJSON(lines: store.exportLines(), options: options) == report, "\(reproduce)")
        #expect(report.summary.events == (try store.allEvents().count), "\(reproduce)")

        for key in ["s1", "s2"] {
            let events = try store.allEvents(session: key)
            let findings = report.findings.filter { $0.session == key }
            // Versions at which each (rule, subject) holds, from the findings.
            var claimed: [String: [Int]] = [:]
            for finding in findings {
                #expect(finding.firstVersion <= finding.lastVersion, "\(reproduce)")
                #expect(finding.current == (finding.lastVersion == events.count), "\(reproduce)")
                if finding.rule == .guardBypassed || finding.rule == .modelDivergence {
                    #expect(finding.firstVersion == finding.lastVersion, "\(reproduce)")
                }
                claimed[Self.subject(finding.rule, finding.entries, finding.message), default: []] += Array(
                    finding.firstVersion...finding.lastVersion)
            }
            // Versions at which each (rule, subject) holds, judged version by version.
            var holds: [String: [Int]] = [:]
            var state = SessionState()
            for event in events {
                let bypass = state.guardBypass(by: event.body)
                let divergence = state.modelDivergence(by: event.body)
                state.apply(event.body)
                for violation in state.lintViolations(options) + (bypass.map { [$0] } ?? [])
                    + (divergence.map { [$0] } ?? [])
                {
                    holds[Self.subject(violation.rule, violation.entries, violation.message), default: []].append(
                        event.version)
                }
                // The contract's own words for three rules, independent of lintViolations.
                let menu = state.backMenu ?? []
                let blank = menu.filter { $0.title.isEmpty }.map(\.entry)
                let untitled = menu.filter { row in
                    let item = state.topLayer.entries.first { $0.id == row.entry }!.item
                    return item.menuTitle == nil && item.backBarButtonItem?.title == nil && item.backButtonTitle == nil
                        && item.title == nil
                }.map(\.entry)
                #expect(
                    blank.allSatisfy { holds["blank-menu-row \([$0])"]?.last == event.version },
                    "\(reproduce) v\(event.version)")
                #expect(
                    untitled.allSatisfy { holds["untitled-menu-row \([$0])"]?.last == event.version },
                    "\(reproduce) v\(event.version)")
            }
            #expect(claimed.mapValues { $0.sorted() } == holds, "\(reproduce) session \(key)")
            // Runs are maximal: two findings of one subject never touch.
            let bySubject = Dictionary(grouping: findings) { Self.subject($0.rule, $0.entries, $0.message) }
            for (_, runs) in bySubject {
                for (a, b) in zip(runs, runs.dropFirst()) {
                    #expect(b.firstVersion > a.lastVersion + 1, "\(reproduce)")
                }
            }
        }
    }
}
