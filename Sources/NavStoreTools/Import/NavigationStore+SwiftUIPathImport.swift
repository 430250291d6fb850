import NavStore

extension NavigationStore {
    /// Replays a SwiftUI path trace (NDJSON, one ``SwiftUIPathLine`` a line) through
    /// ``NavigationPathObserver`` into the session `key`, in one write transaction, as
    /// ``importUIKitTrace(lines:session:platform:allowingFutureTimes:)`` replays a UIKit trace: the session is
    /// started with `platform` when it does not exist, and after each line its stack equals the
    /// line's value.
    /// - Returns: what was read and appended (``TraceImportReport/callbacks`` counts the lines).
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` with the 1-based line number for a
    ///   line that is not JSON, not a path or sheet line, an empty path or sheet, a path of a
    ///   layer the session does not have, timed before the line before it or the
    ///   session's previous event, or a change no event can keep; ``StoreError/invalidImportFile(reason:)``
    ///   for an existing session of another generation than `platform`; ``StoreError/emptySessionKey``;
    ///   database errors. Nothing is written when it throws.
    @discardableResult
    public func importSwiftUIPath(
        lines: some Sequence<String>, session key: String, platform: PlatformGeneration?,
        allowingFutureTimes: Bool = false
    ) throws(StoreError) -> TraceImportReport {
        try importTrace(
            lines: lines, session: key, platform: platform, format: "swiftui-path",
            allowingFutureTimes: allowingFutureTimes,
            decode: { line, number, decoder throws(StoreError) in
                try Self.decodeTraceLine(
                    line, as: SwiftUIPathLine.self, number: number, decoder: decoder,
                    format: "a SwiftUI path trace is NDJSON, one path or sheet object per line",
                    kind: "a SwiftUI path line")
            },
            at: \.at,
            commands: { decoded, state throws(ObservationError) in
                try NavigationPathObserver.requireLayer(of: decoded.change, in: state)
                return decoded.change.commands(state: state)
            })
    }

    /// ``importSwiftUIPath(lines:session:platform:allowingFutureTimes:)`` into the database at `path`, creating it
    /// only when the trace holds a line and the import succeeds.
    /// - Throws: what ``init(path:create:options:)`` and ``importSwiftUIPath(lines:session:platform:allowingFutureTimes:)``
    ///   throw. Nothing is written when it throws.
    @discardableResult
    public static func importSwiftUIPath(
        into path: String, lines: some Sequence<String>, session key: String, platform: PlatformGeneration?,
        allowingFutureTimes: Bool = false, options: StoreOptions = StoreOptions()
    ) throws(StoreError) -> TraceImportReport {
        try importTrace(into: path, lines: lines, session: key, options: options) { store, all throws(StoreError) in
            try store.importSwiftUIPath(
                lines: all, session: key, platform: platform, allowingFutureTimes: allowingFutureTimes)
        }
    }
}
