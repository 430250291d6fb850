import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// NavStore.docc/Reports.md: the report's data is computed by NavStore (labels, fallbacks, menus, changes), the
/// same as the store's reads at every version; the page embeds it safely.
@Suite("Report: the data of a session's page")
struct SessionReportTests {
    /// A random session of `count` accepted commands in a fresh store.
    static func randomSession(
        seed: UInt64, count: Int, unusual: Bool = false, on backend: StoreBackend = .sqlite
    ) throws -> (TemporaryDirectory, NavigationStore) {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend, options: fastOptions(snapshotInterval: 8))
        try store.startSession("s", name: "Random", at: 1_000)
        var random = RandomCommands(seed: seed, unusual: unusual)
        try store.append(contentsOf: random.commands(count), session: "s", at: 2_000)
        return (dir, store)
    }

    /// The seeds of the property test: 1...5, or 1...N with `NAVDB_REPORT_SEEDS=N` (run with 200
    /// before a change to the report's data is merged).
    static let seeds: [UInt64] = Array(
        1...UInt64(ProcessInfo.processInfo.environment["NAVDB_REPORT_SEEDS"].flatMap { UInt64($0) } ?? 5))

    @Test(
        "every version's layers, back button and back menu equal the store's state at that version (reproduce one seed: the failure names it)",
        arguments: StoreBackend.firstOnPostgreSQL(seeds))
    func versionsEqualTheStore(seed: UInt64, backend: StoreBackend) throws {
        // Seed 1 also on PostgreSQL, in plain text there (the unusual texts hold U+0000, which
        // PostgreSQL text cannot hold).
        let (dir, store) = try Self.randomSession(
            seed: seed, count: 150, unusual: seed % 2 == 0 && backend == .sqlite, on: backend)
        _ = dir
        let report = try store.report(session: "s") { $0.type }
        let latest = try store.state(session: "s").version
        #expect(report.versions.map(\.version) == Array(1...latest), "seed \(seed)")
        for version in report.drawnVersions {
            let read = try store.state(session: "s", at: .version(version.version))
            let ids = version.layers.map { $0.entries.map { report.entries[$0].id } }
            #expect(ids == read.state.entryIDs, "seed \(seed) v\(version.version): layers")
            for (layer, state) in zip(version.layers, read.state.layers) {
                #expect(layer.modalInPresentation == state.modalInPresentation)
                for (index, entry) in zip(layer.entries, state.entries) {
                    #expect(
                        report.entries[index] == ReportEntry(entry),
                        "seed \(seed) v\(version.version): entry \(entry.id)")
                }
            }
            #expect(version.backButton?.label == read.backButton?.label, "seed \(seed) v\(version.version): label")
            #expect(version.backButton?.fallbacks == read.backButton?.fallbacks)
            #expect(version.backButton?.image == read.backButton?.image)
            #expect(
                version.backMenu?.map(\.title) == read.backMenu?.map(\.title), "seed \(seed) v\(version.version): menu")
            #expect(version.backMenu?.map(\.entry) == read.backMenu?.map(\.entry))
            #expect(version.backMenu?.map(\.blank) == read.backMenu?.map(\.title.isEmpty))
            #expect((version.noBackButton == nil) == (read.backButton != nil))
            #expect((version.noBackMenu == nil) == (read.backMenu != nil))
            if let button = read.backButton, let steps = version.backButton?.steps {
                // The label shown at each room is what `label(fitting:)` says.
                let widest = ([button.label] + button.fallbacks).map(\.count).max()! + 2
                for room in 0...min(widest, 60) {
                    let shown = steps.last(where: { $0.minWidth <= room })!.label
                    #expect(shown == button.label(fitting: room), "seed \(seed) v\(version.version) room \(room)")
                }
                #expect(steps.last!.label == button.label)
                #expect(steps.first!.minWidth == 0)
            }
        }
    }

    @Test("the label steps of a title, a generic button, a custom item and a chevron")
    func labelSteps() {
        let title = ReportBuilder.reportButton(BackButton(label: "Mailboxes", fallbacks: ["Back", ""]))
        #expect(
            title.steps == [
                ReportLabelStep(minWidth: 0, label: ""), ReportLabelStep(minWidth: 4, label: "Back"),
                ReportLabelStep(minWidth: 9, label: "Mailboxes"),
            ])
        let generic = ReportBuilder.reportButton(BackButton(label: "Back", fallbacks: [""]))
        #expect(generic.steps.map(\.label) == ["", "Back"])
        let custom = ReportBuilder.reportButton(BackButton(label: "Close all", fallbacks: [], image: true))
        #expect(custom.steps == [ReportLabelStep(minWidth: 0, label: "Close all")])
        #expect(custom.image)
        let chevron = ReportBuilder.reportButton(BackButton(label: "", fallbacks: []))
        #expect(chevron.steps == [ReportLabelStep(minWidth: 0, label: "")])
    }

    @Test(
        "what changed: pushes, updates, layers, the button and the menu; a veto changes nothing",
        arguments: StoreBackend.all)
    func changes(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend, options: fastOptions())
        try store.startSession("c", at: 0)
        try store.execute(.push(Entry(id: "A", item: NavigationItem(title: "Inbox"))), session: "c", at: 1)
        try store.execute(
            .push(Entry(id: "B", item: NavigationItem(title: "Mail", popGuard: PopGuard(prompt: "Discard?")))),
            session: "c", at: 2)
        try store.execute(.update(entryID: "A", item: NavigationItem(title: "", menuTitle: nil)), session: "c", at: 3)
        try store.execute(.pop(source: .backButton), session: "c", at: 4)
        try store.execute(.present(Entry(id: "M", route: "app://m"), modalInPresentation: true), session: "c", at: 5)
        try store.execute(.dismiss(source: .programmatic), session: "c", at: 6)
        let report = try store.report(session: "c") { _ in "" }
        let v = Dictionary(uniqueKeysWithValues: report.drawnVersions.map { ($0.version, $0) })
        #expect(v[1]!.changes == [])
        #expect(v[2]!.changes == [ReportChange(kind: .entryAdded, layer: 0, entry: "A", position: 0)])
        #expect(
            v[3]!.changes == [
                ReportChange(kind: .entryAdded, layer: 0, entry: "B", position: 1),
                ReportChange(kind: .backButton, before: .null, after: .string("Inbox")),
                ReportChange(kind: .backMenu, before: .null, after: .integer(1)),
            ])
        #expect(
            v[4]!.changes == [
                ReportChange(
                    kind: .fieldChanged, layer: 0, entry: "A", field: "title", before: .string("Inbox"),
                    after: .string("")),
                ReportChange(kind: .backButton, before: .string("Inbox"), after: .string("")),
                ReportChange(
                    kind: .menuRowChanged, entry: "A", row: 1, before: .string("Inbox"), after: .string("")),
            ])
        #expect(v[4]!.backMenu == [ReportMenuRow(row: 1, entry: "A", title: "", blank: true)])
        #expect(v[4]!.backButton?.label == "", "an empty title is a chevron, not Back")
        #expect(v[5]!.veto && v[5]!.changes == [], "the guard vetoed the pop")
        #expect(
            v[6]!.changes == [
                ReportChange(kind: .layerPresented, layer: 1),
                ReportChange(kind: .entryAdded, layer: 1, entry: "M", position: 0),
                ReportChange(kind: .backButton, before: .string(""), after: .null),
                ReportChange(kind: .backMenu, before: .integer(1), after: .null),
            ])
        #expect(v[6]!.noBackButton == NoBackButtonReason.atRoot.rawValue)
        #expect(v[7]!.changes.first == ReportChange(kind: .entryRemoved, layer: 1, entry: "M"))
        #expect(v[7]!.changes.contains(ReportChange(kind: .layerDismissed, layer: 1)))
    }

    @Test("from and to bound the versions; the version before 'from' is the starting point")
    func bounds() throws {
        let (dir, store) = try Self.randomSession(seed: 9, count: 40)
        _ = dir
        let part = try store.report(session: "s", from: 10, to: 20) { _ in "" }
        let whole = try store.report(session: "s") { _ in "" }
        #expect(part.versions.map(\.version) == Array(10...20))
        #expect(part.latestVersion == whole.latestVersion)
        for (a, b) in zip(part.drawnVersions, whole.drawnVersions[9...19]) {
            #expect(a.changes == b.changes, "v\(a.version): the diff is from the state before 'from'")
            #expect(a.backMenu == b.backMenu)
            #expect(
                a.layers.map { $0.entries.map { part.entries[$0] } }
                    == b.layers.map { $0.entries.map { whole.entries[$0] } })
        }
        let latest = whole.latestVersion
        #expect(throws: StoreError.self) { try store.report(session: "s", from: latest + 1) { _ in "" } }
        #expect(throws: StoreError.self) { try store.report(session: "s", to: latest + 1) { _ in "" } }
        #expect(throws: StoreError.self) { try store.report(session: "s", from: 5, to: 4) { _ in "" } }
        #expect(throws: StoreError.sessionNotFound("nope")) { try store.report(session: "nope") { _ in "" } }
    }

    @Test("a push and a pop on a deep stack name the one menu row they add or remove; a menu cut short gives counts")
    func menuRowChanges() throws {
        let dir = try TemporaryDirectory()
        let store = try NavigationStore(path: dir.path("m.sqlite"), options: fastOptions())
        try store.startSession("m", at: 0)
        var commands: [NavigationCommand] = (0..<100).map {
            .push(Entry(id: "e\($0)", item: NavigationItem(title: "Screen \($0)")))
        }
        commands.append(.pop(source: .backButton))
        commands.append(.update(entryID: "e50", item: NavigationItem(title: "Fifty")))
        commands.append(.update(entryID: "e97", item: NavigationItem(title: "Screen 97", hidesBackButton: true)))
        try store.append(contentsOf: commands, session: "m", at: 1)
        let report = try store.report(session: "m") { _ in "" }
        let v = Dictionary(uniqueKeysWithValues: report.drawnVersions.map { ($0.version, $0) })
        #expect(
            v[101]!.changes.last
                == ReportChange(kind: .menuRowAdded, entry: "e98", row: 1, after: .string("Screen 98")))
        #expect(v[101]!.backMenu?.count == 99)
        #expect(v[102]!.changes.last == ReportChange(kind: .menuRowRemoved, entry: "e98", before: .string("Screen 98")))
        #expect(
            v[103]!.changes.last
                == ReportChange(kind: .menuRowChanged, entry: "e50", row: 48, before: .string("Screen 50"), after: .string("Fifty")))
        // e97 now ends the menu (rule 6): 97 rows become 1, more than a list shows.
        #expect(v[104]!.changes.last == ReportChange(kind: .backMenu, before: .integer(98), after: .integer(1)))
        #expect(v[104]!.backMenu?.map(\.entry) == ["e97"])
    }

    @Test("a report larger than a page holds comfortably says so and names --from and --to")
    func sizeNote() throws {
        let dir = try TemporaryDirectory()
        let store = try NavigationStore(path: dir.path("n.sqlite"), options: fastOptions())
        try store.startSession("n", at: 0)
        try store.append(
            contentsOf: (0..<40).map { .push(Entry(id: "e\($0)", item: NavigationItem(title: "S\($0)"))) }, session: "n",
            at: 1)
        let report = try store.report(session: "n") { _ in "" }
        #expect(report.sizeNote() == nil, "41 versions are far below the threshold")
        #expect(report.sizeNote(comfortable: 41) == nil)
        #expect(
            report.sizeNote(comfortable: 30)
                == "the page holds 41 versions (1-41), more than the 30 a browser opens comfortably; give --from and --to for a part (e.g. --from 12 for the last 30)"
        )
        #expect(SessionReport.comfortableVersions == 150_000)
    }

    @Test("the index links each page in plain HTML, with the platform, its texts escaped")
    func indexLinks() throws {
        let dir = try TemporaryDirectory()
        let store = try NavigationStore(path: dir.path("i.sqlite"), options: fastOptions())
        try store.startSession("mail", name: "Mail & <friends>", platform: .ios26, at: 0)
        try store.startSession("</a><script>x</script>", at: 0)
        let html = try ReportPage.html(try store.reportIndex())
        let mail = ReportIndex.fileName(for: "mail")
        #expect(html.contains("<a href=\"\(mail)\"><bdi>mail</bdi></a>"), "a link without the script")
        #expect(html.contains("<td><bdi>Mail &amp; &lt;friends&gt;</bdi></td><td>ios26</td>"))
        #expect(html.contains("<bdi>&lt;/a&gt;&lt;script&gt;x&lt;/script&gt;</bdi>"))
        #expect(!html.contains("<script>x"))
        #expect(html.contains("<th scope=\"col\">Platform</th>"))
    }

    @Test("the data grows with the events and what they change, not with events × depth")
    func linearSize() throws {
        func size(_ pushes: Int, depth: Int) throws -> Int {
            let dir = try TemporaryDirectory()
            let store = try NavigationStore(path: dir.path("l.sqlite"), options: fastOptions())
            try store.startSession("l", at: 0)
            var commands: [NavigationCommand] = (0..<depth).map {
                .push(Entry(id: "base\($0)", item: NavigationItem(title: "Screen \($0)")))
            }
            for n in 0..<pushes {
                commands.append(
                    .push(
                        Entry(id: "x\(n)", item: NavigationItem(title: "Pushed \(n)", backButtonTitle: "Back to \(n)")))
                )
                commands.append(.pop(source: .programmatic))
            }
            try store.append(contentsOf: commands, session: "l", at: 1)
            return try ReportPage.embed(store.report(session: "l") { $0.type }).utf8.count
        }
        let small = try size(500, depth: 5)
        let double = try size(1_000, depth: 5)
        let ratio = Double(double) / Double(small)
        #expect(ratio > 1.8 && ratio < 2.2, "twice the events, about twice the bytes: \(small) → \(double)")
        let deep = try size(500, depth: 10)
        #expect(
            Double(deep) / Double(small) < 1.3, "versions hold what changed: twice the depth, about the same bytes: \(small) → \(deep)")
        let deeper = try size(500, depth: 400)
        #expect(
            Double(deeper) / Double(small) < 2, "80 times the depth, less than twice the bytes: \(small) → \(deeper)")
    }
}

