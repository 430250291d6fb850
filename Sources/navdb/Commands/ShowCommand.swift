import NavStore
import NavStoreTools

/// `navdb show KEY [--at P] [--bar-width N]`: a drawn picture of the navigation bar and the back
/// menu.
struct ShowCommand: Command {
    static let spec = CommandSpec(
        abstract: "Draw the navigation bar and the back menu as the user saw them.",
        discussion: """
            The bar shows the back chevron with the label that fits beside the centred title of a \
            --bar-width bar, and [modal layer N] on a presented stack; below it, the back menu as the long \
            press opens it. When the preferred back label does not fit, a note on stderr says which label \
            UIKit shows instead (the one 'back-menu --width <room>' names). A hidden navigation bar \
            (update-layer --navigation-bar-hidden) is not drawn: a line says so. Colour only on a terminal, \
            never with NO_COLOR set. --json prints the back-menu JSON, "fittingLabel" being the label drawn.
            """,
        arguments: [Argument.key.spec],
        options: TimeTravelOptions.options + TabViewOption.options + [barWidth.spec],
        refusedOptions: [
            // `--width` is the back label's room everywhere else: here it would be the bar's width,
            // a second meaning for one name, so it is refused with the name to use.
            "width":
                "the bar's width is --bar-width <n> (\(ValueParser<Int>.expectedInteger(BarDrawing.widthRange)), default \(BarDrawing.defaultWidth)); --width is the room for the back label, in back-menu, lint and report"
        ])

    /// `--bar-width <n>`: the drawn bar needs room for the chevron and a title.
    static let barWidth = Option<Int>(
        "bar-width", "n", default: BarDrawing.defaultWidth,
        help:
            "The bar's width in columns, frame included (from \(BarDrawing.minimumWidth) to \(BarDrawing.maximumWidth)); the back label gets the room left of the centred title.",
        parser: .integer(BarDrawing.widthRange))

    var key: String
    var point: HistoryPoint?
    var platform: PlatformGeneration?
    var barWidth: Int
    var tab: TabViewOption

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = try arguments.value(Argument.key)
        (point, platform) = try TimeTravelOptions(arguments).pair
        tab = try TabViewOption(arguments)
        // The picture is `barWidth` columns of text: an unbounded width would be an unbounded allocation.
        barWidth = try arguments.value(Self.barWidth)
    }

    func run(_ context: Context) throws -> Outcome {
        let stored = try context.store().state(session: key, at: point, platform: platform)
        let state = try tab.view(stored)
        let drawing = BarDrawing(state.state, width: barWidth, color: Console.useColor)
        if context.json {
            try JSONOutput.print(BackMenuJSON(state, fittingLabel: drawing.backLabel?.fitting))
        } else {
            // The brackets mark the selected tab, whichever tab is drawn; a line says which.
            Console.out(
                StateText.heading(state) + "\n" + (tab.drawnLine(stored.state).map { $0 + "\n" } ?? "")
                    + drawing.render() + (StateText.tabBar(stored.state).map { $0 + "\n" } ?? ""))
        }
        // What `back-menu` calls the label and what the bar draws must never differ silently.
        if let note = drawing.labelNote { Console.err("note: " + note + "\n") }
        return .success
    }
}
