import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel

/// Session keys, entry ids and tab ids are exact text, as SQLite compares them: two canonically
/// equivalent spellings (`é` as one code point and as `e` + U+0301) are two keys everywhere,
/// whatever Swift's `String ==` says. Random commands over names drawn from such pairs, checked
/// against a model that keys everything by its UTF-8 bytes.
@Suite("Canonically equivalent spellings are different keys (property)")
struct CanonicalSpellingPropertyTests {
    /// Pairs Swift's `==` takes for one string: NFC and NFD, and marks in another order.
    static let pairs: [(String, String)] = [
        ("caf\u{E9}", "cafe\u{301}"),
        ("\u{C5}", "A\u{30A}"),
        ("a\u{323}\u{307}", "a\u{307}\u{323}"),
    ]
    /// Every spelling, each a different name.
    static let names: [String] = pairs.flatMap { [$0.0, $0.1] }

    static let seeds: [UInt64] = [1, 2, 3, 0xC0FFEE, 0x5EED, 42, 7, 99]

    @Test(
        "sessions, entries and tabs named by NFC/NFD twins stay apart in the store, its reads and its exports",
        arguments: seeds)
    func twinsStayApart(seed: UInt64) throws {
        #expect(Self.pairs.allSatisfy { $0.0 == $0.1 && !$0.0.hasSameScalars(as: $0.1) }, "the pairs are twins")
        var random = SplitMix64(seed: seed)
        let directory = try TemporaryDirectory()
        let store = try NavigationStore(path: directory.path("nav.sqlite"))
        // The model: each session's pushed ids, by the session key's bytes.
        var pushed: [[UInt8]: [String]] = [:]
        for key in Self.names {
            try store.startSession(key)
            pushed[Array(key.utf8)] = []
        }
        for _ in 0..<60 {
            let key = Self.names.randomElement(using: &random)!
            let name = Self.names.randomElement(using: &random)!
            let id = "\(name)-\(Int.random(in: 0..<4, using: &random))"
            var ids = pushed[Array(key.utf8)]!
            let live = ids.contains { $0.hasSameScalars(as: id) }
            do {
                if live {
                    // A pop to the entry: only the same bytes name it.
                    try store.execute(.popTo(entryID: id, source: .programmatic), session: key)
                    let index = ids.lastIndex { $0.hasSameScalars(as: id) }!
                    ids.removeSubrange((index + 1)...)
                } else {
                    try store.execute(.push(Entry(id: id)), session: key)
                    ids.append(id)
                }
            } catch {
                Issue.record("seed \(seed): \(live ? "pop to" : "push") '\(id)' in '\(key)': \(error)")
                return
            }
            pushed[Array(key.utf8)] = ids
        }
        // Each session reads back exactly its own ids, byte for byte.
        #expect(try store.sessions().count == Self.names.count)
        for key in Self.names {
            let stored = try store.state(session: key).state.layers[0].entries.map(\.id)
            let wanted = pushed[Array(key.utf8)]!
            #expect(
                stored.count == wanted.count && zip(stored, wanted).allSatisfy { $0.hasSameScalars(as: $1) },
                "seed \(seed): '\(key)'")
            // The export of one key holds that session's events alone.
            var lines = 0
            try store.exportNDJSON(session: key) { line in
                lines += 1
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                let session = object?["session"] as? String
                #expect(session.map { $0.hasSameScalars(as: key) } == true, "seed \(seed): \(line)")
            }
            #expect(lines >= 1)
        }
    }

    @Test("tab ids that are twins are two tabs: each keeps its own stack, selection and reads", arguments: seeds)
    func twinTabs(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var state = SessionState()
        let tabs = Self.names.map { Tab(id: $0) }
        state.apply(try #require(try state.decide(.setTabs(tabs))))
        var stacks: [[UInt8]: [String]] = Dictionary(uniqueKeysWithValues: Self.names.map { (Array($0.utf8), []) })
        for step in 0..<80 {
            let tab = Self.names.randomElement(using: &random)!
            let id = "e\(step)"
            if Bool.random(using: &random) {
                if let selection = try state.decide(.selectTab(tab, source: .programmatic)) { state.apply(selection) }
                #expect(state.selectedTab?.hasSameScalars(as: tab) == true, "seed \(seed): selected '\(tab)'")
            }
            state.apply(try #require(try state.decide(.inTab(tab, .push(Entry(id: id))))))
            stacks[Array(tab.utf8)]!.append(id)
        }
        for name in Self.names {
            let stack = try #require(state.stack(ofTab: name)).entries.map(\.id)
            #expect(stack == stacks[Array(name.utf8)]!, "seed \(seed): tab '\(name)'")
            #expect(try state.viewingTab(name).layers[0].entries.map(\.id) == stack)
        }
    }
}