@Suite("Report: the page")
struct ReportPageTests {
    static let hostile = [
        "</script><img src=x onerror=alert(1)>", "<!--", "a\u{2028}b\u{2029}c", "&amp; &lt;", "\u{202E}evil\u{202C}",
        "\"quote\" 'apostrophe' \\", "</SCRIPT >", "]]>", "\u{0}nul",
    ]

    @Test("embedded data has no <, >, &, U+2028 or U+2029, and decodes to exactly what was embedded")
    func embedding() throws {
        let items = Self.hostile.map { ReportField(name: $0, value: .string($0)) }
        let text = try ReportPage.embed(items)
        for forbidden in ["<", ">", "&", "\u{2028}", "\u{2029}"] {
            #expect(!text.contains(forbidden), "found \(forbidden.unicodeScalars.first!.value) in \(text)")
        }
        let decoded = try JSONDecoder().decode([ReportField].self, from: Data(text.utf8))
        #expect(decoded.map(\.name).map { Array($0.unicodeScalars) } == Self.hostile.map { Array($0.unicodeScalars) })
    }

    @Test(
        "a report's data, its versions written by NavStore's writer, decodes to exactly the report (random sessions with hostile text, tabs, sheets)",
        arguments: [UInt64(3), 8, 21])
    func embeddedReportRoundTrips(seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        let store = try NavigationStore(path: dir.path("e.sqlite"), options: fastOptions())
        try store.startSession("e", at: 0)
        var state = try store.state(session: "e").state
        var generator = CommandGenerator(seed: seed)
        for step in 1...600 {
            guard case .command(let command) = generator.step(in: state),
                (try? store.execute(command, session: "e", at: Int64(step))) != nil
            else { continue }
            state = try store.state(session: "e").state
        }
        try store.execute(
            .push(Entry(id: "hostile", item: NavigationItem(title: Self.hostile.joined()))), session: "e", at: 9_999)
        let report = try store.report(session: "e", lint: LintOptions(width: 8)) { "summary of \($0.type) </script>" }
        let text = try ReportPage.embedReport(report)
        for forbidden in ["<", ">", "&", "\u{2028}", "\u{2029}"] { #expect(!text.contains(forbidden)) }
        // JSONEncoder's text of the same report, decoded the same way (a JSON null and an absent
        // key both decode to nil): the two texts carry the same data.
        let decoded = try JSONDecoder().decode(SessionReport.self, from: Data(text.utf8))
        let reference = try JSONDecoder().decode(SessionReport.self, from: Data(try ReportPage.embed(report).utf8))
        #expect(decoded == reference, "seed \(seed)")
        #expect(decoded.versions.count == report.versions.count && decoded.entries == report.entries)
    }

    // SQLite only: its entry ids and routes include U+0000, which PostgreSQL text cannot hold.
    @Test("a hostile title appears in the page only inside the escaped data", arguments: [StoreBackend.sqlite])
    func hostileTitleStaysData(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend, options: fastOptions())
        try store.startSession("</script><script>alert(1)</script>", name: Self.hostile[0], at: 0)
        for (n, title) in Self.hostile.enumerated() {
            try store.execute(
                .push(Entry(id: "e\(n)\(title)", route: title, item: NavigationItem(title: title, menuTitle: title))),
                session: "</script><script>alert(1)</script>", at: Int64(n))
        }
        let html = try ReportPage.html(
            store.report(session: "</script><script>alert(1)</script>") { _ in Self.hostile[0] })
        #expect(html.components(separatedBy: "<script").count == 3, "exactly the data block and the page's script")
        #expect(html.components(separatedBy: "</script>").count == 3)
        #expect(!html.contains("<img"))
        #expect(!html.contains("\u{2028}") && !html.contains("\u{2029}"))
    }

