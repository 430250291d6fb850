import NavStore
import NavStoreTools

/// `--expect-version N`, `--time ISO8601` and `--allow-future-time`: the options of every
/// writing command.
struct WriteOptions: OptionGroup {
    /// `--expect-version <n>`.
    static let expectVersion = Option<Int?>(
        "expect-version", "n",
        help:
            "Refuse with exit 4 unless the session is at version <n> (optimistic concurrency; 0 for a session that does not exist yet).",
        parser: .integer(atLeast: 0))
    /// `--time <iso8601>`.
    static let time = Option<Int64?>(
        "time", "iso8601",
        help:
            "The event's time (ISO-8601, e.g. 2024-05-01T12:00:00Z); never earlier than the previous event, and at most 24 hours ahead of the clock unless --allow-future-time. Without it, now (or the previous event's time when the clock is behind it: a warning says so).",
        parser: .time())
    /// `--allow-future-time` (also taken by `restore`).
    static let allowFutureTime = Flag(
        "allow-future-time", help: "Accept a --time more than 24 hours ahead of the clock.")

    static let options = [expectVersion.spec, time.spec, allowFutureTime.spec]
    /// `--tab <id>`, declared by the commands whose action ``WriteAction/takesTab`` (<doc:TabBars>).
    static let tab = Option<String?>(
        "tab", "id",
        help:
            "Act on this tab's stack instead of the screen on show (an app pushing into a tab that is not on screen); a stack off screen takes programmatic pops alone.")

    /// `--expect-version`.
    var expectedVersion: Int?
    /// `--time`, in milliseconds since the Unix epoch.
    var at: Int64?
    /// `--tab`: the tab whose stack the command acts on; `nil` for the screen on show.
    var tab: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        expectedVersion = try arguments.value(Self.expectVersion)
        at = try arguments.eventTime(Self.time, allowFuture: arguments.flag(Self.allowFutureTime))
        // Declared by the commands whose action takes a tab alone (`session start` has none).
        tab = arguments.declares(Self.tab.spec) ? try arguments.value(Self.tab) : nil
        if tab?.isEmpty == true { throw arguments.error("--tab '' is empty: give a tab's id") }
    }
}

/// `--at P` and `--platform G` of the read commands: the state at a point in history, as a
/// generation would resolve it (a what-if read: the log is not changed).
struct TimeTravelOptions: OptionGroup {
    /// `--at <point>`.
    static let at = Option<HistoryPoint?>(
        "at", "point",
        help:
            "A version number (the state after that event) or an ISO-8601 time (after the last event at or before it; digits below a millisecond round down).",
        parser: .point)
    /// `--platform <generation>` as a what-if read (at `session start` it fixes the generation).
    static let platform = Option<PlatformGeneration?>(
        "platform", "generation",
        help:
            "Show the history as this generation would resolve the back button, without changing the log; default the session's own."
    )

    static let options = [at.spec, platform.spec]

    /// `--at`.
    var point: HistoryPoint?
    /// `--platform`.
    var platform: PlatformGeneration?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        point = try arguments.value(Self.at)
        platform = try arguments.value(Self.platform)
    }
}

/// `--width <n>`: one range and one message for every command that takes it. The room for the
/// back button's label (`back-menu`, `lint`, `report`) takes 1 to 10000 columns; the bar that
/// `show` draws needs 16 columns for the chevron and a title, so it starts there.
enum WidthOption {
    /// The room for a label, in columns.
    static let labelRange = 1...BarDrawing.maximumWidth

    /// `--width <n>` for a label's room, with the command's own help.
    static func label(help: String) -> Option<Int?> {
        Option("width", "n", help: help, parser: .integer(labelRange))
    }
}

extension TimeTravelOptions {
    /// `(point, platform)`, for a command that keeps them apart.
    var pair: (HistoryPoint?, PlatformGeneration?) { (point, platform) }
}

/// `--tab <id>` of `back-menu` and `show` (<doc:TabBars>): the back button and menu of another tab,
/// as they show when it is selected.
struct TabViewOption: OptionGroup {
    static let tab = Option<String?>(
        "tab", "id", help: "Read this tab's stack: what its back button and back menu show when it is selected.")
    static let options = [tab.spec]

    var tab: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        tab = try arguments.value(Self.tab)
        if tab?.isEmpty == true { throw arguments.error("--tab '' is empty: give a tab's id") }
    }

    /// `drawn: tab cal, as it shows when selected (the selected tab is mail)`, or `drawn: tab
    /// mail, the selected tab`; `nil` without `--tab` or a tab bar holding it.
    func drawnLine(_ state: SessionState) -> String? {
        guard let tab, let bar = state.tabBar, let index = bar.index(of: tab) else { return nil }
        let id = Text.escaped(bar.tabs[index].id)
        if index == bar.selectedIndex { return "drawn: tab \(id), the selected tab" }
        return "drawn: tab \(id), as it shows when selected (the selected tab is \(Text.escaped(bar.selected.id)))"
    }

    /// `state` as tab ``tab`` shows it, or `state` without `--tab`.
    /// - Throws: ``StoreError/rules(_:)`` for a session without a tab bar or a tab it lacks (exit 1).
    func view(_ state: VersionedState) throws(StoreError) -> VersionedState {
        guard let tab else { return state }
        var view = state
        do throws(NavigationError) { view.state = try state.state.viewingTab(tab) } catch { throw .rules(error) }
        return view
    }
}
