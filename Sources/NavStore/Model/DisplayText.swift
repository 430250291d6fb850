/// How stored text (titles, ids, prompts) is shown where a person reads it: in lint messages and
/// in a tool's human output. Printable Unicode (emoji, combining marks, right-to-left scripts)
/// is kept; what would move a terminal's cursor, change its state or reorder the columns after
/// it is escaped Swift-style, so a hostile title cannot disguise itself.
public enum DisplayText {
    /// `text` with `\n`, `\t`, `\r` escaped as such, `\` doubled, `quote` (when given) preceded
    /// by `\`, and every other C0/C1 control (`Cc`), U+2028/U+2029, bidirectional
    /// embedding/override/isolate control (U+202A–U+202E, U+2066–U+2069, UAX #9) and invisible
    /// format character (U+00AD, U+061C, U+180E, U+200B, U+200E, U+200F, U+2060–U+2064, U+FEFF;
    /// the zero width joiner and non-joiner stay) written as `\u{HEX}`.
    /// - Parameters:
    ///   - text: the stored text.
    ///   - quote: the quotation mark the caller wraps the result in, or nil.
    /// - Complexity: O(n) in the number of scalars.
    public static func escaped(_ text: String, quote: Unicode.Scalar? = nil) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\\": result += "\\\\"
            case _ where scalar == quote: result += "\\" + String(scalar)
            default:
                if needsEscape(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// `text` escaped and wrapped in double quotes (with `"` escaped), for prompts and messages.
    public static func quoted(_ text: String) -> String {
        "\"" + escaped(text, quote: "\"") + "\""
    }

    /// A value for a column: `-` for `nil`; the escaped text; quoted when it would otherwise be
    /// misread: `""` for the empty string, and quotes around `-`, text starting with `"`, or
    /// text with leading or trailing spaces.
    public static func column(_ text: String?) -> String {
        guard let text else { return "-" }
        if text.isEmpty || text == "-" || text.hasPrefix("\"") || text.first?.isWhitespace == true
            || text.last?.isWhitespace == true
        {
            return quoted(text)
        }
        return escaped(text)
    }

    /// Whether a scalar is a control (`Cc`), a line or paragraph separator, a bidirectional
    /// embedding, override or isolate control, or a format character (`Cf`) that shows nothing
    /// and would let two different titles or ids look the same: the soft hyphen U+00AD, the
    /// Arabic letter mark U+061C, the Mongolian vowel separator U+180E, the zero width space
    /// U+200B, the left-to-right and right-to-left marks U+200E/U+200F, the word joiner and
    /// invisible operators U+2060–U+2064, and U+FEFF (byte order mark). The zero width joiner
    /// and non-joiner (U+200D, U+200C) are kept: emoji sequences and several scripts need them.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.generalCategory == .control { return true }
        switch scalar.value {
        case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        case 0x00AD, 0x061C, 0x180E, 0x200B, 0x200E, 0x200F, 0x2060...0x2064, 0xFEFF: return true
        default: return false
        }
    }
}
