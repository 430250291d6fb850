import NavStore

/// The data of one session's report page (<doc:Reports>): every version in a range, each with the
/// state, the back button (label, fallbacks and the label shown at each width), the back menu
/// (rows nearest first with the entry each pops to), what changed from the version before, and
/// the event that made it. Everything here is computed by NavStore; a page only draws it.
///
/// Entries are interned: ``entries`` holds each distinct entry value once, and layers name them by
/// index. Each version holds what changed from the one before (the splices of its layers, the
/// back button and menu when they differ), and a keyframe (every layer whole) comes every
/// max(64, 2 × depth) versions: the data grows with the events and what they changed, not with
/// events × depth, and drawing any version applies at most one keyframe's interval of changes
/// (``frame(at:)``, as the page's script does).
package struct SessionReport: Sendable, Hashable, Codable {
    /// `"session"`: what the page draws (`ReportIndex` says `"index"`).
    package var kind: String = "session"
    /// The session key.
    package var session: String
    /// The session's name (`session start --name`), or `nil` when it has none.
    package var name: String?
    /// The session's latest version (1-based), which may lie beyond ``versions`` when the report
    /// is bounded with `to`.
    package var latestVersion: Int
    /// The generation the session records (<doc:PlatformGenerations>), fixed when it started.
    package var recordedPlatform: PlatformGeneration = .default
    /// The generation the labels are resolved under: the recorded one, or another in a what-if
    /// report.
    package var platform: PlatformGeneration = .default
    /// For a truncated session (<doc:Retention>), the base version: its state is kept, its event and
    /// every earlier one are gone; `nil` when the session was never truncated.
    package var baseVersion: Int?
    /// Every distinct entry value that appears in a version's layers, referred to by index.
    package var entries: [ReportEntry]
    /// Every distinct back button of the report, referred to by index (``ReportView/button``).
    package var buttons: [ReportBackButton] = []
    /// The versions in the report, oldest first, consecutive.
    package var versions: [ReportVersion]
    /// The lint findings (<doc:Lint>) that hold at some version of the report, in lint's order;
    /// the page draws, at each version, those whose first and last versions span it.
    package var findings: [LintFinding] = []
    /// The rules of ``findings``, with what each finds, its fix and its source (the page's
    /// explanations, in <doc:Lint>'s order).
    package var rules: [ReportRule] = []
    /// The room for the back label that lint's width rules judged (`report --width`), in
    /// columns: where the page's room slider starts; `nil` for no width.
    package var labelRoom: Int? = nil

    /// Creates a report from its parts (`NavigationStore/report(session:from:to:lint:platform:summary:)`
    /// builds one from the log).
    package init(session: String, name: String?, latestVersion: Int, entries: [ReportEntry], versions: [ReportVersion]) {
        self.session = session
        self.name = name
        self.latestVersion = latestVersion
        self.entries = entries
        self.versions = versions
    }
}

/// One entry value as the report shows it: id, route, params and the navigation item's fields
/// that are set.
package struct ReportEntry: Sendable, Hashable, Codable {
    /// The entry id.
    package var id: String
    /// The route, or `nil` when unset.
    package var route: String?
    /// The params object, or `nil` when unset (distinct from `{}`).
    package var params: [String: JSONValue]?
    /// ``params`` as JSON text, when it holds an integer a page's JavaScript number would round
    /// (beyond ±2^53, ``ReportExactText``): the page shows this text instead; `nil` otherwise.
    package var paramsText: String? = nil
    /// The navigation item's fields that differ from their unset values, in the order of
    /// the navigation item table of <doc:Rules>, with their values as JSON (`""` stays a string;
    /// an unset field is left out).
    package var fields: [ReportField]
    /// The title of the entry's back-menu row when it is one (rule 7,
    /// ``NavigationItem/backMenuTitle``; `""` is a blank row), computed here so the page never
    /// resolves it.
    package var rowTitle: String

    /// Creates the report's view of `entry`.
    package init(_ entry: Entry) {
        id = entry.id
        route = entry.route
        params = entry.params
        paramsText = entry.params.flatMap { ReportExactText.text(.object($0)) }
        fields = NavigationItem().changedFields(to: entry.item).map {
            ReportField(name: $0, value: entry.item.jsonValue(of: $0))
        }
        rowTitle = entry.item.backMenuTitle
    }
}

