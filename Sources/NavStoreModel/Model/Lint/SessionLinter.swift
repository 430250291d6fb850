/// Lints one session's events as they stream by (<doc:Lint>): folds each event into the state
/// with the model's own ``SessionState/apply(_:)``, judges the rules after every version, and
/// joins the versions at which a rule holds for a subject into runs (``LintFinding``).
///
/// It judges what each event changed, not the whole state again: the rules about entries
/// (`ignored-back-setting`) and about the back menu's rows (`blank-menu-row`,
/// `untitled-menu-row`, `duplicate-menu-rows`) are redone for the entries and rows the event
/// added, removed or changed (`SessionState.change(by:)`), the rules about the top of the
/// stack every version, and a tab off screen when the tab bar changed; so a 16,000-deep stack
/// costs what a shallow one does per event. The findings are those of judging every rule on
/// the whole state after every version (`SessionLinterPropertyTests` compares the two).
///
/// A `duplicate-menu-rows` group is one finding while its title and farthest row stay and two
/// or more rows share the title: a row joining or leaving nearer costs O(1), and the finding
/// states its rows once, at their most, so the findings' size grows with the events, not with
/// the events times the depth.
///
/// It holds the session's state, a few facts per live entry and the runs still open: findings
/// that ended are handed out by ``drainEnded()`` as they end, so memory does not grow with the
/// number of events or of findings.
///
/// ```swift
/// var linter = SessionLinter(session: "window-1")
/// for event in events { linter.consume(event) }   // versions 1, 2, 3, ... in order
/// let findings = linter.finish()
/// ```
public struct SessionLinter: Sendable {
    /// The session key the findings name.
    public let session: String
    /// What is checked.
    public let options: LintOptions
    /// The state after the last event consumed.
    public private(set) var state: SessionState
    /// The version of the last event consumed (0 before the first).
    public private(set) var version = 0

    /// A rule and its subject; entry ids compare by their Unicode scalars, as the model's ids do.
    /// A `duplicate-menu-rows` group's subject is its title and its farthest row, not its rows:
    /// rows that join or leave at the near end keep its finding.
    private struct RunKey: Hashable {
        var rule: LintRule
        /// The entry ids the finding names, or a duplicate group's farthest row alone.
        var entries: [String]
        /// The title a duplicate group's rows share, else `nil`.
        var title: String?

        init(rule: LintRule, entries: [String], title: String? = nil) {
            self.rule = rule
            self.entries = entries
            self.title = title
        }

        init(_ hit: LintHit) {
            if case .duplicateRows(let title) = hit.detail, let farthest = hit.entries.last {
                self.init(rule: hit.rule, entries: [farthest], title: title)
            } else {
                self.init(rule: hit.rule, entries: hit.entries)
            }
        }

        static func == (a: RunKey, b: RunKey) -> Bool {
            a.rule == b.rule && sameIDs(a.entries, b.entries) && a.title == b.title
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(rule)
            for id in entries { ExactKey(id).hash(into: &hasher) }
            hasher.combine(title)
        }
    }

    /// A run still open: its first version and the hit its finding states (its message is
    /// written when the run ends). That is the first version's hit, or for a duplicate group the
    /// first with the most rows, its entries kept farthest first so that rows joining at the
    /// near end are appended (``finding(_:last:current:)`` turns them nearest first).
    private struct Run {
        var first: Int
        var hit: LintHit

        init(first: Int, hit: LintHit) {
            self.first = first
            self.hit = hit
            if hit.rule == .duplicateMenuRows { self.hit.entries.reverse() }
        }
    }

    /// What a duplicate group's finding is about: the title its rows share and its farthest row
    /// (compared as the model compares ids), so that a row joining or leaving nearer keeps it.
    private struct GroupSubject: Equatable {
        var farthest: String
        var title: String

        static func == (a: GroupSubject, b: GroupSubject) -> Bool {
            a.farthest.hasSameScalars(as: b.farthest) && a.title == b.title
        }

