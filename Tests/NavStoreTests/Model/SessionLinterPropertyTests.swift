import Foundation
import TestSupport
import Testing

@testable import NavStoreModel

/// The linter that judges every rule on the whole state after every version (the contract of
/// <doc:Lint>, and what `SessionLinter` did before it judged changes): the oracle of the
/// property tests below. A run is one rule holding for one subject over consecutive versions;
/// a `duplicate-menu-rows` group's subject is its title and its farthest row, and its finding
/// names the rows of the first version at which they were most.
struct WholeStateLinter {
    let session: String
    let options: LintOptions
    let rules: LintRuleMask
    var state: SessionState
    var version: Int
    private var open: [Key: (first: Int, last: Int, hit: LintHit)] = [:]
    private var closed: [LintFinding] = []

    struct Key: Hashable {
        var rule: LintRule
        var entries: [String]
        var title: String?

        init(_ hit: LintHit) {
            rule = hit.rule
            if case .duplicateRows(let title) = hit.detail {
                entries = [hit.entries.last!]
                self.title = title
            } else {
                entries = hit.entries
            }
        }

        static func == (a: Key, b: Key) -> Bool {
            a.rule == b.rule && sameIDs(a.entries, b.entries) && a.title == b.title
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(rule)
            for id in entries { ExactKey(id).hash(into: &hasher) }
            hasher.combine(title)
        }
    }

    init(session: String, options: LintOptions, initial: SessionState = SessionState(), version: Int = 0) {
        self.session = session
        self.options = options
        self.rules = LintRuleMask(options)
        self.state = initial
        self.version = version
        if version > 0 {
            var hits: [LintHit] = []
            initial.lintHits(options, rules: rules, into: &hits)
            judge(hits)
        }
    }

    mutating func consume(_ event: EventBody) {
        var extra: [LintHit] = []
        if rules.contains(.guardBypassed), let hit = state.guardBypassHit(by: event) { extra.append(hit) }
        if rules.contains(.modelDivergence), let hit = state.modelDivergenceHit(by: event) { extra.append(hit) }
        state.apply(event)
        version += 1
        var hits: [LintHit] = []
        state.lintHits(options, rules: rules, into: &hits)
        judge(hits + extra)
    }

    private mutating func judge(_ hits: [LintHit]) {
        for hit in hits {
            let key = Key(hit)
            if let run = open[key] {
                if hit.rule != .guardBypassed, hit.rule != .modelDivergence, run.last == version - 1 {
                    open[key]!.last = version
                    if hit.entries.count > run.hit.entries.count { open[key]!.hit = hit }
                    continue
                }
                close(open.removeValue(forKey: key)!)
            }
            open[key] = (version, version, hit)
        }
        for (key, run) in open where run.last < version {
            close(open.removeValue(forKey: key)!)
        }
    }

    private mutating func close(_ run: (first: Int, last: Int, hit: LintHit)) {
        closed.append(
            LintFinding(
                rule: run.hit.rule, session: session, entries: run.hit.entries, firstVersion: run.first,
                lastVersion: run.last, current: false, message: run.hit.message))
    }

    mutating func finish() -> [LintFinding] {
        for (_, run) in open { close(run) }
        open = [:]
        for index in closed.indices where closed[index].lastVersion == version { closed[index].current = true }
        return closed.sorted(by: SessionLinter.precedes)
    }
}

extension ModelTests {
    @Suite("SessionLinter judges changes as the whole state would")
    struct SessionLinterPropertyTests {
        /// Seeds run in the fast tier; the full run adds more (each seed is a few hundred events).
        static let seeds: [UInt64] = Array(1...UInt64(TestTier.isFast ? 60 : 400))

