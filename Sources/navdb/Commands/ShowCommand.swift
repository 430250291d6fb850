import NavStore
import NavStoreTools

/// `navdb show KEY [--at P] [--width N]`: a drawn picture of the navigation bar and the back menu.
struct ShowCommand: Command {
    static let spec = CommandSpec(
        abstract: "Draw the navigation bar and the back menu as the user saw them.",
        discussion: """
            The bar shows the back chevron with the label that fits, the top item's title centred, and \
            [modal layer N] on a presented stack; below it, the back menu as the long press opens it. \
            A hidden navigation bar (update-layer --navigation-bar-hidden) is not drawn: a line says so. \
            Colour only on a terminal, never with NO_COLOR set. --json prints the back-menu JSON.
            """,
        arguments: [Argument.key.spec],
        options: TimeTravelOptions.options + TabViewOption.options + [width.spec])

    /// `--width <n>`: the drawn bar needs room for the chevron and a title.
    static let width = Option<Int>(
        "width", "n", default: 40,
        help: "The bar's width in columns (from \(BarDrawing.minimumWidth) to \(BarDrawing.maximumWidth)).",
        parser: .integer(BarDrawing.minimumWidth...BarDrawing.maximumWidth))

    var key: String
    var point: HistoryPoint?
    var platform: PlatformGeneration?
    var width: Int
    var tab: TabViewOption

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = try arguments.value(Argument.key)
        (point, platform) = try TimeTravelOptions(arguments).pair
        tab = try TabViewOption(arguments)
        // The picture is `width` columns of text: an unbounded width would be an unbounded allocation.
        width = try arguments.value(Self.width)
    }

    func run(_ context: Context) throws -> Outcome {
        let state = try tab.view(context.store().state(session: key, at: point, platform: platform))
        if context.json {
            try JSONOutput.print(BackMenuJSON(state, width: width))
        } else {
            Console.out(
                StateText.heading(state) + "\n"
                    + BarDrawing(state.state, width: width, color: Console.useColor).render()
                    + (StateText.tabBar(state.state).map { $0 + "\n" } ?? ""))
        }
        return .success
    }
}