        /// The key of the group's run.
        var key: RunKey { RunKey(rule: .duplicateMenuRows, entries: [farthest], title: title) }
    }

    /// The rows of the judged menu that share one non-empty title (for `duplicate-menu-rows`).
    private struct Group {
        /// The positions of the rows, ascending (farthest first).
        var rows: [Int] = []
        /// The rows of the group's finding at their most, while it has one.
        var most = 0
        /// How many of ``rows``, from the farthest, are the first entries its finding names: a
        /// group that grows past ``most`` restates only the rows after them.
        var shared = 0
    }

    /// What the linter keeps per live entry of a layer on screen.
    private struct EntryFacts {
        /// The entry id.
        var id: String
        /// Its back-menu row title (``NavigationItem/backMenuTitle``).
        var title: String
        /// Its `ignored-back-setting` hit, if any.
        var ignored: LintHit?
        /// The hits of its row, when it is one (`blank-menu-row`, `untitled-menu-row`).
        var row: [LintHit]
        /// The number of its title in ``SessionLinter/groups`` while it is a row of the judged
        /// menu and `duplicate-menu-rows` runs, else -1.
        var group = -1
    }

    private let rules: LintRuleMask
    /// Whether a rule about entries or rows runs (else no facts are kept).
    private let tracksEntries: Bool
    private let tracksMenu: Bool
    private var open: [RunKey: Run] = [:]
    private var ended: [LintFinding] = []
    /// Per layer on screen, per position: what the rules about entries and rows found.
    private var facts: [[EntryFacts]] = []
    /// Per layer on screen: where the back menu stops (rule 6).
    private var ends: [MenuEnds] = []
    /// The back menu judged: its layer and positions (``SessionState/backMenuPositions``).
    private var menu: (layer: Int, positions: ClosedRange<Int>)?
    /// The menu's rows by non-empty title (for `duplicate-menu-rows`), per title number. A title
    /// gets a number when a row with it first joins the menu and keeps it after its last row
    /// leaves, until ``judgeGroups(layer:)`` sweeps the emptied ones, so a row that joins costs
    /// one lookup of its title and one that leaves none.
    private var groups: [Group] = []
    /// The numbers of the titles that have rows in the menu, or had since the last sweep.
    private var groupNumbers: [String: Int] = [:]
    /// Numbers free to give a new title.
    private var freeGroups: [Int] = []
    /// How many numbers of ``groupNumbers`` have no rows (an upper bound: a title that comes
    /// back fills its group again).
    private var emptyGroups = 0
    /// The keys of the hits of the top of the stack at the last version.
    private var topKeys: [RunKey] = []
    /// The keys of the hits of the tabs off screen at the last version.
    private var tabKeys: Set<RunKey> = []
    /// The keys of the last event's own hits (`guard-bypassed`, `model-divergence`): they hold
    /// for that version alone.
    private var eventKeys: [RunKey] = []
    /// Whether the next version judges everything (the first, or a base's).
    private var rebuildNext = true
    /// This version's changes: keys that no longer hold, and hits that hold.
    private var gone: [RunKey] = []
    private var found: [LintHit] = []
    /// Duplicate groups touched this version (a few): their number and subject before (if they
    /// had one).
    private var touched: [(group: Int, before: GroupSubject?)] = []

    /// A linter for session `session`, starting from `initial` (a new session's empty state by
    /// default) at version `version` (0: the next event consumed is version 1). A start above 0
    /// is a truncated session's base (<doc:Retention>): the rules about the state are judged at that
    /// version too, so a finding holds from the base on as it did before the truncation
    /// (`guard-bypassed` judges an event, and the base's event is gone).
    public init(
        session: String, options: LintOptions = LintOptions(), initial: SessionState = SessionState(), version: Int = 0
    ) {
        self.session = session
        self.options = options
        self.rules = LintRuleMask(options)
        self.tracksMenu =
            rules.contains(.blankMenuRow) || rules.contains(.untitledMenuRow) || rules.contains(.duplicateMenuRows)
        self.tracksEntries = tracksMenu || rules.contains(.ignoredBackSetting)
        self.state = initial
        self.version = version
        if version > 0 { rebuild() }
    }

