import NavStore
import NavStoreTools

/// How human output shows text from the log (titles, ids, prompts): control characters escaped,
/// `nil` and `""` visibly different, printable Unicode (emoji, combining marks, right-to-left
/// scripts) left as it is.
enum Text {
    /// `s` with control characters (`Cc`), line/paragraph separators, bidirectional
    /// embedding/override/isolate controls and invisible format characters (zero width space,
    /// marks, byte order mark: ``DisplayText``) escaped Swift-style (`\n`, `\t`,
    /// `\r`, `\u{1B}`, `\u{200B}`), and `\` doubled so the escape is unambiguous.
    static func escaped(_ s: String) -> String { DisplayText.escaped(s) }

    /// `s` escaped and wrapped in double quotes (with `"` escaped), for prompts and messages.
    static func quoted(_ s: String) -> String { DisplayText.quoted(s) }

    /// A value for a column: `-` for `nil`; the escaped text; quoted when it would otherwise be
    /// misread: `""` for the empty string, and quotes around `-`, text starting with `"`, or
    /// text with leading or trailing spaces.
    static func display(_ s: String?) -> String { DisplayText.column(s) }

    /// The number of terminal columns `s` takes: one per grapheme cluster, two for an East Asian
    /// wide or fullwidth character or an emoji presentation (the rule lives in ``TerminalWidth``).
    static func width(_ s: String) -> Int { TerminalWidth.columns(s) }

    /// `s` padded with spaces to `width` terminal columns.
    static func padded(_ s: String, to width: Int) -> String {
        let w = Text.width(s)
        return w >= width ? s : s + String(repeating: " ", count: width - w)
    }

    /// Escaped text `s` (``escaped(_:)``) shortened to at most `width` columns, ending in `…` when
    /// cut, never inside a grapheme cluster or an escape (``DisplayText/truncated(escaped:to:)``).
    static func truncated(_ s: String, to width: Int) -> String { DisplayText.truncated(escaped: s, to: width) }
}
