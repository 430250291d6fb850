/// The data of one session's report page (<doc:Reports>): every version in a range, each with the
/// state, the back button (label, fallbacks and the label shown at each width), the back menu
/// (rows nearest first with the entry each pops to), what changed from the version before, and
/// the event that made it. Everything here is computed by NavStore; a page only draws it.
///
/// Entries are interned: ``entries`` holds each distinct entry value once, and a version's layers
/// name them by index, so the data grows with events × depth, not with events × depth × item size.
public struct SessionReport: Sendable, Hashable, Codable {
    /// `"session"`: what the page draws (``ReportIndex`` says `"index"`).
    public var kind: String = "session"
    /// The session key.
    public var session: String
    /// The session's name (`session start --name`), or `nil` when it has none.
    public var name: String?
    /// The session's latest version (1-based), which may lie beyond ``versions`` when the report
    /// is bounded with `to`.
    public var latestVersion: Int
    /// The generation the session records (<doc:PlatformGenerations>), fixed when it started.
    public var recordedPlatform: PlatformGeneration = .default
    /// The generation the labels are resolved under: the recorded one, or another in a what-if
    /// report.
    public var platform: PlatformGeneration = .default
    /// For a truncated session (<doc:Retention>), the base version: its state is kept, its event and
    /// every earlier one are gone; `nil` when the session was never truncated.
    public var baseVersion: Int?
    /// Every distinct entry value that appears in a version's layers, referred to by index.
    public var entries: [ReportEntry]
    /// The versions in the report, oldest first, consecutive.
    public var versions: [ReportVersion]
    /// The lint findings (<doc:Lint>) that hold at some version of the report, in lint's order;
    /// a version names the ones that hold there by index (``ReportVersion/findings``).
    public var findings: [LintFinding] = []
    /// The rules of ``findings``, with what each finds, its fix and its source (the page's
    /// explanations, in <doc:Lint>'s order).
    public var rules: [ReportRule] = []

    /// Creates a report from its parts (``NavigationStore/report(session:from:to:lint:platform:summary:)``
    /// builds one from the log).
    public init(session: String, name: String?, latestVersion: Int, entries: [ReportEntry], versions: [ReportVersion]) {
        self.session = session
        self.name = name
        self.latestVersion = latestVersion
        self.entries = entries
        self.versions = versions
    }
}

/// One entry value as the report shows it: id, route, params and the navigation item's fields
/// that are set.
public struct ReportEntry: Sendable, Hashable, Codable {
    /// The entry id.
    public var id: String
    /// The route, or `nil` when unset.
    public var route: String?
    /// The params object, or `nil` when unset (distinct from `{}`).
    public var params: [String: JSONValue]?
    /// The navigation item's fields that differ from their unset values, in the order of
    /// the navigation item table of <doc:Rules>, with their values as JSON (`""` stays a string;
    /// an unset field is left out).
    public var fields: [ReportField]

    /// Creates the report's view of `entry`.
    public init(_ entry: Entry) {
        id = entry.id
        route = entry.route
        params = entry.params
        fields = NavigationItem().changedFields(to: entry.item).map {
            ReportField(name: $0, value: entry.item.jsonValue(of: $0))
        }
    }
}

/// One field of a navigation item: its JSON key (as in <doc:Rules>) and value.
public struct ReportField: Sendable, Hashable, Codable {
    /// The JSON key, e.g. `backButtonTitle`.
    public var name: String
    /// The value (`null` for an unset optional).
    public var value: JSONValue
}

/// One layer of a version's state: whether it is modal in presentation, whether its navigation
/// bar is hidden, and its entries, bottom (root) first, as indices into ``SessionReport/entries``.
public struct ReportLayer: Sendable, Hashable, Codable {
    /// `UIViewController.isModalInPresentation` of a presented layer (always `false` for layer 0).
    public var modalInPresentation: Bool
    /// ``Layer/navigationBarHidden``: the page draws no bar for a top layer whose bar is hidden.
    public var navigationBarHidden: Bool = false
    /// Indices into ``SessionReport/entries``, root first.
    public var entries: [Int]
}