    @Test("the Content-Security-Policy names the hashes of exactly the script and the style in the page")
    func contentSecurityPolicy() throws {
        let html = try ReportPage.html(ReportIndex([]))
        let csp = ReportPage.contentSecurityPolicy
        #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"\(csp)\">"))
        #expect(csp.hasPrefix("default-src 'none'; "))
        #expect(!csp.contains("unsafe"))
        #expect(html.contains("<script>\(ReportPage.script)</script>"))
        #expect(html.contains("<style>\(ReportPage.style)</style>"))
        #expect(csp.contains("script-src '\(ReportPage.hashSource(ReportPage.script))'"))
        #expect(csp.contains("style-src '\(ReportPage.hashSource(ReportPage.style))'"))
        // The hash of the FIPS 180-2 "abc" vector, in CSP's base64 form.
        #expect(ReportPage.hashSource("abc") == "sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
        // Nothing the page could load: no URL outside the data.
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("src="))
    }

    @Test(
        "page file names are safe and tell keys apart",
        arguments: [
            ("mail", "mail-"), ("Mail", "mail-"), ("a/b/../c", "a-b-c-"), ("", "session-"), ("日本", "session-"),
            ("café", "caf-"), (String(repeating: "x", count: 100), String(repeating: "x", count: 40) + "-"),
        ])
    func fileNames(key: String, prefix: String) {
        let name = ReportIndex.fileName(for: key)
        #expect(name.hasPrefix(prefix), "\(name)")
        #expect(name.hasSuffix(".html"))
        #expect(name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") })
        #expect(name == name.lowercased())
    }

    @Test("keys that differ only in case or in canonically equivalent spelling get different files")
    func distinctFileNames() {
        let keys = ["mail", "Mail", "MAIL", "caf\u{E9}", "cafe\u{301}", "a b", "a-b", "a_b"]
        #expect(Set(keys.map(ReportIndex.fileName(for:))).count == keys.count)
    }
}
