/// How lint messages show text from the log.
package enum LintText {
    /// The longest text a message quotes whole, in characters; longer text is cut with `…`.
    package static let maximumQuoted = 80

    /// `"text"`: control characters, line and paragraph separators, bidirectional controls and
    /// invisible characters (`DisplayText/escaped(_:quote:)`) escaped Swift-style (`\n`, `\u{1B}`), `"` and `\` escaped, cut at ``maximumQuoted``
    /// characters with `…`. `""` stays visibly empty.
    package static func value(_ text: String) -> String { "\"" + escaped(text, quote: "\"") + "\"" }

    /// `'id'`, escaped as ``value(_:)`` with `'` as the quote.
    package static func id(_ text: String) -> String { "'" + escaped(text, quote: "'") + "'" }

    /// The most items a message lists (``list(_:total:)``): a finding's ``LintFinding/entries``
    /// name them all, so its message stays one short line however many there are.
    package static let maximumListed = 5

    /// `a`, `a and b`, `a, b and c`; of more than ``maximumListed`` items, the first ones and
    /// `and N more`. `total` is the number of items `items` begins (default all of them).
    package static func list(_ items: some Collection<String>, total: Int? = nil) -> String {
        let shown = Array(items.prefix(maximumListed))
        let more = (total ?? items.count) - shown.count
        if more > 0 { return shown.joined(separator: ", ") + " and \(more) more" }
        guard shown.count > 1 else { return shown.first ?? "" }
        return shown.dropLast().joined(separator: ", ") + " and " + shown[shown.count - 1]
    }

    /// ``list(_:total:)`` of entry ids, each shown as ``id(_:)`` (only those listed are escaped).
    package static func ids(_ ids: [String]) -> String {
        list(ids.prefix(maximumListed).map(id), total: ids.count)
    }

    /// Whether `text` fits `width`, measured as the model measures labels
    /// (`BackButton/label(fitting:columns:)`), so that lint and `show` agree on what fits.
    package static func fits(_ text: String, width: Int) -> Bool {
        BackButton(label: text, fallbacks: [""]).label(fitting: width) == text
    }

    /// `text` escaped for a message (`DisplayText/escaped(_:quote:)`), cut after
    /// ``maximumQuoted`` characters with `…`.
    private static func escaped(_ text: String, quote: Unicode.Scalar) -> String {
        let cut = text.count > maximumQuoted
        return DisplayText.escaped(cut ? String(text.prefix(maximumQuoted)) : text, quote: quote) + (cut ? "…" : "")
    }
}