    /// Folds the session's next event (version ``version`` + 1) and judges the rules after it.
    ///
    /// The event must be one the log could hold after the current state
    /// (``SessionState/validate(_:)``); like `apply`, this never fails.
    /// - Complexity: O(1) for most events, plus the entries and back-menu rows the event
    ///   changed and the findings that start or end; O(n) in the live entries for an
    ///   `item.updated` (to find it, as `apply` does) and for a change of the tab bar.
    public mutating func consume(_ event: EventBody) {
        var eventHits: [LintHit] = []
        if rules.contains(.guardBypassed), let hit = state.guardBypassHit(by: event) { eventHits.append(hit) }
        if rules.contains(.modelDivergence), let hit = state.modelDivergenceHit(by: event) { eventHits.append(hit) }
        let change = rebuildNext ? nil : state.change(by: event)
        let countsBefore = change.map { change in
            change.splices.map { $0.layer < state.layers.count ? state.layers[$0.layer].entries.count : 0 }
        }
        state.apply(event)
        version += 1
        // An event's own hits hold for its version alone: the next event is another finding.
        for key in eventKeys { close(key) }
        eventKeys = []
        if let change, let countsBefore {
            if tracksEntries { update(change, countsBefore: countsBefore) }
            judgeTop()
            if change.tabBar || change.platform { judgeTabs() }
            settle()
        } else {
            rebuild()
        }
        for hit in eventHits {
            let key = RunKey(hit)
            if open[key] != nil { close(key) }
            open[key] = Run(first: version, hit: hit)
            eventKeys.append(key)
        }
    }

    /// Judges the whole state at ``version``: every rule opens the runs of what it finds.
    private mutating func rebuild() {
        rebuildNext = false
        facts = []
        ends = []
        menu = nil
        groups = []
        groupNumbers = [:]
        freeGroups = []
        emptyGroups = 0
        touched = []
        if tracksEntries {
            for layer in state.layers {
                facts.append(layer.entries.map(facts(of:)))
                ends.append(MenuEnds(layer))
                for fact in facts[facts.count - 1] { if let hit = fact.ignored { found.append(hit) } }
            }
            if tracksMenu,
                let positions = state.backMenuPositions(lowestRow: { ends[ends.count - 1].lowestRow(below: $0) })
            {
                menu = (state.topLayerIndex, positions)
                for position in positions { addRow(layer: state.topLayerIndex, position: position) }
                judgeGroups(layer: state.topLayerIndex)
            }
        }
        judgeTop()
        judgeTabs()
        settle()
    }

    /// What the rules about entries and rows find in `entry`.
    private func facts(of entry: Entry) -> EntryFacts {
        var row: [LintHit] = []
        let title = SessionState.rowHits(entry, rules: rules, into: &row)
        let ignored = rules.contains(.ignoredBackSetting) ? SessionState.ignoredSettingHit(entry) : nil
        return EntryFacts(id: entry.id, title: title, ignored: ignored, row: row)
    }

