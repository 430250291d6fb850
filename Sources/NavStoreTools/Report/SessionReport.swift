import NavStore

/// The data of one session's report page (<doc:Reports>): every version in a range, each with the
/// state, the back button (label, fallbacks and the label shown at each width), the back menu
/// (rows nearest first with the entry each pops to), what changed from the version before, and
/// the event that made it. Everything here is computed by NavStore; a page only draws it.
///
/// Entries are interned: ``entries`` holds each distinct entry value once, and a version's layers
/// name them by index, so the data grows with events × depth, not with events × depth × item size.
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
    /// The versions in the report, oldest first, consecutive.
    package var versions: [ReportVersion]
    /// The lint findings (<doc:Lint>) that hold at some version of the report, in lint's order;
    /// a version names the ones that hold there by index (``ReportVersion/findings``).
    package var findings: [LintFinding] = []
    /// The rules of ``findings``, with what each finds, its fix and its source (the page's
    /// explanations, in <doc:Lint>'s order).
    package var rules: [ReportRule] = []

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
    /// The navigation item's fields that differ from their unset values, in the order of
    /// the navigation item table of <doc:Rules>, with their values as JSON (`""` stays a string;
    /// an unset field is left out).
    package var fields: [ReportField]

    /// Creates the report's view of `entry`.
    package init(_ entry: Entry) {
        id = entry.id
        route = entry.route
        params = entry.params
        fields = NavigationItem().changedFields(to: entry.item).map {
            ReportField(name: $0, value: entry.item.jsonValue(of: $0))
        }
    }
}

/// One field of a navigation item: its JSON key (as in <doc:Rules>) and value.
package struct ReportField: Sendable, Hashable, Codable {
    /// The JSON key, e.g. `backButtonTitle`.
    package var name: String
    /// The value (`null` for an unset optional).
    package var value: JSONValue
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
        /// The back menu changed: `before` and `after` are its row titles or `null` for none.
        case backMenu = "back-menu"
    }

    /// What kind of difference.
    package var kind: Kind
    /// The layer (0 = base), where the change is about one.
    package var layer: Int?
    /// The entry id, where the change is about one.
    package var entry: String?
    /// The position in the layer (0 = root), for an added entry.
    package var position: Int?
    /// The field, for ``Kind/fieldChanged``.
    package var field: String?
    /// The value before (JSON `null` for unset), where there is one.
    package var before: JSONValue?
    /// The value after (JSON `null` for unset), where there is one.
    package var after: JSONValue?
}

/// One version of a report: the event that made it and everything drawn for the state after it.
package struct ReportVersion: Sendable, Hashable, Codable {
    /// The 1-based version.
    package var version: Int
    /// The event's time in milliseconds since the Unix epoch.
    package var at: Int64
    /// ``at`` as ISO-8601 UTC text.
    package var time: String
    /// The event type, e.g. `entry.pushed`.
    package var type: String
    /// A one-line summary of the event (given by the caller, e.g. the one a history listing prints).
    package var summary: String
    /// Whether the event records a veto (the state did not change).
    package var veto: Bool
    /// The state's layers, base first (under a tab bar, the selected tab's stack first).
    package var layers: [ReportLayer]
    /// The back button, or `nil` when there is none.
    package var backButton: ReportBackButton?
    /// Why there is no back button (rule 1), when there is none.
    package var noBackButton: String?
    /// The back menu nearest first, or `nil` when there is none.
    package var backMenu: [ReportMenuRow]?
    /// Why there is no back menu, when there is none.
    package var noBackMenu: String?
    /// What differs from the version before (empty for a veto, a restart marker, or a no-op).
    package var changes: [ReportChange]
    /// Indices into `SessionReport/findings` of the findings that hold at this version.
    package var findings: [Int] = []
    /// Indices into `SessionReport/findings` of the findings whose first version is this one
    /// (the timeline's markers).
    package var findingsStarting: [Int] = []
    /// The tab bar (DESIGN §15): each tab's id and title in order and the selected one's index;
    /// `nil` without one. Encoded only when set, so a session without tabs has the data it had.
    package var tabs: ReportTabs? = nil
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
    /// Attaches `findings` of this session: those that hold at some version of the report, each
    /// version naming the ones that hold there and the ones that start there, and the rules
    /// they are findings of.
    /// - Complexity: O(findings + the versions each holds within the report).
    mutating func attach(_ all: [LintFinding]) {
        guard let first = versions.first?.version, let last = versions.last?.version else { return }
        findings = all.filter { $0.lastVersion >= first && $0.firstVersion <= last }
        for (index, finding) in findings.enumerated() {
            for version in max(finding.firstVersion, first)...min(finding.lastVersion, last) {
                versions[version - first].findings.append(index)
            }
            if finding.firstVersion >= first { versions[finding.firstVersion - first].findingsStarting.append(index) }
        }
        let used = Set(findings.map(\.rule))
        rules = LintRule.allCases.filter(used.contains).map(ReportRule.init)
    }
}