/// One field of a navigation item: its JSON key (as in <doc:Rules>) and value.
package struct ReportField: Sendable, Hashable, Codable {
    /// The JSON key, e.g. `backButtonTitle`.
    package var name: String
    /// The value (`null` for an unset optional).
    package var value: JSONValue
    /// ``value`` as JSON text when a page's JavaScript number would round it (``ReportExactText``).
    package var text: String? = nil

    /// A field and its value.
    package init(name: String, value: JSONValue) {
        self.name = name
        self.value = value
        text = ReportExactText.text(value)
    }
}

/// Integers beyond ±2^53 (params of 9007199254740993, `leftBarButtonItems` at `Int64.max`) read
/// back rounded from JSON in a browser, whose numbers are doubles: the report carries the JSON
/// text of a value that holds one, and the page shows that text.
package enum ReportExactText {
    /// The largest integer a double holds exactly and every smaller one too.
    static let exact: Int64 = 1 << 53

    /// `value`'s JSON text (`PayloadWriter`, keys sorted) when it holds an integer beyond ±2^53
    /// at any depth, else `nil`.
    package static func text(_ value: JSONValue) -> String? {
        guard holdsBigInteger(value) else { return nil }
        var writer = PayloadWriter(capacity: 64)
        writer.write(value: value)
        return writer.text
    }

    private static func holdsBigInteger(_ value: JSONValue) -> Bool {
        switch value {
        case .integer(let number): number > exact || number < -exact
        case .array(let values): values.contains(where: holdsBigInteger)
        case .object(let object): object.values.contains(where: holdsBigInteger)
        default: false
        }
    }
}

/// One layer of a version's state: whether it is modal in presentation, whether its navigation
/// bar is hidden, and its entries, bottom (root) first, as indices into `SessionReport/entries`.
package struct ReportLayer: Sendable, Hashable, Codable {
    /// `UIViewController.isModalInPresentation` of a presented layer (always `false` for layer 0).
    package var modalInPresentation: Bool
    /// ``Layer/navigationBarHidden``: the page draws no bar for a top layer whose bar is hidden.
    package var navigationBarHidden: Bool = false
    /// Indices into `SessionReport/entries`, root first.
    package var entries: [Int]
}

/// The back button of a version (rules 1–5 of <doc:Rules>) as the report draws it.
package struct ReportBackButton: Sendable, Hashable, Codable {
    /// The preferred label; `""` is a chevron with no text.
    package var label: String
    /// The shorter labels UIKit falls back to, in order.
    package var fallbacks: [String]
    /// Whether the button shows a custom item's image.
    package var image: Bool
    /// The label shown for each room: the step with the largest `minWidth` at or below the room
    /// is the one shown (ascending by `minWidth`, the first at 0). Computed with
    /// `BackButton/label(fitting:columns:)`, so it says what `back-menu --width N` says.
    package var steps: [ReportLabelStep]
}

/// From `minWidth` (in the unit of `BackButton/label(fitting:columns:)`) on, the button shows `label`
/// (until the next step).
package struct ReportLabelStep: Sendable, Hashable, Codable {
    /// The smallest room at which `label` is shown.
    package var minWidth: Int
    /// The label shown from there.
    package var label: String
}

/// One row of the back menu as the report draws it (rules 6–7 of <doc:Rules>).
package struct ReportMenuRow: Sendable, Hashable, Codable {
    /// 1 = nearest (the back item).
    package var row: Int
    /// The entry selecting the row pops to.
    package var entry: String
    /// The row title; `""` is a blank row.
    package var title: String
    /// Whether the row is blank (its title is `""`): a defect users see (lint `blank-menu-row`).
    package var blank: Bool
}

