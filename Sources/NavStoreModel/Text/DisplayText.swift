/// How stored text (titles, ids, prompts) is shown where a person reads it: in lint messages and
/// in a tool's human output. Printable Unicode (emoji, combining marks, right-to-left scripts)
/// is kept; what would move a terminal's cursor, change its state or reorder the columns after
/// it is escaped Swift-style, so a hostile title cannot disguise itself.
package enum DisplayText {
    /// `text` with `\n`, `\t`, `\r` escaped as such, `\` doubled, `quote` (when given) preceded
    /// by `\`, and every other scalar that a reader could not see or that would move the cursor or
    /// reorder the columns written as `\u{HEX}`: C0/C1 controls (`Cc`), U+2028/U+2029,
    /// bidirectional embedding/override/isolate controls (U+202A–U+202E, U+2066–U+2069, UAX #9),
    /// and the characters that show nothing (the soft hyphen, zero width space, marks, word joiner,
    /// fillers, byte order mark, stray tags, and a zero width joiner or non-joiner outside an emoji
    /// sequence or a joining script), so that two different titles or ids never look the same.
    /// A combining mark (`Mn`, `Mc`, `Me`) with no base shown before it is escaped too: first in
    /// `text`, after a scalar written as an escape, or after an ASCII character other than a
    /// letter, a digit, `#` and `*` (the bases of keycaps). Shown, it would sit on the escape's
    /// last character (`\u{200B}́`), or on the quotes and brackets a message puts around an id.
    /// - Parameters:
    ///   - text: the stored text.
    ///   - quote: the quotation mark the caller wraps the result in, or nil.
    /// - Complexity: O(n) in the number of scalars.
    package static func escaped(_ text: String, quote: Unicode.Scalar? = nil) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = ""
        result.unicodeScalars.reserveCapacity(scalars.count)
        // Whether the scalar before was written as an escape (or there is none): a mark after
        // it has no base to sit on.
        var afterEscape = true
        for index in scalars.indices {
            let scalar = scalars[index]
            let hasNoBase = afterEscape || !isMarkBase(scalars[index - 1])
            let shownAsIs = isVisible(at: index, in: scalars) && !(hasNoBase && isCombiningMark(scalar))
            afterEscape = true
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\\": result += "\\\\"
            case _ where scalar == quote: result += "\\" + String(scalar)
            default:
                if shownAsIs {
                    result.unicodeScalars.append(scalar)
                    afterEscape = false
                } else {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                }
            }
        }
        return result
    }

    /// Text that ``escaped(_:quote:)`` wrote, if it takes at most `columns` terminal columns
    /// (`TerminalWidth`), else its longest prefix that leaves one column for the `…` appended
    /// to show the cut (`""` when `columns` < 1). The cut falls between grapheme clusters and
    /// never inside an escape: `\\`, `\n` or `\u{200B}` is kept whole or left out whole, so a
    /// cut title never shows half an escape such as `\u{2…`.
    /// - Complexity: O(n) in the length of the prefix.
    package static func truncated(escaped text: String, to columns: Int) -> String {
        guard TerminalWidth.columns(text) > columns else { return text }
        guard columns > 0 else { return "" }
        var result = ""
        var used = 0
        var index = text.startIndex
        while index < text.endIndex {
            // One token: a grapheme cluster, or every cluster of an escape (a backslash starts
            // one, as `escaped` doubles a backslash of the text).
            var end = text.index(after: index)
            if text[index].unicodeScalars.first == "\\", end < text.endIndex {
                let isHex = text[end].unicodeScalars.first == "u"
                end = text.index(after: end)
                if isHex {
                    while end < text.endIndex, text[end].unicodeScalars.first != "}" { end = text.index(after: end) }
                    if end < text.endIndex { end = text.index(after: end) }
                }
            }
            let width = TerminalWidth.columns(text[index..<end])
            if used + width > columns - 1 { break }
            result += text[index..<end]
            used += width
            index = end
        }
        return result + "…"
    }

    /// The Unicode scalars of `text` as code points, `U+0065 U+0301` (at least four hex digits
    /// each): how a message tells apart two spellings that look the same.
    package static func codePoints(_ text: some StringProtocol) -> String {
        text.unicodeScalars.map {
            let hex = String($0.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }.joined(separator: " ")
    }

    /// Whether ``escaped(_:quote:)`` writes any scalar of `text` as `\u{HEX}` (a backslash, a
    /// quote or a control it escapes otherwise is not counted).
    package static func hasHiddenScalars(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        return scalars.indices.contains { !isVisible(at: $0, in: scalars) }
    }

    /// Whether the scalar at `index` of `scalars` is shown as it is. Not shown: controls (`Cc`),
    /// line and paragraph separators, bidirectional controls, and the characters that show
    /// nothing: the soft hyphen U+00AD, the combining grapheme joiner U+034F, the Arabic letter
    /// mark U+061C, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the Mongolian vowel
    /// separator U+180E, the zero width space U+200B, the marks U+200E/U+200F, U+2060–U+206F
    /// (word joiner, invisible operators, deprecated format controls), U+FEFF, the interlinear
    /// annotation controls U+FFF9–U+FFFB, the shorthand format controls U+1BCA0–U+1BCA3, the
    /// musical format controls U+1D173–U+1D17A, and the tags U+E0000–U+E007F except inside a
    /// flag's tag sequence (after U+1F3F4). The zero width joiner U+200D is shown between two
    /// emoji (a ZWJ sequence) or two letters of a joining script, and the non-joiner U+200C
    /// between two such letters (Arabic, Syriac, N'Ko, Mongolian, the Indic scripts, Myanmar,
    /// Khmer); anywhere else they join nothing and are escaped. A variation selector is shown
    /// only where it selects something: U+FE0E/U+FE0F after an emoji or a keycap's base,
    /// U+FE00–U+FE0D after a character outside ASCII, U+E0100–U+E01EF after a CJK ideograph, the
    /// Mongolian U+180B–U+180D and U+180F after a Mongolian letter; the Khmer U+17B4 and U+17B5
    /// are always escaped.
    package static func isVisible(at index: Int, in scalars: [Unicode.Scalar]) -> Bool {
        let scalar = scalars[index]
        if scalar.properties.generalCategory == .control { return false }
        let previous = index > 0 ? scalars[index - 1] : nil
        let next = index + 1 < scalars.count ? scalars[index + 1] : nil
        switch scalar.value {
        case 0x2028, 0x2029, 0x202A...0x202E, 0x2060...0x206F: return false
        case 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x180E, 0x200B, 0x200E, 0x200F, 0x3164, 0xFEFF, 0xFFA0,
            0xFFF9...0xFFFB, 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A:
            return false
        case 0xE0000...0xE007F:
            return scalar.value >= 0xE0020
                && (previous.map { $0.value == 0x1F3F4 || (0xE0020...0xE007E).contains($0.value) } ?? false)
        case 0x200D:
            guard let previous, let next else { return false }
            return (isEmojiPart(previous) && isEmojiPart(next)) || (isJoiningLetter(previous) && isJoiningLetter(next))
        case 0x200C:
            guard let previous, let next else { return false }
            return isJoiningLetter(previous) && isJoiningLetter(next)
        case 0xFE0E, 0xFE0F:
            // Text or emoji presentation: of an emoji (or a keycap's base) only.
            return previous?.properties.isEmoji ?? false
        case 0xFE00...0xFE0D:
            // Standardized variation sequences: of mathematical symbols and CJK characters.
            return previous.map { !$0.isASCII } ?? false
        case 0xE0100...0xE01EF:
            // Ideographic variation sequences: of a CJK ideograph only.
            return previous?.properties.isUnifiedIdeograph ?? false
        case 0x180B...0x180D, 0x180F:
            // Mongolian free variation selectors: of a Mongolian letter only.
            return previous.map { (0x1800...0x18AF).contains($0.value) } ?? false
        case 0x17B4, 0x17B5:
            // Khmer inherent vowels: not to be used (The Unicode Standard, §16.4); they show nothing.
            return false
        default:
            return true
        }
    }

    /// Whether a combining mark after `scalar` is shown on it: anything but ASCII punctuation,
    /// spaces and controls (letters, digits, `#` and `*` are the bases of keycaps).
    private static func isMarkBase(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return true }
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "#", "*": return true
        default: return false
        }
    }

    /// A combining mark: nonspacing (`Mn`), spacing (`Mc`) or enclosing (`Me`).
    private static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// An emoji, its presentation selector U+FE0F or a skin tone modifier (what a ZWJ sequence
    /// joins, UTS #51).
    private static func isEmojiPart(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(scalar.value)
            || (scalar.value > 0xFF && scalar.properties.isEmoji)
    }

    /// A scalar of a script whose letters join or form conjuncts, where U+200C and U+200D choose
    /// the shapes (The Unicode Standard, §23.2).
    private static func isJoiningLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0600...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFC, 0x1800...0x18AF, 0x0900...0x0DFF, 0x1000...0x109F,
            0x1780...0x17FF:
            return true
        default: return false
        }
    }

    /// `text` escaped and wrapped in double quotes (with `"` escaped), for prompts and messages.
    package static func quoted(_ text: String) -> String {
        "\"" + escaped(text, quote: "\"") + "\""
    }

    /// A value for a column: `-` for `nil`; the escaped text; quoted when it would otherwise be
    /// misread: `""` for the empty string, and quotes around `-`, text starting with `"`, or
    /// text with leading or trailing spaces.
    package static func column(_ text: String?) -> String {
        guard let text else { return "-" }
        if text.isEmpty || text == "-" || text.hasPrefix("\"") || text.first?.isWhitespace == true
            || text.last?.isWhitespace == true
        {
            return quoted(text)
        }
        return escaped(text)
    }
}
