import NavStore

/// What every writing command prints.
enum WriteOutput {
    /// The session and version a writing command appended, once it did: when its output is then
    /// lost, the error says the event was stored. The process runs one command.
    nonisolated(unsafe) static var stored: (session: String, version: Int)?

    /// Prints `version N` (with `(unchanged: nothing to do)` when nothing was appended) or
    /// `vetoed: PROMPT (version N)`, or `{"session","version","outcome"}` with `--json`.
    /// - Parameter unchanged: why nothing was appended, for a command that succeeds without an
    ///   event (`already at the root; nothing popped`); "nothing to do" when not given.
    /// A warning goes to stderr when the event was stamped with the previous event's time because
    /// the clock is behind it (``AppendResult/clockBehind``).
    /// - Returns: `.vetoed` when a guard vetoed the command (exit 3), else `.success`.
    static func render(_ result: AppendResult, _ context: Context, unchanged: String? = nil) throws -> Outcome {
        if result.event != nil { stored = (result.session, result.version) }
        if let clock = result.clockBehind, let event = result.event {
            Console.err(
                "warning: the clock (\(Timestamp.format(clock))) is behind the previous event of session '\(Text.escaped(result.session))' "
                    + "(\(Timestamp.format(event.at))), so this event was stamped with that event's time, not now: times never go backwards. "
                    + "Check the clock, or give --time\n")
        }
        if context.json {
            try JSONOutput.print(WriteResultJSON(result))
        } else if result.outcome == .vetoed {
            let reason: String
            switch result.event?.body {
            case .popVetoed(_, let prompt, _)?: reason = Text.escaped(prompt)
            case .dismissVetoed(let entry, _)?: reason = "'\(Text.escaped(entry))' is modal in presentation"
            default: reason = "vetoed"
            }
            Console.line("vetoed: \(reason) (version \(result.version))")
        } else {
            Console.line(
                "version \(result.version)"
                    + (result.event == nil ? " (unchanged: \(unchanged ?? "nothing to do"))" : ""))
        }
        return result.outcome == .vetoed ? .vetoed : .success
    }
}