/// One difference between a version's state and the state before it, for "what changed".
package struct ReportChange: Sendable, Hashable, Codable {
    /// What kind of difference.
    package enum Kind: String, Sendable, Hashable, Codable {
        /// A modal layer appeared (`layer` is its index).
        case layerPresented = "layer-presented"
        /// A modal layer went away (`layer` is its index).
        case layerDismissed = "layer-dismissed"
        /// A layer's `modalInPresentation` changed (`before`, `after` are booleans).
        case modalInPresentation = "modal-in-presentation"
        /// A layer's `navigationBarHidden` changed (`before`, `after` are booleans).
        case navigationBarHidden = "navigation-bar-hidden"
        /// `entry` is now in `layer` (`position` from the root).
        case entryAdded = "entry-added"
        /// `entry` left `layer`.
        case entryRemoved = "entry-removed"
        /// A field of `entry` changed: `field` is `route`, `params` or an item field's JSON key.
        case fieldChanged = "field-changed"
        /// The back button changed: `before` and `after` are its preferred label or `null` for none.
        case backButton = "back-button"
        /// The back menu appeared, went, moved to another layer, or changed in more rows than a
        /// list shows (``ReportBuilder/maximumRowChanges``): `before` and `after` are its row counts,
        /// or `null` for no menu.
        case backMenu = "back-menu"
        /// A row joined the back menu: `entry` is what it pops to, `row` its number (1 = nearest),
        /// `after` its title.
        case menuRowAdded = "menu-row-added"
        /// A row left the back menu: `entry` was what it popped to, `before` its title.
        case menuRowRemoved = "menu-row-removed"
        /// A row's title changed: `entry`, `row`, `before` and `after` the titles.
        case menuRowChanged = "menu-row-changed"
    }

    /// What kind of difference.
    package var kind: Kind
    /// The layer (0 = base), where the change is about one.
    package var layer: Int?
    /// The entry id, where the change is about one.
    package var entry: String?
    /// The position in the layer (0 = root), for an added entry.
    package var position: Int?
    /// The back-menu row (1 = nearest), for a row added or changed.
    package var row: Int? = nil
    /// The field, for ``Kind/fieldChanged``.
    package var field: String?
    /// The value before (JSON `null` for unset), where there is one.
    package var before: JSONValue?
    /// The value after (JSON `null` for unset), where there is one.
    package var after: JSONValue?
    /// ``before`` as JSON text when a page would round it (``ReportExactText``).
    package var beforeText: String? = nil
    /// ``after`` as JSON text when a page would round it (``ReportExactText``).
    package var afterText: String? = nil
}

/// One version of a report: the event that made it and what changed in the state after it, or
/// at a keyframe the state whole (``layers``); ``SessionReport/frame(at:)`` puts a version's
/// state together as the page does.
package struct ReportVersion: Sendable, Hashable, Codable {
    /// The 1-based version.
    package var version: Int
    /// The event's time in milliseconds since the Unix epoch (the page writes it as ISO-8601
    /// UTC text, as `Timestamp.format` does).
    package var at: Int64
    /// The event type, e.g. `entry.pushed`.
    package var type: String
    /// A one-line summary of the event (given by the caller, e.g. the one a history listing prints).
    package var summary: String
    /// `true` when the event records a veto (the state did not change); `nil` otherwise, so the
    /// data says it only where it is so.
    package var veto: Bool?
    /// At a keyframe, the state's layers whole, base first (under a tab bar, the selected tab's
    /// stack first); `nil` elsewhere.
    package var layers: [ReportLayer]? = nil
    /// Elsewhere, the layers' changes from the version before, in order: each
    /// `[layer, at, removed, index...]` removes `removed` entries from position `at` of `layer`
    /// and inserts the entries named by the indices into `SessionReport/entries` there (a layer
    /// one past the last is presented, empty, first). `nil` when no entry changed.
    package var splices: [[Int]]? = nil
    /// The number of layers after the splices, when it is fewer than before (a dismissal).
    package var layerCount: Int? = nil
    /// `[layer, modalInPresentation, navigationBarHidden]` (1 or 0) of each layer whose fields
    /// changed or that was presented, after the splices.
    package var layerFields: [[Int]]? = nil
    /// The back button, the back menu and the tab bar, when any of them differs from the version
    /// before (always at a keyframe).
    package var view: ReportView? = nil
    /// What differs from the version before (empty for a veto, a restart marker, or a no-op).
    package var changes: [ReportChange]
}

/// What a version draws besides its layers: the back button, the back menu (a range of the top
/// layer's positions, each row's title in ``ReportEntry/rowTitle``) and the tab bar.
package struct ReportView: Sendable, Hashable, Codable {
    /// The back button, an index into `SessionReport/buttons`, or `nil` when there is none.
    package var button: Int?
    /// Why there is no back button (rule 1), when there is none.
    package var noBackButton: String?
    /// The back menu: `[lowest, back item]`, positions in the top layer (row 1 is the back item,
    /// row n the lowest), or `nil` when there is none.
    package var menu: [Int]?
    /// Why there is no back menu, when there is none.
    package var noBackMenu: String?
    /// The tab bar (<doc:TabBars>): each tab's id and title in order and the selected one's index;
    /// `nil` without one.
    package var tabs: ReportTabs? = nil
}