        /// A random session of `steps` events the rules accept: the fold tests' commands, with
        /// pushes of fresh entries mixed in so that menus grow deep and titles repeat.
        static func events(seed: UInt64, steps: Int, pushes: Double = 0.3) -> [EventBody] {
            var generator = CommandGenerator(seed: seed)
            let start = EventBody.sessionStarted(name: nil, platform: seed % 3 == 1 ? .ios26 : .ios14)
            var state = SessionState.fold([start])
            var events = [start]
            if seed % 4 == 2 {
                let tabs = EventBody.tabsReplaced([Tab(id: "t1", title: "One"), Tab(id: "t2"), Tab(id: "t3")])
                state.apply(tabs)
                events.append(tabs)
            }
            var fresh = 0
            while events.count < steps {
                let command: NavigationCommand
                if generator.chance(pushes) {
                    fresh += 1
                    command = .push(Entry(id: "d\(fresh)", item: generator.item()))
                } else if case .command(let next) = generator.step(in: state) {
                    command = next
                } else {
                    continue
                }
                guard let event = try? state.decide(command) else { continue }
                state.apply(event)
                events.append(event)
            }
            return events
        }

        static let optionSets: [LintOptions] = [
            LintOptions(),
            LintOptions(rules: Set(LintRule.allCases), width: 12),
            LintOptions(rules: [.duplicateMenuRows, .ignoredBackSetting], platform: .ios26),
            LintOptions(rules: Set(LintRule.allCases), width: 4, platform: .ios14),
        ]

        /// Records the findings only one side has, one line each, not the whole lists.
        static func expectSame(_ found: [LintFinding], _ expected: [LintFinding], _ context: String) {
            guard found != expected else { return }
            func line(_ f: LintFinding) -> String {
                "\(f.rule) \(f.entries) v\(f.firstVersion)-v\(f.lastVersion)\(f.current ? " current" : "") \(f.message)"
            }
            let extra = found.filter { !expected.contains($0) }.prefix(5).map(line)
            let missing = expected.filter { !found.contains($0) }.prefix(5).map(line)
            Issue.record("\(context): found but not expected \(extra); expected but not found \(missing)")
        }

        @Test("the findings equal the whole state's, drained as they end or all at the end", arguments: seeds)
        func sameFindings(seed: UInt64) {
            let events = Self.events(seed: seed, steps: 300)
            let options = Self.optionSets[Int(seed) % Self.optionSets.count]
            var oracle = WholeStateLinter(session: "s", options: options)
            var whole = SessionLinter(session: "s", options: options)
            var streamed = SessionLinter(session: "s", options: options)
            var drained: [LintFinding] = []
            for event in events {
                oracle.consume(event)
                whole.consume(event)
                streamed.consume(event)
                drained += streamed.drainEnded()
            }
            let expected = oracle.finish()
            let found = whole.finish()
            Self.expectSame(found, expected, "seed \(seed)")
            let all = (drained + streamed.finish()).sorted(by: SessionLinter.precedes)
            Self.expectSame(all, expected, "seed \(seed), drained")
            #expect(drained.allSatisfy { !$0.current })
        }

        @Test(
            "deep menus whose titles repeat (groups that grow, shrink at the near end and change members) are judged as the whole state does",
            arguments: seeds.prefix(TestTier.isFast ? 10 : 40))
        func deepRepeatingGroups(seed: UInt64) {
            let events = Self.events(seed: seed &+ 3_000, steps: 1_000, pushes: 0.6)
            let options = Self.optionSets[Int(seed) % Self.optionSets.count]
            var oracle = WholeStateLinter(session: "s", options: options)
            var linter = SessionLinter(session: "s", options: options)
            var drained: [LintFinding] = []
            for event in events {
                oracle.consume(event)
                linter.consume(event)
                drained += linter.drainEnded()
            }
            let expected = oracle.finish()
            Self.expectSame((drained + linter.finish()).sorted(by: SessionLinter.precedes), expected, "seed \(seed)")
        }