    /// Redoes the rules about entries and rows where `change` says the state changed.
    private mutating func update(_ change: StateChange, countsBefore: [Int]) {
        let oldMenu = menu
        // Where the stop of the menu is, per layer, and the layers presented.
        // (An event splices a layer or two: a list searched costs less than a dictionary.)
        var regions: [(layer: Int, at: Int, oldEnd: Int, newEnd: Int)] = []
        regions.reserveCapacity(change.splices.count)
        func region(_ layer: Int) -> (at: Int, oldEnd: Int, newEnd: Int)? {
            guard let found = regions.last(where: { $0.layer == layer }) else { return nil }
            return (found.at, found.oldEnd, found.newEnd)
        }
        for (splice, before) in zip(change.splices, countsBefore) {
            let layer = splice.layer
            let after = layer < state.layers.count ? state.layers[layer].entries.count : 0
            let inserted = splice.inserted(before: before, after: after)
            let shifted = inserted != splice.removed
            regions.append(
                (
                    layer, splice.at, shifted ? before : splice.at + splice.removed,
                    shifted ? after : splice.at + inserted
                ))
            if layer == facts.count {
                facts.append([])
                ends.append(MenuEnds(Layer()))
            }
            if layer < state.layers.count { ends[layer].apply(splice, countBefore: before, layer: state.layers[layer]) }
        }
        let top = state.topLayerIndex
        // The top layer's ends alone: a closure over `self` would copy the whole linter.
        let topEnds = top < ends.count ? ends[top] : MenuEnds(Layer())
        let newMenu =
            tracksMenu
            ? state.backMenuPositions(lowestRow: { topEnds.lowestRow(below: $0) }).map { (layer: top, positions: $0) }
            : nil
        // The rows that leave the menu, or whose entry changed, go first (judged on the facts before).
        if let oldMenu {
            let kept = newMenu?.layer == oldMenu.layer ? newMenu?.positions : nil
            let changed = region(oldMenu.layer).map { $0.at..<$0.oldEnd }
            Self.outside(oldMenu.positions, kept: kept, changed: changed) { range in
                for position in range { removeRow(layer: oldMenu.layer, position: position) }
            }
        }
        refreshFacts(change, countsBefore: countsBefore)
        // The rows that join the menu, or whose entry changed.
        if let newMenu {
            let kept = oldMenu?.layer == newMenu.layer ? oldMenu?.positions : nil
            let changed = region(newMenu.layer).map { $0.at..<$0.newEnd }
            Self.outside(newMenu.positions, kept: kept, changed: changed) { range in
                for position in range { addRow(layer: newMenu.layer, position: position) }
            }
        }
        menu = newMenu
        judgeGroups(layer: newMenu?.layer ?? top)
    }

    /// The facts of the entries `change` spliced in, in place of those it removed (their ignored
    /// settings leave and join the runs), and no facts for layers that are gone.
    private mutating func refreshFacts(_ change: StateChange, countsBefore: [Int]) {
        for (splice, before) in zip(change.splices, countsBefore) {
            let layer = splice.layer
            let entries = layer < state.layers.count ? state.layers[layer].entries : []
            let inserted = splice.inserted(before: before, after: entries.count)
            for fact in facts[layer][splice.at..<(splice.at + splice.removed)] {
                if let hit = fact.ignored { gone.append(RunKey(hit)) }
            }
            let new = entries[splice.at..<(splice.at + inserted)].map(facts(of:))
            for fact in new { if let hit = fact.ignored { found.append(hit) } }
            facts[layer].replaceSubrange(splice.at..<(splice.at + splice.removed), with: new)
        }
        while facts.count > state.layers.count {
            facts.removeLast()
            ends.removeLast()
        }
    }

    /// Calls `body` with the positions of `positions` outside `kept`, or inside `changed`:
    /// disjoint ranges, ascending. (At most three ranges, sorted and merged on the stack: this
    /// runs twice per event.)
    private static func outside(
        _ positions: ClosedRange<Int>, kept: ClosedRange<Int>?, changed: Range<Int>?,
        _ body: (ClosedRange<Int>) -> Void
    ) {
        withUnsafeTemporaryAllocation(of: ClosedRange<Int>.self, capacity: 3) { marks in
            var count = 0
            func mark(_ range: ClosedRange<Int>) {
                // Insertion in order of lower bounds.
                var index = count
                while index > 0 && marks[index - 1].lowerBound > range.lowerBound {
                    marks.initializeElement(at: index, to: marks.moveElement(from: index - 1))
                    index -= 1
                }
                marks.initializeElement(at: index, to: range)
                count += 1
            }
            if let kept {
                if positions.lowerBound < kept.lowerBound {
                    mark(positions.lowerBound...min(positions.upperBound, kept.lowerBound - 1))
                }
                if positions.upperBound > kept.upperBound {
                    mark(max(positions.lowerBound, kept.upperBound + 1)...positions.upperBound)
                }
            } else {
                mark(positions)
            }
            if let changed, !changed.isEmpty {
                let low = max(positions.lowerBound, changed.lowerBound)
                let high = min(positions.upperBound, changed.upperBound - 1)
                if low <= high { mark(low...high) }
            }
            guard count > 0 else { return }
            var current = marks[0]
            for index in 1..<count {
                let range = marks[index]
                if range.lowerBound <= current.upperBound + 1 {
                    current = current.lowerBound...max(current.upperBound, range.upperBound)
                } else {
                    body(current)
                    current = range
                }
            }
            body(current)
            _ = marks.baseAddress.map { $0.deinitialize(count: count) }
        }
    }

