import NavStore

extension ArgumentSpec {
    /// `<key>`: the session key.
    static let key = ArgumentSpec(name: "key", help: "The session key.")
    /// `<id>`: an entry id.
    static let id = ArgumentSpec(name: "id", help: "The entry id (unique among the session's live entries).")
}

/// The options of every writing command: `--expect-version N` and `--time ISO8601`.
struct WriteOptions {
    static let specs: [OptionSpec] = [
        .value(
            "expect-version", "n",
            help: "Refuse with exit 4 unless the session is at version <n> (optimistic concurrency)."),
        .value(
            "time", "iso8601",
            help:
                "The event's time (ISO-8601, e.g. 2024-05-01T12:00:00Z); never earlier than the previous event, and at most 24 hours ahead of the clock unless --allow-future-time. Without it, now (or the previous event's time when the clock is behind it: a warning says so)."
        ),
        .flag("allow-future-time", help: "Accept a --time more than 24 hours ahead of the clock."),
    ]

    /// `--expect-version`.
    var expectedVersion: Int?
    /// `--time`, in milliseconds since the Unix epoch.
    var at: Int64?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        expectedVersion = try arguments.int("expect-version", minimum: 0)
        at = try arguments.time("time")
    }
}

/// `--at P` of the read commands.
enum PointOption {
    static let spec = OptionSpec.value(
        "at", "point",
        help:
            "A version number (the state after that event) or an ISO-8601 time (after the last event at or before it; digits below a millisecond round down)."
    )
}

/// `--platform G`: at `session start`, the session's generation (NavStore.docc/PlatformGenerations.md); on `stack`,
/// `back-menu` and `show`, a what-if read under another generation (the log is not changed).
enum PlatformOption {
    static func spec(_ help: String) -> OptionSpec { .value("platform", "generation", help: help) }
    /// The what-if help of the read commands.
    static let whatIf = spec(
        "Show the history as this generation (\(PlatformGeneration.names)) would resolve the back button, without changing the log; default the session's own."
    )
}

/// `--width N` of `back-menu` and `show`.
enum WidthOption {
    static func spec(_ help: String) -> OptionSpec { .value("width", "n", help: help) }
}
