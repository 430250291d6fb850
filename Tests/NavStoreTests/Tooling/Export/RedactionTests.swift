import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

@Suite("NavigationStore: redacted export")
struct RedactionTests {
    /// Every text of a state that redaction must hide (entry ids separately).
    static func texts(of entries: [Entry]) -> [String] {
        entries.flatMap { entry -> [String] in
            var texts = [
                entry.item.title, entry.item.backButtonTitle, entry.item.backBarButtonItem?.title,
                entry.item.menuTitle, entry.item.popGuard?.prompt, entry.route,
            ].compactMap { $0 }
            func collect(_ value: JSONValue) {
                switch value {
                case .string(let text): texts.append(text)
                case .array(let values): values.forEach(collect)
                case .object(let object): object.values.forEach(collect)
                default: break
                }
            }
            entry.params?.values.forEach(collect)
            return texts
        }
    }

    /// Every text and id that appears in a session's events.
    static func secrets(_ events: [Event]) -> (texts: Set<String>, ids: Set<String>) {
        var texts = Set<String>()
        var ids = Set<String>()
        for event in events {
            ids.insert(event.session)
            ids.formUnion(event.body.entryIDs)
            switch event.body {
            case .sessionStarted(let name, _): if let name { texts.insert(name) }
            case .entryPushed(let entry), .layerPresented(let entry, _): texts.formUnion(Self.texts(of: [entry]))
            case .stackReplaced(let entries, let observed):
                texts.formUnion(Self.texts(of: entries))
                if let observed { texts.insert(observed.reason) }
            case .itemUpdated(let id, let item, _): texts.formUnion(Self.texts(of: [Entry(id: id, item: item)]))
            case .popVetoed(_, let prompt, _): texts.insert(prompt)
            default: break
            }
        }
        return (texts.filter { !$0.isEmpty }, ids.filter { !$0.isEmpty })
    }

    /// The forms a text can take in JSON output: as is and escaped.
    static func forms(_ text: String) throws -> [String] {
        let escaped = String(decoding: try JSONEncoder().encode(text), as: UTF8.self).dropFirst().dropLast()
        return [text, String(escaped)]
    }

    static func buildUnusualLog(_ store: NavigationStore) throws {
        try buildRandomLog(
            store, seed: 77, sessions: ["session-ключ-1", "session-ключ-2"], batches: 80, batchSize: 1...15,
            unusual: true)
        // Every kind of text, set on purpose, including a veto's prompt and a session name.
        try store.startSession("session-ключ-3", name: "Name of a person 👤 #n", at: 1_800_000_000_000)
        try store.append(
            contentsOf: [
                .push(
                    Entry(
                        id: "root-Ω", route: "route://secret/🗝️",
                        params: ["token": .string("param-value-🔑"), "id": .integer(987_654_321)],
                        item: NavigationItem(
                            title: "Title 🧭 #t", backButtonTitle: "Back title ⤴ #b",
                            backBarButtonItem: BackBarButtonItem(title: "Custom back #c", image: true),
                            menuTitle: "Menu row #m"))),
                .push(
                    Entry(
                        id: "guarded-Ω",
                        item: NavigationItem(title: "Same text ✓", popGuard: PopGuard(prompt: "Prompt: discard? #p")))),
                .pop(source: .backButton),
                .push(Entry(id: "twin-Ω", item: NavigationItem(title: "Same text ✓", backButtonTitle: ""))),
                .push(Entry(id: "blank-Ω", item: NavigationItem(title: "", menuTitle: ""))),
            ], session: "session-ключ-3", at: 1_800_000_000_001)
    }