        @Test(
            "titles that leave the menu by the hundred and come back (the linter's title numbers swept and reused) are judged as the whole state does"
        )
        func titlesSweptAndReused() {
            // 150 screens with titles of their own, popped to the root (every title leaves: far
            // more emptied than live, so the numbers are swept), then 150 more whose titles
            // repeat those of the first ones in another order, some twice (numbers given again),
            // a title changed under a row, and a pop to the root again.
            func push(_ id: String, _ title: String) -> NavigationCommand {
                .push(Entry(id: id, item: NavigationItem(title: title)))
            }
            var commands: [NavigationCommand] = [push("root", "Root")]
            commands += (0..<150).map { push("a\($0)", "Title \($0)") }
            commands.append(.popToRoot)
            commands += (0..<150).map { push("b\($0)", "Title \(($0 * 7) % 90)") }
            commands.append(.update(entryID: "b3", item: NavigationItem(title: "Title 5")))
            commands += (0..<20).map { push("c\($0)", "Other \($0 % 3)") }
            commands.append(.popToRoot)
            commands += (0..<80).map { push("d\($0)", "Title \($0 % 40)") }
            var state = SessionState()
            var events: [EventBody] = [.sessionStarted(name: nil)]
            for command in commands {
                guard let event = try? state.decide(command) else {
                    Issue.record("refused: \(command)")
                    return
                }
                state.apply(event)
                events.append(event)
            }
            var oracle = WholeStateLinter(session: "s", options: LintOptions())
            var linter = SessionLinter(session: "s", options: LintOptions())
            for event in events {
                oracle.consume(event)
                linter.consume(event)
            }
            let expected = oracle.finish()
            #expect(expected.contains { $0.rule == .duplicateMenuRows && $0.current })
            Self.expectSame(linter.finish(), expected, "titles swept and reused")
        }

        @Test(
            "a linter started at a truncated session's base judges as the whole state does", arguments: seeds.prefix(40)
        )
        func fromBase(seed: UInt64) {
            let events = Self.events(seed: seed &+ 1_000, steps: 240)
            let cut = 40 + Int(seed % 100)
            let base = SessionState.fold(events[..<cut])
            let options = Self.optionSets[Int(seed) % Self.optionSets.count]
            var oracle = WholeStateLinter(session: "s", options: options, initial: base, version: cut)
            var linter = SessionLinter(session: "s", options: options, initial: base, version: cut)
            for event in events[cut...] {
                oracle.consume(event)
                linter.consume(event)
            }
            Self.expectSame(linter.finish(), oracle.finish(), "seed \(seed) from version \(cut)")
        }

        @Test(
            "an event's change, applied as splices to the layers before, gives the layers after",
            arguments: seeds.prefix(30))
        func splicesMatchTheReducer(seed: UInt64) {
            var state = SessionState()
            for event in Self.events(seed: seed &+ 7_000, steps: 300) {
                let change = state.change(by: event)
                var ids = state.entryIDs
                let counts = ids.map(\.count)
                state.apply(event)
                let after = state.entryIDs
                for splice in change.splices {
                    let before = splice.layer < counts.count ? counts[splice.layer] : 0
                    let count = splice.layer < after.count ? after[splice.layer].count : 0
                    let inserted = splice.inserted(before: before, after: count)
                    if splice.layer == ids.count { ids.append([]) }
                    let new = splice.layer < after.count ? after[splice.layer][splice.at..<(splice.at + inserted)] : []
                    ids[splice.layer].replaceSubrange(splice.at..<(splice.at + splice.removed), with: new)
                }
                while ids.count > after.count, ids.last?.isEmpty == true { ids.removeLast() }
                #expect(ids == after, "seed \(seed): \(event)")
                if !change.tabBar, state.tabBar == nil || !event.type.hasPrefix("tab") {
                    // Outside the splices nothing moved: the menu's lowest row agrees with the walk.
                    let ends = MenuEnds(state.topLayer)
                    #expect(
                        state.backMenuPositions(lowestRow: { ends.lowestRow(below: $0) }) == state.backMenuPositions)
                }
            }
        }
    }
}
