import NavStore
import NavStoreTools

/// `navdb back-menu KEY [--at P] [--width N]`: the back button's label (with its fallbacks) and
/// the long-press back menu.
struct BackMenuCommand: Command {
    static let spec = CommandSpec(
        abstract: "Show the back button's label and the back menu, now or at a point in history.",
        discussion: """
            --json prints {"session","version","backButton": null | {"label","fallbacks","image"},\
            "backMenu": null | [{"row","entry","title"}]} (and "fittingLabel" with --width).
            """,
        arguments: [Argument.key.spec],
        options: TimeTravelOptions.options + TabViewOption.options + [width.spec])

    /// `--width <n>`.
    static let width = WidthOption.label(
        help:
            "Also show the label drawn in <n> terminal columns (the preferred label or a fallback, whole; East Asian wide characters and emoji take two columns)."
    )

    var key: String
    var point: HistoryPoint?
    var platform: PlatformGeneration?
    var width: Int?
    var tab: TabViewOption

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = try arguments.value(Argument.key)
        (point, platform) = try TimeTravelOptions(arguments).pair
        tab = try TabViewOption(arguments)
        width = try arguments.value(Self.width)
    }

    func run(_ context: Context) throws -> Outcome {
        let state = try tab.view(context.store().state(session: key, at: point, platform: platform))
        if context.json {
            try JSONOutput.print(BackMenuJSON(state, width: width))
        } else {
            Console.out(StateText.heading(state) + "\n" + StateText.bar(state.state, width: width))
        }
        return .success
    }
}