    @Test(
        "no original title, back title, menu title, prompt, name, route, param value or id appears",
        arguments: [false, true])
    func nothingLeaks(keepIDs: Bool) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, options: fastOptions())
        try Self.buildUnusualLog(store)
        let (texts, ids) = Self.secrets(try store.allEvents())
        #expect(texts.count > 500)
        let lines = try store.exportLines(redact: true, keepIDs: keepIDs)
        // Every string in the output (keys and values) is a hash, "", or structure.
        var leaves = Set<String>()
        func collect(_ value: Any) {
            if let text = value as? String { leaves.insert(text) }
            if let array = value as? [Any] { array.forEach(collect) }
            if let object = value as? [String: Any] {
                for (key, child) in object {
                    leaves.insert(key)
                    collect(child)
                }
            }
        }
        for line in lines { collect(try JSONSerialization.jsonObject(with: Data(line.utf8))) }
        #expect(leaves.isDisjoint(with: texts))
        // And no text appears anywhere inside the raw lines, as is or JSON-escaped.
        let output = lines.joined(separator: "\n")
        for text in texts.sorted().prefix(150) where text.count < 200 {
            for form in try Self.forms(text) where form.count >= 4 {
                #expect(!output.contains(form), "\(text.prefix(40)) leaked")
            }
        }
        for id in ids {
            #expect(output.contains("\"\(id)\"") == keepIDs, "\(id)")
        }
        #expect(!output.contains("Back title"))
        #expect(!output.contains("\"token\""), "a param key leaked")
    }

    // SQLite only: its texts include U+0000, which PostgreSQL text cannot hold (the README says so).
    @Test("the same text gives the same hash within an export; \"\" and nil are kept", arguments: [StoreBackend.sqlite])
    func stableHashes(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend, options: fastOptions())
        try Self.buildUnusualLog(store)
        let lines = try store.exportLines(session: "session-ключ-3", redact: true)
        let events = try lines.map { try JSONDecoder().decode(EventRecord.self, from: Data($0.utf8)).event() }
        guard case .entryPushed(let root) = events[1].body, case .entryPushed(let guarded) = events[2].body,
            case .popVetoed(let vetoedID, let prompt, .backButton) = events[3].body,
            case .entryPushed(let twin) = events[4].body, case .entryPushed(let blank) = events[5].body
        else {
            Issue.record("unexpected shapes: \(events.map(\.type))")
            return
        }
        let hash = /^h:[0-9a-f]{16}$/
        #expect(guarded.item.title == twin.item.title)
        #expect(guarded.item.title?.wholeMatch(of: hash) != nil)
        #expect(root.item.title != guarded.item.title)
        #expect(prompt == guarded.item.popGuard?.prompt)
        #expect(vetoedID == guarded.id && vetoedID.wholeMatch(of: hash) != nil)
        #expect(twin.item.backButtonTitle == "")
        #expect(blank.item.title == "" && blank.item.menuTitle == "")
        #expect(
            blank.item.backButtonTitle == nil && blank.item.backBarButtonItem == nil && blank.route == nil
                && blank.params == nil)
        #expect(root.item.backBarButtonItem?.image == true)
        #expect(root.item.backBarButtonItem?.title?.wholeMatch(of: hash) != nil)
        let redactedParams = try #require(root.params)
        #expect(redactedParams.keys.allSatisfy { $0.wholeMatch(of: hash) != nil }, "\(redactedParams.keys)")
        #expect(redactedParams.values.contains(.integer(987_654_321)))
        #expect(
            redactedParams.values.contains {
                if case .string(let text) = $0 { text.wholeMatch(of: hash) != nil } else { false }
            })
        guard case .sessionStarted(let name, _) = events[0].body else { return }
        #expect(name?.wholeMatch(of: hash) != nil)
        // Structure is kept: types, versions, times, sources, flags.
        let original = try store.allEvents(session: "session-ключ-3")
        #expect(events.map(\.type) == original.map(\.type))
        #expect(events.map(\.version) == original.map(\.version))
        #expect(events.map(\.at) == original.map(\.at))
        // Event ids are replaced: the original ids would tie the export to the device's log.
        #expect(Set(events.map(\.eventID)).isDisjoint(with: original.map(\.eventID)))
        // Another export draws another key.
        let other = try store.exportLines(session: "session-ключ-3", redact: true)
        #expect(other != lines)
    }

    @Test(
        "a redacted export imports and replays to the original structure", arguments: StoreBackend.all, [false, true])
    func redactedImports(backend: StoreBackend, keepIDs: Bool) throws {
        let source = try TemporaryDirectory()
        let target = try TemporaryDirectory()
        let store = try makeStore(source, options: fastOptions())
        try Self.buildUnusualLog(store)
        let key = Array("a fixed key for the test".utf8)
        var lines: [String] = []
        try store.exportNDJSON(session: nil, redactionKey: key, keepIDs: keepIDs) { lines.append($0) }
        let copy = try makeStore(target, on: backend, options: fastOptions())
        let report = try copy.importNDJSON(lines: lines)
        #expect(report.imported == lines.count && report.sessions == 3)
        #expect(try copy.check().isClean)
        let redactor = Redactor(key: key, keepIDs: keepIDs)
        for info in try store.sessions() {
            let original = try store.state(session: info.key)
            let redacted = try copy.state(session: redactor.id(info.key))
            #expect(redacted.version == original.version)
            #expect(redacted.state == redactor.redact(original.state))
            #expect(redacted.state.layers.map(\.entries.count) == original.state.layers.map(\.entries.count))
            #expect((redacted.state.entryIDs == original.state.entryIDs) == (keepIDs || original.state.depth == 0))
            // The back button and menu have the same shape, with hashed text.
            #expect(redacted.backButton?.fallbacks.count == original.backButton?.fallbacks.count)
            #expect(redacted.backMenu?.count == original.backMenu?.count)
            #expect(redacted.backMenu?.map(\.entry) == original.backMenu?.map { redactor.id($0.entry) })
            #expect(redacted.backMenu?.map(\.title.isEmpty) == original.backMenu?.map(\.title.isEmpty))
        }
    }

    @Test(
        "params: keys hashed at every depth, strings hashed, numbers, booleans and null kept, shape kept; it still imports",
        arguments: StoreBackend.all)
    func paramsRedactedRecursively(backend: StoreBackend) throws {
        let source = try TemporaryDirectory()
        let target = try TemporaryDirectory()
        let store = try makeStore(source)
        let email = "jane.doe@example.com"
        let params: [String: JSONValue] = [
            email: .string(email),
            "count": .integer(42), "ratio": .number(0.25), "on": .bool(true), "gone": .null, "": .string(""),
            "contacts": .array([
                .object([email: .integer(7), "note": .string("call \(email)")]), .integer(3), .array([]),
            ]),
            "nested": .object(["deeper": .object([email: .bool(false)])]),
        ]
        try store.startSession("s", at: 1_000)
        try store.execute(
            .push(Entry(id: "A", params: params, item: NavigationItem(title: "Inbox"))), session: "s", at: 1_000)
        try store.execute(.present(Entry(id: "M", params: [email: .integer(1)])), session: "s", at: 1_000)

        // The public path, with a key drawn for the export: nothing of the keys' text is left.
        let output = try store.exportLines(redact: true).joined(separator: "\n")
        for text in ["jane.doe", "example.com", "contacts", "deeper", "nested", "note", "ratio"] {
            #expect(!output.contains(text), "\(text) leaked")
        }

        // With a chosen key, the exact result.
        let key = Array("a fixed key for the test".utf8)
        var lines: [String] = []
        try store.exportNDJSON(session: "s", redactionKey: key, keepIDs: true) { lines.append($0) }
        let events = try lines.map { try JSONDecoder().decode(EventRecord.self, from: Data($0.utf8)).event() }
        let redactor = Redactor(key: key, keepIDs: true)
        let h = { (text: String) in redactor.hash(text) }
        guard case .entryPushed(let pushed) = events[1].body, case .layerPresented(let presented, _) = events[2].body
        else {
            Issue.record("unexpected shapes: \(events.map(\.type))")
            return
        }
        #expect(
            pushed.params == [
                h(email): .string(h(email)),
                h("count"): .integer(42), h("ratio"): .number(0.25), h("on"): .bool(true), h("gone"): .null,
                "": .string(""),
                h("contacts"): .array([
                    .object([h(email): .integer(7), h("note"): .string(h("call \(email)"))]), .integer(3), .array([]),
                ]),
                h("nested"): .object([h("deeper"): .object([h(email): .bool(false)])]),
            ])
        // The same key, the same hash in every event of the export.
        #expect(presented.params == [h(email): .integer(1)])
        #expect(h(email).wholeMatch(of: /^h:[0-9a-f]{16}$/) != nil)

        // The redacted export still imports, with numbers still numbers.
        let copy = try makeStore(target, on: backend)
        #expect(try copy.importNDJSON(lines: lines).imported == 3)
        #expect(try copy.check().isClean)
        #expect(try copy.state(session: "s").state.layers[0].entries[0].params?[h("count")] == .integer(42))
    }

    // MARK: Buttons and menus survive redaction

    /// `button` with every text as `redactor` writes it.
    static func redacted(_ button: BackButton?, _ redactor: Redactor) -> BackButton? {
        button.map {
            BackButton(
                label: redactor.hash($0.label), fallbacks: $0.fallbacks.map { redactor.hash($0) }, image: $0.image)
        }
    }

    /// `menu` with every entry id and title as `redactor` writes them.
    static func redacted(_ menu: [BackMenuRow]?, _ redactor: Redactor) -> [BackMenuRow]? {
        menu.map { $0.map { BackMenuRow(row: $0.row, entry: redactor.id($0.entry), title: redactor.hash($0.title)) } }
    }

    @Test(
        "a title that is literally \"Back\" (or \"\") gives the same button, fallbacks and menu after redaction and import",
        arguments: StoreBackend.all)
    func backTitleKept(backend: StoreBackend) throws {
        let source = try TemporaryDirectory()
        let target = try TemporaryDirectory()
        let store = try makeStore(source, on: backend)
        try store.startSession("s", at: 1)
        try store.append(
            contentsOf: [.push(Entry(id: "A", item: NavigationItem(title: "Back"))), .push(Entry(id: "B"))],
            session: "s", at: 2)
        try store.startSession("t", at: 3)
        try store.append(
            contentsOf: [
                .push(Entry(id: "A", item: NavigationItem(title: "Inbox", backButtonTitle: ""))), .push(Entry(id: "B")),
            ],
            session: "t", at: 4)
        #expect(try store.state(session: "s").backButton == BackButton(label: "Back", fallbacks: [""]))
        #expect(try store.state(session: "t").backButton == BackButton(label: "", fallbacks: []))
        for keepIDs in [true, false] {
            let copy = try NavigationStore(
                path: backend == .sqlite ? target.path("copy-\(keepIDs).sqlite") : try backend.location(target))
            try copy.importNDJSON(lines: try store.exportLines(redact: true, keepIDs: keepIDs))
            for info in try copy.sessions() {
                let state = try copy.state(session: info.key)
                #expect(state.backMenu?.map(\.title) == [state.backButton?.label].compactMap { $0 })
                if state.backButton?.label == "Back" {
                    #expect(state.backButton == BackButton(label: "Back", fallbacks: [""]))
                } else {
                    #expect(state.backButton == BackButton(label: "", fallbacks: []))
                }
            }
            #expect(
                Set(try copy.sessions().map { try copy.state(session: $0.key).backButton?.label ?? "-" }) == [
                    "Back", "",
                ])
        }
    }

    /// How many seeds the replay property runs: `NAVSTORE_REDACTION_SEEDS` (200 for the once-
    /// before-merging run), else 12. `NAVSTORE_REDACTION_SEED` runs that one seed.
    static let replaySeeds: [UInt64] = {
        let environment = ProcessInfo.processInfo.environment
        if let one = environment["NAVSTORE_REDACTION_SEED"].flatMap(UInt64.init) { return [one] }
        let count = environment["NAVSTORE_REDACTION_SEEDS"].flatMap(Int.init) ?? 12
        return (0..<UInt64(max(count, 1))).map { 9_000 + $0 }
    }()

    @Test(
        "random sessions replay after redact and import to the same stacks, buttons and menus at every version, texts hashed"
    )
    func redactedReplayKeepsButtonsAndMenus() throws {
        for seed in Self.replaySeeds {
            let reproduce =
                "seed \(seed): NAVSTORE_REDACTION_SEED=\(seed) swift test --filter redactedReplayKeepsButtonsAndMenus"
            let source = try TemporaryDirectory()
            let target = try TemporaryDirectory()
            let store = try makeStore(source, options: fastOptions())
            try buildRandomLog(store, seed: seed, sessions: ["a", "b"], batches: 24, batchSize: 1...8)
            let key = Array("key \(seed)".utf8)
            let keepIDs = seed % 2 == 0
            var lines: [String] = []
            try store.exportNDJSON(session: nil, redactionKey: key, keepIDs: keepIDs) { lines.append($0) }
            let copy = try makeStore(target, options: fastOptions())
            try copy.importNDJSON(lines: lines)
            let redactor = Redactor(key: key, keepIDs: keepIDs)
            for session in ["a", "b"] {
                let original = try store.allEvents(session: session)
                let replayed = try copy.allEvents(session: redactor.id(session))
                #expect(replayed.count == original.count, "\(reproduce)")
                var before = SessionState()
                var after = SessionState()
                for (event, copied) in zip(original, replayed) {
                    before.apply(event.body)
                    after.apply(copied.body)
                    let place = "\(reproduce), session \(session) version \(event.version)"
                    #expect(after.entryIDs == before.entryIDs.map { $0.map(redactor.id) }, "\(place)")
                    #expect(after.backButton == Self.redacted(before.backButton, redactor), "\(place)")
                    #expect(after.backMenu == Self.redacted(before.backMenu, redactor), "\(place)")
                    if after.backButton != Self.redacted(before.backButton, redactor)
                        || after.backMenu != Self.redacted(before.backMenu, redactor)
                    {
                        return
                    }
                }
            }
        }
    }

    // MARK: Event ids

    @Test(
        "redacted exports carry fresh random v4 event ids, shared by no other export, with previous consistent inside each",
        arguments: StoreBackend.all)
    func redactedEventIDsUnlinkable(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend, options: fastOptions())
        try buildRandomLog(store, seed: 5, sessions: ["a", "b", "c"], batches: 30, batchSize: 1...6)
        let original = try store.allEvents()
        let first = try store.exportLines(redact: true).map {
            try JSONDecoder().decode(EventRecord.self, from: Data($0.utf8))
        }
        let second = try store.exportLines(redact: true, keepIDs: true).map {
            try JSONDecoder().decode(EventRecord.self, from: Data($0.utf8))
        }
        let v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
        for records in [first, second] {
            #expect(records.count == original.count)
            #expect(records.allSatisfy { $0.eventID.wholeMatch(of: v4) != nil })
            #expect(Set(records.map(\.eventID)).count == records.count)
            #expect(Set(records.map(\.eventID)).isDisjoint(with: original.map(\.eventID)))
            #expect(
                records.map(\.seq) == Array(1...Int64(records.count)),
                "seq is renumbered: it tells nothing of other sessions")
            // Each line continues the line before it of its session.
            var newest: [String: String] = [:]
            for record in records {
                #expect(record.previous == newest[record.session], "version \(record.version) of \(record.session)")
                #expect((record.previous == nil) == (record.version == 1))
                newest[record.session] = record.eventID
            }
        }
        #expect(Set(first.map(\.eventID)).isDisjoint(with: second.map(\.eventID)))
        // Times are kept, as documented.
        #expect(first.map(\.at) == original.map(\.at))
    }

    @Test(
        "Firefox-derived event ids do not survive redaction: two databases importing one file export nothing in common",
        arguments: StoreBackend.all)
    func firefoxIDsNotLinkable(backend: StoreBackend) throws {
        let file =
            #"{"version":2,"selectedTabId":"t","sessionStateTuples":[{"session":{"uuid":"tab-1","title":"Bank","url":"https://bank.example","lastAccess":10},"engineSession":{"GECKO_STATE":"{\"history\":{\"entries\":[{\"title\":\"Home\",\"url\":\"https://bank.example\"},{\"title\":\"Account\",\"url\":\"https://bank.example/acct\"}],\"index\":2}}"}}]}"#
        let one = try TemporaryDirectory()
        let two = try TemporaryDirectory()
        let first = try makeStore(one, on: backend)
        let second = try makeStore(two, on: backend)
        try first.importFirefoxSession(data: Array(file.utf8))
        try second.importFirefoxSession(data: Array(file.utf8))
        // Unredacted, the ids are the same in both (deterministic, by design)...
        #expect(try first.exportLines() == second.exportLines())
        // ...redacted, nothing links the two exports or the file.
        let a = try first.exportLines(redact: true, keepIDs: true).map {
            try JSONDecoder().decode(EventRecord.self, from: Data($0.utf8))
        }
        let b = try second.exportLines(redact: true, keepIDs: true).map {
            try JSONDecoder().decode(EventRecord.self, from: Data($0.utf8))
        }
        #expect(Set(a.map(\.eventID)).isDisjoint(with: b.map(\.eventID)))
        #expect(Set(a.map(\.eventID)).isDisjoint(with: try first.allEvents().map(\.eventID)))
    }
}
