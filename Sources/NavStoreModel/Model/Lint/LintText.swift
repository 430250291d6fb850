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

    /// `a`, `a and b`, `a, b and c`.
    package static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
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