    /// The row at `position` of `layer` leaves the judged menu (its facts are those before).
    private mutating func removeRow(layer: Int, position: Int) {
        let fact = facts[layer][position]
        for hit in fact.row { gone.append(RunKey(hit)) }
        let group = fact.group
        guard group >= 0 else { return }
        facts[layer][position].group = -1
        touch(group, layer: layer)
        if let index = Self.index(of: position, in: groups[group].rows) {
            groups[group].rows.remove(at: index)
            groups[group].shared = min(groups[group].shared, index)
        }
    }

    /// The row at `position` of `layer` joins the judged menu (its facts are those after).
    private mutating func addRow(layer: Int, position: Int) {
        let fact = facts[layer][position]
        found.append(contentsOf: fact.row)
        guard rules.contains(.duplicateMenuRows), !fact.title.isEmpty else { return }
        let group: Int
        if let number = groupNumbers[fact.title] {
            group = number
        } else if let number = freeGroups.popLast() {
            group = number
            groupNumbers[fact.title] = number
        } else {
            group = groups.count
            groups.append(Group())
            groupNumbers[fact.title] = group
        }
        facts[layer][position].group = group
        touch(group, layer: layer)
        var low = 0
        var high = groups[group].rows.count
        while low < high {
            let middle = (low + high) / 2
            if groups[group].rows[middle] < position { low = middle + 1 } else { high = middle }
        }
        groups[group].rows.insert(position, at: low)
        groups[group].shared = min(groups[group].shared, low)
    }

    /// Notes the subject group `group` had before this version's first change to it.
    private mutating func touch(_ group: Int, layer: Int) {
        guard !touched.contains(where: { $0.group == group }) else { return }
        touched.append((group, subject(of: group, layer: layer)))
    }

    /// The subject of group `group` (its title and farthest row), or `nil` below two rows: O(1),
    /// whatever the group's size.
    private func subject(of group: Int, layer: Int) -> GroupSubject? {
        let rows = groups[group].rows
        guard rows.count >= 2 else { return nil }
        let farthest = facts[layer][rows[0]]
        return GroupSubject(farthest: farthest.id, title: farthest.title)
    }

    /// The duplicate groups touched this version: a group whose title or farthest row changed is
    /// another finding; one whose rows came or went at the near end goes on, and states its rows
    /// again only when they are more than ever. Groups left without rows are counted, and swept
    /// (their numbers freed) once they are more than 64 and outnumber the titles with rows.
    private mutating func judgeGroups(layer: Int) {
        for (group, before) in touched {
            let after = subject(of: group, layer: layer)
            if before != after {
                if let before { gone.append(before.key) }
                if let after { startGroup(group, key: after.key, layer: layer) }
            } else if let after, groups[group].rows.count > groups[group].most {
                growGroup(group, key: after.key, layer: layer)
            }
            if groups[group].rows.isEmpty { emptyGroups += 1 }
        }
        touched.removeAll(keepingCapacity: true)
        // Titles whose rows all left keep their number until they outnumber the menu's titles:
        // a title that comes back costs no new number, and one that leaves no removal, while
        // memory stays within twice the titles in the menu.
        if emptyGroups > 64 && emptyGroups > groupNumbers.count - emptyGroups {
            groupNumbers = groupNumbers.filter { !groups[$0.value].rows.isEmpty }
            freeGroups = groups.indices.filter { groups[$0].rows.isEmpty }
            emptyGroups = 0
        }
    }

