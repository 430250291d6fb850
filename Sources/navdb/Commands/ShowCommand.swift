import NavStore

/// `navdb show KEY [--at P] [--width N]`: a drawn picture of the navigation bar and the back menu.
struct ShowCommand: Command {
    static let spec = CommandSpec(
        path: ["show"],
        abstract: "Draw the navigation bar and the back menu as the user saw them.",
        discussion: """
            The bar shows the back chevron with the label that fits, the top item's title centred, and \
            [modal layer N] on a presented stack; below it, the back menu as the long press opens it. \
            Colour only on a terminal, never with NO_COLOR set. --json prints the back-menu JSON.
            """,
        arguments: [.key],
        options: [
            PointOption.spec, PlatformOption.whatIf,
            WidthOption.spec(
                "The bar's width in columns (default 40, from \(BarDrawing.minimumWidth) to \(BarDrawing.maximumWidth))."
            ),
        ])

    var key: String
    var point: HistoryPoint?
    var platform: PlatformGeneration?
    var width: Int

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        point = try arguments.point("at")
        platform = try arguments.choice("platform")
        width = try arguments.int("width", minimum: BarDrawing.minimumWidth) ?? 40
        // The picture is `width` columns of text: an unbounded width would be an unbounded allocation.
        guard width <= BarDrawing.maximumWidth else {
            throw arguments.invalid(
                String(width), for: "--width <n>",
                expected: "an integer from \(BarDrawing.minimumWidth) to \(BarDrawing.maximumWidth)")
        }
    }

    func run(_ context: Context) throws -> Outcome {
        let state = try context.store().state(session: key, at: point, platform: platform)
        if context.json {
            try JSONOutput.print(BackMenuJSON(state, width: width))
        } else {
            Console.out(
                StateText.heading(state) + "\n"
                    + BarDrawing(state.state, width: width, color: Console.useColor).render())
        }
        return .success
    }
}