/// One version's state put together from the keyframe before it and the changes since
/// (``SessionReport/frame(at:)``).
package struct ReportFrame: Sendable, Hashable {
    /// The layers, base first.
    package var layers: [ReportLayer]
    /// The back button, menu and tab bar.
    package var view: ReportView

    /// The back menu's rows, nearest first, or `nil` when there is none.
    package func backMenu(_ entries: [ReportEntry]) -> [ReportMenuRow]? {
        guard let menu = view.menu, menu.count == 2, let top = layers.last else { return nil }
        return stride(from: menu[1], through: menu[0], by: -1).map { position in
            let entry = entries[top.entries[position]]
            return ReportMenuRow(
                row: menu[1] - position + 1, entry: entry.id, title: entry.rowTitle, blank: entry.rowTitle.isEmpty)
        }
    }

    /// Applies `version`'s changes (or takes its keyframe).
    mutating func apply(_ version: ReportVersion) {
        if let layers = version.layers { self.layers = layers }
        for splice in version.splices ?? [] {
            let layer = splice[0]
            if layer == layers.count { layers.append(ReportLayer(modalInPresentation: false, entries: [])) }
            layers[layer].entries.replaceSubrange(splice[1]..<(splice[1] + splice[2]), with: splice[3...])
        }
        if let count = version.layerCount { layers.removeLast(layers.count - count) }
        for fields in version.layerFields ?? [] {
            layers[fields[0]].modalInPresentation = fields[1] != 0
            layers[fields[0]].navigationBarHidden = fields[2] != 0
        }
        if let view = version.view { self.view = view }
    }
}

/// A version's tab bar as the report draws it: `{"selected": INDEX, "tabs": [{"id", "title"}]}`.
package struct ReportTabs: Sendable, Hashable, Codable {
    /// Each tab's id and title (`null` when it has none), in order.
    package var tabs: [ReportTab]
    /// The index in ``tabs`` of the selected tab.
    package var selected: Int
}

/// One tab of ``ReportTabs``.
package struct ReportTab: Sendable, Hashable, Codable {
    package var id: String
    package var title: String?

    private enum CodingKeys: String, CodingKey { case id, title }

    /// `{"id", "title"}` with `title` `null` when the tab has none.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
    }
}

/// A lint rule as the report explains it (``LintRule``'s id, severity, summary, fix and source).
package struct ReportRule: Sendable, Hashable, Codable {
    /// The rule id, e.g. `blank-menu-row`.
    package var id: String
    /// Its severity.
    package var severity: LintSeverity
    /// What it finds.
    package var summary: String
    /// The fix it suggests.
    package var fix: String
    /// The public source of the behaviour it judges.
    package var source: String

    /// The explanation of `rule`.
    package init(_ rule: LintRule) {
        id = rule.id
        severity = rule.severity
        summary = rule.summary
        fix = rule.fix
        source = rule.source
    }
}

extension SessionReport {
    /// Attaches `findings` of this session: those that hold at some version of the report
    /// (the page finds those of a version by their first and last versions), and the rules they
    /// are findings of.
    /// - Complexity: O(findings).
    mutating func attach(_ all: [LintFinding]) {
        guard let first = versions.first?.version, let last = versions.last?.version else { return }
        findings = all.filter { $0.lastVersion >= first && $0.firstVersion <= last }
        let used = Set(findings.map(\.rule))
        rules = LintRule.allCases.filter(used.contains).map(ReportRule.init)
    }

    /// The state of `version` (one of ``versions``) as the page draws it: the keyframe at or
    /// before it, and every version's changes after that keyframe up to it.
    /// - Complexity: O(depth + the versions since the keyframe).
    package func frame(at version: Int) -> ReportFrame {
        let index = version - versions[0].version
        var start = index
        while versions[start].layers == nil { start -= 1 }
        var frame = ReportFrame(layers: [], view: ReportView())
        for position in start...index { frame.apply(versions[position]) }
        return frame
    }

    /// The most versions a page holds comfortably (<doc:Reports>): a browser opens a page of
    /// 100,000 versions in seconds; a larger one is still written, with ``sizeNote(comfortable:)``.
    package static let comfortableVersions = 150_000

    /// A note for stderr when the report holds more than `comfortable` versions: the count, and
    /// the `--from` that reports the last `comfortable` of them; `nil` otherwise.
    package func sizeNote(comfortable: Int = SessionReport.comfortableVersions) -> String? {
        guard versions.count > comfortable, let first = versions.first?.version, let last = versions.last?.version
        else { return nil }
        return
            "the page holds \(versions.count) versions (\(first)-\(last)), more than the \(comfortable) a browser opens comfortably; give --from and --to for a part (e.g. --from \(last - comfortable + 1) for the last \(comfortable))"
    }

    /// The indices into ``findings`` of the findings that hold at `version`.
    package func findings(at version: Int) -> [Int] {
        findings.indices.filter { findings[$0].firstVersion <= version && version <= findings[$0].lastVersion }
    }
}