    /// Group `group` has a key of its own this version (`key`): its hit names every row. The key
    /// may go on from a tab judged off screen at the version before (``settle()`` keeps the run,
    /// and its rows when they were more).
    private mutating func startGroup(_ group: Int, key: RunKey, layer: Int) {
        let rows = groups[group].rows
        found.append(
            LintHit(
                rule: .duplicateMenuRows, entries: rows.reversed().map { facts[layer][$0].id },
                detail: .duplicateRows(title: key.title ?? "")))
        if let most = open[key]?.hit.entries.count, most >= rows.count {
            groups[group].most = most
            groups[group].shared = 0
        } else {
            groups[group].most = rows.count
            groups[group].shared = rows.count
        }
    }

    /// Group `group`'s run (`key`) goes on with more rows than ever: its finding names them,
    /// the farthest it already names kept, the rest appended.
    private mutating func growGroup(_ group: Int, key: RunKey, layer: Int) {
        let rows = groups[group].rows
        let shared = groups[group].shared
        // In place: the run's entries are changed where they are stored, not copied.
        if let index = open.index(forKey: key) {
            open.values[index].hit.entries.removeSubrange(shared...)
            for position in rows[shared...] { open.values[index].hit.entries.append(facts[layer][position].id) }
        }
        groups[group].most = rows.count
        groups[group].shared = rows.count
    }

    private static func index(of position: Int, in rows: [Int]) -> Int? {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle] < position { low = middle + 1 } else { high = middle }
        }
        return low < rows.count && rows[low] == position ? low : nil
    }

    /// The rules about the top of the stack, judged every version.
    private mutating func judgeTop() {
        var hits: [LintHit] = []
        state.topLintHits(options, rules: rules, into: &hits)
        gone.append(contentsOf: topKeys)
        topKeys = hits.map(RunKey.init)
        found.append(contentsOf: hits)
    }

    /// The tabs off screen, judged whole when the tab bar changed.
    private mutating func judgeTabs() {
        var hits: [LintHit] = []
        state.offScreenTabLintHits(options, rules: rules, into: &hits)
        gone.append(contentsOf: tabKeys)
        tabKeys = Set(hits.map(RunKey.init))
        found.append(contentsOf: hits)
    }

    /// Closes the runs of the keys that no longer hold and opens those of the hits that start;
    /// a key both gone and found this version still holds, and its run goes on.
    private mutating func settle() {
        defer {
            gone.removeAll(keepingCapacity: true)
            found.removeAll(keepingCapacity: true)
        }
        guard gone.count * found.count > 64 else {
            // A version changes a few keys (the top's, a row or two): pairing them costs less
            // than hashing them.
            var left = gone.map { Optional($0) }
            for hit in found {
                let key = RunKey(hit)
                if let index = left.firstIndex(where: { $0 == key }) {
                    left[index] = nil
                    if hit.rule == .duplicateMenuRows { keepMost(key, hit) }
                } else if open[key] == nil {
                    open[key] = Run(first: version, hit: hit)
                } else if hit.rule == .duplicateMenuRows {
                    keepMost(key, hit)
                }
            }
            for case let key? in left { close(key) }
            return
        }
        var count: [RunKey: Int] = [:]
        for key in gone { count[key, default: 0] += 1 }
        var starting: [LintHit] = []
        for hit in found {
            let key = RunKey(hit)
            if let left = count[key], left > 0 {
                count[key] = left - 1
                if hit.rule == .duplicateMenuRows { keepMost(key, hit) }
            } else {
                starting.append(hit)
            }
        }
        for (key, left) in count where left > 0 { close(key) }
        for hit in starting {
            let key = RunKey(hit)
            if open[key] == nil {
                open[key] = Run(first: version, hit: hit)
            } else if hit.rule == .duplicateMenuRows {
                keepMost(key, hit)
            }
        }
    }

    /// A duplicate group's run goes on with `hit`'s rows: its finding names them when they are
    /// more than it names.
    private mutating func keepMost(_ key: RunKey, _ hit: LintHit) {
        guard let most = open[key]?.hit.entries.count, hit.entries.count > most else { return }
        open[key] = Run(first: open[key]!.first, hit: hit)
    }

    /// Ends the run of `key`, which held through the version before ``version``.
    private mutating func close(_ key: RunKey) {
        guard let run = open.removeValue(forKey: key) else { return }
        ended.append(finding(run, last: version - 1, current: false))
    }

    /// The finding of `run`, which held through version `last`: its hit's entries (nearest
    /// first) and message.
    private func finding(_ run: Run, last: Int, current: Bool) -> LintFinding {
        var hit = run.hit
        if hit.rule == .duplicateMenuRows { hit.entries.reverse() }
        return LintFinding(
            rule: hit.rule, session: session, entries: hit.entries, firstVersion: run.first, lastVersion: last,
            current: current, message: hit.message)
    }

    /// The findings that ended since the last call (none of them ``LintFinding/current``), in
    /// <doc:Lint> order among themselves: a streaming reader hands them out as the session goes
    /// on, so memory holds only the runs still open. ``finish()`` returns the rest.
    public mutating func drainEnded() -> [LintFinding] {
        guard !ended.isEmpty else { return [] }
        var findings = ended
        ended.removeAll()
        findings.sort(by: Self.precedes)
        return findings
    }

    /// Ends the session: the runs still open hold at its latest version (``version``) and are
    /// ``LintFinding/current``. Returns every finding not handed out by ``drainEnded()``,
    /// ordered by first version, then rule (<doc:Lint> order), then subject; the linter is
    /// left empty.
    public mutating func finish() -> [LintFinding] {
        var findings = ended
        ended.removeAll()
        for run in open.values { findings.append(finding(run, last: version, current: true)) }
        open.removeAll()
        findings.sort(by: Self.precedes)
        return findings
    }

    /// The order of findings within a session: first version, then rule (<doc:Lint> order),
    /// then subject (entry ids compared by their UTF-8 bytes).
    package static func precedes(_ a: LintFinding, _ b: LintFinding) -> Bool {
        if a.firstVersion != b.firstVersion { return a.firstVersion < b.firstVersion }
        if a.rule != b.rule { return LintRule.order[a.rule]! < LintRule.order[b.rule]! }
        return a.entries.lexicographicallyPrecedes(b.entries) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}

