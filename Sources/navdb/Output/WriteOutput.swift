import NavStore

/// What every writing command prints.
enum WriteOutput {
    /// The session and version a writing command appended, once it did, and for a veto what
    /// was vetoed and why: when its output is then lost, the error says the event was stored (and
    /// that it was a veto). The process runs one command.
    nonisolated(unsafe) static var stored: (session: String, version: Int, veto: Veto?)?

    /// What a command that is not one append did to the database, as a clause (`the import
    /// stored 5 event(s) of 1 session(s)`), once it did: when its output is then lost, the
    /// error says so instead of leaving the user to guess.
    nonisolated(unsafe) static var done: String?

    /// A recorded veto: what was vetoed and why.
    struct Veto {
        /// `pop` or `dismissal`.
        var what: String
        /// The entry that stays.
        var entry: String
        /// The pop guard's prompt; `nil` for a dismissal vetoed by `isModalInPresentation`.
        var prompt: String?

        /// The reason as the normal output prints it: the prompt, or `'M' is modal in presentation`.
        var shown: String { prompt.map(Text.escaped) ?? "'\(Text.escaped(entry))' is modal in presentation" }

        /// The veto in a sentence: `the pop of 'B' was vetoed (pop guard "Sure?"): nothing was popped`.
        var sentence: String {
            "the \(what) of '\(Text.escaped(entry))' was vetoed ("
                + (prompt.map { "pop guard \(Text.quoted($0))" } ?? "modal in presentation")
                + "): nothing was \(what == "pop" ? "popped" : "dismissed")"
        }
    }

    /// Prints `version N` (with `(unchanged: nothing to do)` when nothing was appended) or
    /// `vetoed: PROMPT (version N)`, or `{"session","version","outcome","prompt","unchanged"}` with `--json`.
    /// - Parameter unchanged: why nothing was appended, for a command that succeeds without an
    ///   event (`already at the root; nothing popped`); "nothing to do" when not given.
    /// A warning goes to stderr when the event was stamped with the previous event's time because
    /// the clock is behind it (``AppendResult/clockBehind``).
    /// - Returns: `.vetoed` when a guard vetoed the command (exit 3), else `.success`.
    static func render(_ result: AppendResult, _ context: Context, unchanged: String? = nil) throws -> Outcome {
        let veto: Veto?
        switch result.event?.body {
        case .popVetoed(let entry, let prompt, _)?: veto = Veto(what: "pop", entry: entry, prompt: prompt)
        case .dismissVetoed(let entry, _)?: veto = Veto(what: "dismissal", entry: entry)
        default: veto = nil
        }
        if result.event != nil { stored = (result.session, result.version, veto) }
        if let clock = result.clockBehind, let event = result.event {
            Console.err(
                "warning: the clock (\(Timestamp.format(clock))) is behind the previous event of session '\(Text.escaped(result.session))' "
                    + "(\(Timestamp.format(event.at))), so this event was stamped with that event's time, not now: times never go backwards. "
                    + "Check the clock, or give --time\n")
        }
        if context.json {
            try JSONOutput.print(WriteResultJSON(result, unchanged: unchanged))
        } else if result.outcome == .vetoed {
            Console.line("vetoed: \(veto?.shown ?? "vetoed") (version \(result.version))")
        } else {
            Console.line(
                "version \(result.version)"
                    + (result.event == nil ? " (unchanged: \(unchanged ?? "nothing to do"))" : ""))
        }
        return result.outcome == .vetoed ? .vetoed : .success
    }
}
