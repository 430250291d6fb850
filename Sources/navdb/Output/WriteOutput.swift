import NavStore
import NavStoreTools

/// What every writing command prints.
enum WriteOutput {
    /// The session and version a writing command appended, once it did, and for a veto what
    /// was vetoed and why: when its output is then lost, the error says the event was stored (and
    /// that it was a veto). The process runs one command.
    nonisolated(unsafe) static var stored: Stored?

    /// What a writing command stored: a struct, not a tuple, whose `Optional`'s type metadata the
    /// runtime would build from its mangled name at the first assignment.
    struct Stored {
        /// The session's key.
        var session: String
        /// The version the command appended.
        var version: Int
        /// The veto it recorded, if it was vetoed.
        var veto: Veto?
    }

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
        // Only a vetoed outcome has a veto event to look into (the library's outcome is `.vetoed`
        // whenever the event appended is a veto): a `switch` over `result.event?.body` makes
        // the runtime build `Optional<Event>`'s type metadata from its mangled name, a cost every
        // one-shot push would pay.
        let appended: Bool
        switch result.event {
        case .some: appended = true
        case .none: appended = false
        }
        let veto = result.outcome == .vetoed ? Self.veto(in: result) : nil
        if appended { stored = Stored(session: result.session, version: result.version, veto: veto) }
        if let clock = result.clockBehind, let eventTime = result.event?.at {
            Console.err(
                "warning: the clock (\(Timestamp.format(clock))) is behind the previous event of session '\(Text.escaped(result.session))' "
                    + "(\(Timestamp.format(eventTime))), so this event was stamped with that event's time, not now: times never go backwards. "
                    + "Check the clock, or give --time\n")
        }
        if context.json {
            try JSONOutput.print(WriteResultJSON(result, unchanged: unchanged))
        } else if result.outcome == .vetoed {
            Console.line("vetoed: \(veto?.shown ?? "vetoed") (version \(result.version))")
        } else {
            Console.line(
                "version \(result.version)" + (appended ? "" : " (unchanged: \(unchanged ?? "nothing to do"))"))
        }
        return result.outcome == .vetoed ? .vetoed : .success
    }

    /// The veto `result` recorded, if its event is one.
    private static func veto(in result: AppendResult) -> Veto? {
        switch result.event?.body {
        case .popVetoed(let entry, let prompt, _)?: return Veto(what: "pop", entry: entry, prompt: prompt)
        case .dismissVetoed(let entry, _)?: return Veto(what: "dismissal", entry: entry)
        default: return nil
        }
    }
}