extension LintRule {
    /// Each rule's position in <doc:Lint>'s table.
    package static let order: [LintRule: Int] = Dictionary(uniqueKeysWithValues: allCases.enumerated().map { ($1, $0) })
}

/// Lints a stream of events of any number of sessions, in the order a log or an export holds
/// them (each session's versions 1, 2, 3... in order, sessions possibly interleaved), checking
/// that the stream is one a log could hold before folding each event.
///
/// Holds one ``SessionLinter`` per session the stream names (an export of every session
/// interleaves them), so memory grows with the number of sessions, not of events.
///
/// It checks what the model can judge alone: versions in order and events the rules accept. An
/// export's lines carry more (event ids, times, what each continues, a truncated session's
/// base): `NavigationStore.lintNDJSON` (NavStoreTools) reads them as an import does instead.
public struct EventStreamLinter: Sendable {
    /// What is checked.
    public let options: LintOptions
    private var linters: [ExactKey: SessionLinter] = [:]
    private var events = 0
    /// The findings that ended and were not yet handed out, and the totals of those handed out.
    private var pending: [LintFinding] = []
    private var handedOut = LintSummary()
    /// The keys of the sessions finished by the last ``finish()``, in key order.
    public private(set) var sessionKeys: [String] = []

    /// A linter for a new stream.
    public init(options: LintOptions = LintOptions()) { self.options = options }

