/// Widths of text in terminal columns, the unit labels are fitted in and a bar is drawn in
/// (rule 5 of <doc:Rules>).
///
/// A grapheme cluster (a Swift `Character`) takes one column, or two when it is East Asian Wide or
/// Fullwidth (UAX #11, "East Asian Width", classes W and F) or an emoji presentation sequence
/// (UTS #51 "Unicode Emoji": a character with `Emoji_Presentation`, an emoji followed by U+FE0F
/// VARIATION SELECTOR-16, an emoji modifier sequence, a flag). Ambiguous (A) characters such as
/// Greek letters count one column, as outside an East Asian context. Text is never cut inside a
/// cluster.
package enum TerminalWidth {
    /// The number of terminal columns `text` takes: the sum of its clusters' widths.
    /// - Complexity: O(n) in the length of `text`.
    package static func columns(_ text: some StringProtocol) -> Int {
        if let ascii = text.utf8.withContiguousStorageIfAvailable(asciiColumns), let ascii { return ascii }
        var total = 0
        for character in text { total += columns(character) }
        return total
    }

    /// The columns of text held as `bytes` of UTF-8 when all are ASCII, else `nil`: every ASCII
    /// cluster takes one column, and every byte is a cluster of its own except an LF after a CR
    /// (UAX #29 rule GB3 joins them): the same sum as cluster by cluster, without forming the
    /// clusters.
    package static func asciiColumns(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var total = 0
        var afterCR = false
        for byte in bytes {
            guard byte < 0x80 else { return nil }
            if !(afterCR && byte == 0x0A) { total += 1 }
            afterCR = byte == 0x0D
        }
        return total
    }

    /// The columns one grapheme cluster takes: 1, or 2 when it is wide (see `TerminalWidth`).
    package static func columns(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 1 }
        // Fast path: nothing below U+1100 is East Asian Wide or has Emoji_Presentation, and a
        // single scalar there can start no emoji sequence but a keycap or VS16 one.
        if first.value < 0x1100 && scalars.count == 1 { return 1 }
        if isEastAsianWide(first) { return 2 }
        return isEmojiPresentationSequence(scalars) ? 2 : 1
    }

    /// The longest prefix of `text` that takes at most `columns` columns, in whole clusters.
    /// - Complexity: O(n) in the length of the prefix.
    package static func prefix(of text: String, fitting columns: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let width = Self.columns(character)
            if used + width > columns { break }
            result.append(character)
            used += width
        }
        return result
    }

    /// `text` if it takes at most `columns` columns, else its longest prefix in whole clusters
    /// that leaves one column for the `…` appended to show the cut (`""` when `columns` < 1).
    package static func truncated(_ text: String, to columns: Int) -> String {
        guard Self.columns(text) > columns else { return text }
        guard columns > 0 else { return "" }
        return prefix(of: text, fitting: columns - 1) + "…"
    }

    /// Whether a cluster is an emoji presentation sequence (UTS #51 §1.4.3, ED-9a, ED-13, ED-14):
    /// its base has `Emoji_Presentation`, or is an emoji followed by U+FE0F, or is an emoji
    /// modifier base followed by a modifier; regional indicator pairs (flags) have
    /// `Emoji_Presentation` themselves.
    private static func isEmojiPresentationSequence(_ scalars: Character.UnicodeScalarView) -> Bool {
        guard let first = scalars.first else { return false }
        if first.properties.isEmojiPresentation { return true }
        guard first.properties.isEmoji else { return false }
        var rest = scalars.dropFirst().makeIterator()
        guard let second = rest.next() else { return false }
        if second.value == 0xFE0F { return true }
        return first.properties.isEmojiModifierBase && second.properties.isEmojiModifier
    }

    /// Whether a scalar is East Asian Wide (W) or Fullwidth (F) (UAX #11).
    ///
    /// The toolchain's `Unicode.Scalar.Properties` has no East_Asian_Width property, so this takes
    /// what it does have first: `isEmojiPresentation` (every Emoji_Presentation character is W
    /// since Unicode 9), `isIdeographic` and `isUnifiedIdeograph` (CJK, Tangut, Nüshu and Khitan
    /// ideographs, all W), `isRadical` (CJK radicals, W). The remaining W and F blocks, which no
    /// stdlib property identifies (Hangul, kana, Bopomofo, Yi, CJK punctuation, enclosed and
    /// compatibility forms, fullwidth forms), are the ranges below, taken from the Unicode
    /// Character Database's EastAsianWidth.txt (Unicode 15.1, the data UAX #11 defines), together
    /// with its rule that unassigned code points of planes 2 and 3 default to W.
    private static func isEastAsianWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x1100 { return false }
        let properties = scalar.properties
        if properties.isEmojiPresentation || properties.isIdeographic || properties.isUnifiedIdeograph
            || properties.isRadical
        {
            return true
        }
        switch value {
        case 0x1100...0x115F,  // Hangul Jamo initial consonants (W)
            0x2329...0x232A,  // left/right-pointing angle bracket (W)
            0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation; U+3000 (F)
            // Hiragana, Katakana, Bopomofo, Hangul compatibility jamo, Kanbun, CJK strokes, enclosed CJK
            0x3041...0x3247,
            0x3250...0x4DBF,  // enclosed CJK letters and months, CJK compatibility, CJK extension A
            0xA000...0xA4CF,  // Yi syllables and radicals
            0xA960...0xA97F,  // Hangul Jamo extended-A
            0xAC00...0xD7A3,  // Hangul syllables
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFE10...0xFE19,  // vertical forms
            0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
            0xFF00...0xFF60,  // fullwidth forms (F)
            0xFFE0...0xFFE6,  // fullwidth signs (F)
            0x16FE0...0x16FFF,  // ideographic symbols and punctuation
            0x17000...0x18D8F,  // Tangut, Khitan small script, Tangut supplement
            0x1AFF0...0x1B2FF,  // kana extended-B, kana supplement, kana extended-A, small kana, Nüshu
            0x1F200...0x1F2FF,  // enclosed ideographic supplement
            0x20000...0x2FFFD,  // plane 2 (W, assigned or not)
            0x30000...0x3FFFD:  // plane 3 (W, assigned or not)
            return true
        default:
            return false
        }
    }
}
