import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// What human output escapes (``DisplayText``): what moves the cursor, reorders columns or shows
/// nothing is written as `\u{HEX}`; printable Unicode stays as it is.
@Suite struct DisplayTextTests {
    @Test(
        "invisible format characters are escaped, so two titles that differ by one never look the same",
        arguments: [
            ("in\u{200B}box", #"in\u{200B}box"#), ("\u{200E}lrm", #"\u{200E}lrm"#), ("\u{200F}rlm", #"\u{200F}rlm"#),
            ("so\u{AD}ft", #"so\u{AD}ft"#), ("\u{FEFF}bom", #"\u{FEFF}bom"#), ("wo\u{2060}rd", #"wo\u{2060}rd"#),
            ("a\u{061C}b", #"a\u{61C}b"#), ("x\u{180E}y", #"x\u{180E}y"#), ("f\u{2061}(x)", #"f\u{2061}(x)"#),
            ("x\u{206A}y", #"x\u{206A}y"#), ("x\u{2065}y", #"x\u{2065}y"#), ("\u{3164}", #"\u{3164}"#),
            ("\u{115F}\u{1160}", #"\u{115F}\u{1160}"#), ("\u{FFA0}x", #"\u{FFA0}x"#), ("a\u{34F}b", #"a\u{34F}b"#),
            ("\u{FFF9}a\u{FFFA}b\u{FFFB}", #"\u{FFF9}a\u{FFFA}b\u{FFFB}"#), ("x\u{1BCA0}", #"x\u{1BCA0}"#),
            ("x\u{1D173}", #"x\u{1D173}"#), ("\u{E0001}en", #"\u{E0001}en"#), ("x\u{E0067}", #"x\u{E0067}"#),
            ("a\u{200D}b", #"a\u{200D}b"#), ("Auf\u{200C}lage", #"Auf\u{200C}lage"#), ("\u{200D}", #"\u{200D}"#),
            ("👩\u{200D}", #"👩\u{200D}"#), ("मि\u{200C}", #"मि\u{200C}"#),
            // Variation selectors that select nothing, and the Khmer inherent vowels.
            ("A\u{FE0F}", #"A\u{FE0F}"#), ("A\u{FE0E}", #"A\u{FE0E}"#), ("A\u{FE00}", #"A\u{FE00}"#),
            ("A\u{E0100}", #"A\u{E0100}"#), ("A\u{180B}", #"A\u{180B}"#), ("ក\u{17B4}", #"ក\u{17B4}"#),
            ("\u{FE0F}", #"\u{FE0F}"#), ("é\u{E0100}", #"é\u{E0100}"#),
        ])
    func invisibleCharacters(text: String, shown: String) {
        #expect(DisplayText.escaped(text) == shown)
        #expect(DisplayText.hasHiddenScalars(text))
    }

    @Test(
        "joiners, emoji sequences, flags and scripts are kept as they are",
        arguments: [
            "👩‍👩‍👧‍👦", "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", "🇫🇷 👍🏽",
            "می\u{200C}خواهم", "مرحبا", "e\u{301}", "日本語 テキスト", "क्\u{200D}ष", "🏳\u{FE0F}\u{200D}🌈",
            "👍🏽\u{200D}👍", "ܫܠܡ\u{200D}ܐ", "ᠮᠣ\u{200D}ᠩ", "한국어", "Ελληνικά", "Ζ\u{336}",
            "❤\u{FE0F}", "☺\u{FE0E}", "1\u{FE0F}\u{20E3}", "#\u{FE0F}\u{20E3}", "*\u{FE0F}\u{20E3}", "≩\u{FE00}",
            "葛\u{E0100}", "ᠠ\u{180B}",
        ])
    func printableKept(text: String) {
        #expect(DisplayText.escaped(text) == text)
        #expect(!DisplayText.hasHiddenScalars(text))
    }

    @Test(
        "a combining mark with no base shown before it is escaped: it would sit on the escape or the output before",
        arguments: [
            ("b\u{200B}\u{301}c", #"b\u{200B}\u{301}c"#), ("\u{301}x", #"\u{301}x"#), ("a\n\u{301}", #"a\n\u{301}"#),
            ("\\\u{301}", #"\\\u{301}"#), ("\u{200B}\u{301}\u{302}", #"\u{200B}\u{301}\u{302}"#),
            ("\u{20E3}", #"\u{20E3}"#), ("\u{1B}\u{94D}", #"\u{1B}\u{94D}"#), ("\"\u{301}", #"\"\u{301}"#),
            // A mark on a base shown as it is stays.
            ("e\u{301}", "e\u{301}"), ("1\u{20E3}", "1\u{20E3}"), ("क्\u{200D}ष", "क्\u{200D}ष"),
            ("e\u{301}\u{302}", "e\u{301}\u{302}"), ("\u{1B}e\u{301}", #"\u{1B}e"# + "\u{301}"),
            // On the quotes and brackets of a message, or a space: escaped; on a keycap's base: kept.
            ("'\u{301}A'", #"'\u{301}A'"#), ("[\u{301}A, B]", #"[\u{301}A, B]"#), (" \u{301}", #" \u{301}"#),
            ("k=\u{301}v", #"k=\u{301}v"#), ("#\u{20E3}", "#\u{20E3}"), ("9\u{20E3}", "9\u{20E3}"),
        ])
    func markAfterEscape(text: String, shown: String) {
        #expect(DisplayText.escaped(text, quote: "\"") == shown)
    }

    @Test("controls, separators and bidirectional controls are escaped; a backslash is doubled")
    func controls() {
        #expect(DisplayText.escaped("a\tb\nc\r\\") == #"a\tb\nc\r\\"#)
        #expect(DisplayText.escaped("\u{1B}[31m\u{7F}\u{85}") == #"\u{1B}[31m\u{7F}\u{85}"#)
        #expect(DisplayText.escaped("\u{202E}evil\u{202C}\u{2066}\u{2028}") == #"\u{202E}evil\u{202C}\u{2066}\u{2028}"#)
        #expect(DisplayText.quoted("say \"hi\"") == #""say \"hi\"""#)
        #expect(DisplayText.column(nil) == "-" && DisplayText.column("") == #""""#)
    }

    @Test("escaped text is cut between escapes, never inside one, at every width")
    func truncatedEscapes() {
        let texts = [
            "in\u{200B}box title", "a\\b\nc\td", "\u{1B}[31mred", "日本\u{200B}語 👩‍👩‍👧‍👦 x", "e\u{301}\u{200B}\u{301}z",
            "\u{E0001}\u{E0067}tags", String(repeating: "\u{200B}", count: 40),
        ]
        for text in texts {
            let escaped = DisplayText.escaped(text)
            for columns in 0...(TerminalWidth.columns(escaped) + 1) {
                let cut = DisplayText.truncated(escaped: escaped, to: columns)
                #expect(TerminalWidth.columns(cut) <= max(columns, 0), "\(escaped) at \(columns)")
                guard cut != escaped else { continue }
                let kept = String(cut.dropLast())
                #expect(cut.isEmpty || cut.hasSuffix("…"))
                // What is kept is the escape of a prefix of the text: no escape was split.
                let prefixes = (0...text.count).map { DisplayText.escaped(String(text.prefix($0))) }
                #expect(cut.isEmpty || prefixes.contains(kept), "\(escaped) at \(columns): \(cut)")
            }
        }
    }
}