    /// Checks and folds the next event of the stream.
    ///
    /// A session's first event must be its version 1, a `session.started` (or follow the base
    /// given to ``start(session:atBase:version:)``); each later event must
    /// be the next version, not a `session.started`, and one the rules accept after the state
    /// before it (``SessionState/validate(_:)``).
    /// - Throws: ``NavigationError/invalidEvent(_:)`` naming the session, version and what does
    ///   not fit; the event is then not folded.
    public mutating func consume(_ event: Event) throws(NavigationError) {
        let key = ExactKey(event.session)
        let isNew = linters[key] == nil
        var linter = linters.removeValue(forKey: key) ?? SessionLinter(session: event.session, options: options)
        defer { linters[key] = linter }
        let name = LintText.id(event.session)
        if isNew {
            guard !event.session.isEmpty else { throw .invalidEvent("the session key is empty") }
            guard event.version == 1 else {
                throw .invalidEvent(
                    "session \(name) starts at version \(event.version); a session's log starts at version 1")
            }
            guard case .sessionStarted = event.body else {
                throw .invalidEvent(
                    "session \(name) starts with \(event.type); a session's log starts with session.started")
            }
        } else {
            guard event.version == linter.version + 1 else {
                throw .invalidEvent(
                    "session \(name) expected version \(linter.version + 1), found \(event.version); versions go 1, 2, 3... without gaps"
                )
            }
            if case .sessionStarted = event.body {
                throw .invalidEvent(
                    "session.started can only be version 1 of a session, found at version \(event.version) of session \(name)"
                )
            }
        }
        do throws(NavigationError) { try linter.state.validate(event.body) } catch {
            throw .invalidEvent("version \(event.version) of session \(name): \(error.description)")
        }
        linter.consume(event.body)
        pending += linter.drainEnded()
        events += 1
    }

    /// The findings that ended since the last call, of any session, in the order they ended
    /// (<doc:Lint>: a session's findings in <doc:Lint> order among those that ended at the same
    /// version): a streaming reader hands them out as it goes, so memory holds only each
    /// session's state and its runs still open. ``finish()`` returns the rest, and its summary
    /// counts every finding.
    public mutating func drainEnded() -> [LintFinding] {
        let findings = pending
        pending.removeAll()
        for finding in findings { handedOut.add(finding) }
        return findings
    }

    /// Starts a truncated session at its base (<doc:Retention>: the state after `version`, whose
    /// event and every earlier one were deleted): its next event must be `version + 1`, and the
    /// rules about the state are judged at the base version and from there on.
    /// - Throws: ``NavigationError/invalidEvent(_:)`` when the stream already named the session
    ///   (a base comes first), or `version` is below 1.
    public mutating func start(session: String, atBase state: SessionState, version: Int) throws(NavigationError) {
        let name = LintText.id(session)
        guard linters[ExactKey(session)] == nil else {
            throw .invalidEvent(
                "the base of session \(name) at version \(version) comes after its events; a base is a truncated session's first line"
            )
        }
        guard !session.isEmpty else { throw .invalidEvent("the session key is empty") }
        guard version >= 1 else {
            throw .invalidEvent("the base of session \(name) is at version \(version); versions start at 1")
        }
        linters[ExactKey(session)] = SessionLinter(session: session, options: options, initial: state, version: version)
    }

    /// Ends the stream: every session's findings not handed out by ``drainEnded()`` (all of them
    /// when it was never called), sessions in key order (by UTF-8 bytes, as SQLite orders keys,
    /// so the report equals a lint of the same events in a database), each session's in
    /// <doc:Lint> order; and the totals of every finding, handed out or not.
    public mutating func finish() -> LintReport {
        var report = LintReport(summary: handedOut)
        handedOut = LintSummary()
        let keys = linters.keys.sorted { $0.text.utf8.lexicographicallyPrecedes($1.text.utf8) }
        let ended = Dictionary(grouping: pending) { ExactKey($0.session) }
        pending.removeAll()
        for key in keys {
            var linter = linters.removeValue(forKey: key)!
            for finding in ((ended[key] ?? []) + linter.finish()).sorted(by: SessionLinter.precedes) {
                report.findings.append(finding)
                report.summary.add(finding)
            }
        }
        report.summary.sessions = keys.count
        report.summary.events = events
        sessionKeys = keys.map(\.text)
        events = 0
        return report
    }
}
