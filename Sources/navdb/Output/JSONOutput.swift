import NavStore
import NavStoreTools

/// `--json` output: compact JSON with sorted keys, unescaped slashes, and every navigation item
/// field written (`null` for unset optionals), one document (or one event) per line.
enum JSONOutput {
    /// The encoder every `--json` output uses.
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo[NavigationItem.explicitKeys] = true
        return encoder
    }

    /// `value` as one line of JSON text (without the newline).
    static func text(_ value: some Encodable, encoder: JSONEncoder = makeEncoder()) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Prints `value` as one line of JSON on stdout.
    static func print(_ value: some Encodable) throws {
        Console.line(try text(value))
    }
}

/// The one JSON shape of an event, shared by `history --json`, `export` and `replay --json`:
/// `{"at","eventID","payload","seq","session","time","type","version"}` (keys sorted), with `at`
/// in milliseconds since the Unix epoch and `time` its ISO-8601 UTC text.
enum EventJSON {
    /// The event as one line of JSON (no newline). The payload is encoded by `encoder`
    /// (``JSONOutput/makeEncoder()``: every item field written).
    static func line(_ event: Event, encoder: JSONEncoder) throws -> String {
        EventRecord.line(event, payload: String(decoding: try event.body.payloadData(encoder), as: UTF8.self))
    }
}

/// One `replay --json` line: `{"backButton","backMenu","event","stack"}` (keys sorted), the event
/// in the shape of ``EventJSON``, `stack` the entry ids per layer after it.
enum ReplayJSON {
    static func line(_ event: Event, state: SessionState, encoder: JSONEncoder) throws -> String {
        "{\"backButton\":" + (try JSONOutput.text(state.backButton, encoder: encoder))
            + ",\"backMenu\":" + (try JSONOutput.text(state.backMenu, encoder: encoder))
            + ",\"event\":" + (try EventJSON.line(event, encoder: encoder))
            + ",\"stack\":" + (try JSONOutput.text(state.entryIDs, encoder: encoder)) + "}"
    }

    /// The first line for a truncated session: `{"backButton","backMenu","base","stack"}`, the
    /// base as its `session.truncated` record (``SessionBase/record()``) and the bar and stack of
    /// the base state.
    static func baseLine(_ base: SessionBase, encoder: JSONEncoder) throws -> String {
        "{\"backButton\":" + (try JSONOutput.text(base.state.backButton, encoder: encoder))
            + ",\"backMenu\":" + (try JSONOutput.text(base.state.backMenu, encoder: encoder))
            + ",\"base\":" + (try base.record().jsonLine())
            + ",\"stack\":" + (try JSONOutput.text(base.state.entryIDs, encoder: encoder)) + "}"
    }
}