/// The back button of a version (rules 1–5 of <doc:Rules>) as the report draws it.
public struct ReportBackButton: Sendable, Hashable, Codable {
    /// The preferred label; `""` is a chevron with no text.
    public var label: String
    /// The shorter labels UIKit falls back to, in order.
    public var fallbacks: [String]
    /// Whether the button shows a custom item's image.
    public var image: Bool
    /// The label shown for each room: the step with the largest `minWidth` at or below the room
    /// is the one shown (ascending by `minWidth`, the first at 0). Computed with
    /// ``BackButton/label(fitting:columns:)``, so it says what `back-menu --width N` says.
    public var steps: [ReportLabelStep]
}

/// From `minWidth` (in the unit of ``BackButton/label(fitting:columns:)``) on, the button shows `label`
/// (until the next step).
public struct ReportLabelStep: Sendable, Hashable, Codable {
    /// The smallest room at which `label` is shown.
    public var minWidth: Int
    /// The label shown from there.
    public var label: String
}

/// One row of the back menu as the report draws it (rules 6–7 of <doc:Rules>).
public struct ReportMenuRow: Sendable, Hashable, Codable {
    /// 1 = nearest (the back item).
    public var row: Int
    /// The entry selecting the row pops to.
    public var entry: String
    /// The row title; `""` is a blank row.
    public var title: String
    /// Whether the row is blank (its title is `""`): a defect users see (lint `blank-menu-row`).
    public var blank: Bool
}

/// One difference between a version's state and the state before it, for "what changed".
public struct ReportChange: Sendable, Hashable, Codable {
    /// What kind of difference.
    public enum Kind: String, Sendable, Hashable, Codable {
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
    public var kind: Kind
    /// The layer (0 = base), where the change is about one.
    public var layer: Int?
    /// The entry id, where the change is about one.
    public var entry: String?
    /// The position in the layer (0 = root), for an added entry.
    public var position: Int?
    /// The field, for ``Kind/fieldChanged``.
    public var field: String?
    /// The value before (JSON `null` for unset), where there is one.
    public var before: JSONValue?
    /// The value after (JSON `null` for unset), where there is one.
    public var after: JSONValue?
}

/// One version of a report: the event that made it and everything drawn for the state after it.
public struct ReportVersion: Sendable, Hashable, Codable {
    /// The 1-based version.
    public var version: Int
    /// The event's time in milliseconds since the Unix epoch.
    public var at: Int64
    /// ``at`` as ISO-8601 UTC text.
    public var time: String
    /// The event type, e.g. `entry.pushed`.
    public var type: String
    /// A one-line summary of the event (given by the caller, e.g. the one a history listing prints).
    public var summary: String
    /// Whether the event records a veto (the state did not change).
    public var veto: Bool
    /// The state's layers, base first.
    public var layers: [ReportLayer]
    /// The back button, or `nil` when there is none.
    public var backButton: ReportBackButton?
    /// Why there is no back button (rule 1), when there is none.
    public var noBackButton: String?
    /// The back menu nearest first, or `nil` when there is none.
    public var backMenu: [ReportMenuRow]?
    /// Why there is no back menu, when there is none.
    public var noBackMenu: String?
    /// What differs from the version before (empty for a veto, a restart marker, or a no-op).
    public var changes: [ReportChange]
    /// Indices into ``SessionReport/findings`` of the findings that hold at this version.
    public var findings: [Int] = []
    /// Indices into ``SessionReport/findings`` of the findings whose first version is this one
    /// (the timeline's markers).
    public var findingsStarting: [Int] = []
}

/// A lint rule as the report explains it (``LintRule``'s id, severity, summary, fix and source).
public struct ReportRule: Sendable, Hashable, Codable {
    /// The rule id, e.g. `blank-menu-row`.
    public var id: String
    /// Its severity.
    public var severity: LintSeverity
    /// What it finds.
    public var summary: String
    /// The fix it suggests.
    public var fix: String
    /// The public source of the behaviour it judges.
    public var source: String

    /// The explanation of `rule`.
    public init(_ rule: LintRule) {
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
