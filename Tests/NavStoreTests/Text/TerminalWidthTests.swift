import NavStore
import NavStoreTools
import Testing

@Suite("Terminal column widths (rule 5; UAX #11, UTS #51)")
struct TerminalWidthTests {
    @Test(
        "one cluster's columns",
        arguments: [
            ("a", 1), ("Ω", 1), ("é", 1), ("e\u{301}", 1), ("ｱ", 1), ("♥", 1), ("©", 1), ("\u{200B}", 1),
            ("首", 2), ("页", 2), ("한", 2), ("\u{1112}\u{1161}\u{11AB}", 2), ("あ", 2), ("ア", 2), ("Ａ", 2), ("　", 2),
            ("。", 2), ("ㄅ", 2), ("ꀀ", 2), ("𠀀", 2), ("㍿", 2),
            ("😀", 2), ("⌚", 2), ("❤️", 2), ("1️⃣", 2), ("☝🏽", 2), ("🇫🇷", 2), ("👨‍👩‍👧‍👦", 2), ("🏳️‍🌈", 2),
            ("🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", 2),
        ] as [(String, Int)])
    func cluster(text: String, columns: Int) {
        #expect(text.count == 1)
        #expect(TerminalWidth.columns(text) == columns, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test(
        "a text's columns are the sum of its clusters'",
        arguments: [
            ("", 0), ("Detail", 6), ("首页", 4), ("首页首页", 8), ("Ω😀x", 4), ("Settings", 8), ("👨‍👩‍👧 family", 9),
        ] as [(String, Int)])
    func text(text: String, columns: Int) {
        #expect(TerminalWidth.columns(text) == columns)
    }

    @Test("ASCII text (a fast path) takes the columns its clusters take, CR LF being one cluster")
    func asciiText() {
        var random = SplitMix64(seed: 7)
        let alphabet: [Character] = ["a", "Z", " ", "\r", "\n", "\t", "\u{0}", "\u{7F}", "#", "1", "*", "~"]
        for length in 0..<200 {
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
            let clusters = text.reduce(0) { $0 + TerminalWidth.columns($1) }
            #expect(TerminalWidth.columns(text) == clusters, "\(text.debugDescription)")
            #expect(TerminalWidth.columns(text) == text.count, "\(text.debugDescription)")
        }
        #expect(TerminalWidth.columns("a\r\nb") == 3)
        #expect(TerminalWidth.columns("\r\r\n\n") == 3)
        #expect(TerminalWidth.columns("a\r\nb"[...]) == 3)
    }

    @Test("truncation keeps whole clusters and marks the cut with …")
    func truncation() {
        #expect(TerminalWidth.truncated("首页首页", to: 8) == "首页首页")
        #expect(TerminalWidth.truncated("首页首页", to: 7) == "首页首…")
        #expect(TerminalWidth.truncated("首页首页", to: 6) == "首页…")
        #expect(TerminalWidth.truncated("首页首页", to: 4) == "首…")
        #expect(TerminalWidth.truncated("首页首页", to: 2) == "…")
        #expect(TerminalWidth.truncated("首页", to: 0) == "")
        #expect(TerminalWidth.truncated("e\u{301}e\u{301}e\u{301}", to: 2) == "e\u{301}…")
        #expect(TerminalWidth.prefix(of: "👨‍👩‍👧‍👦x", fitting: 1) == "")
        #expect(TerminalWidth.prefix(of: "👨‍👩‍👧‍👦x", fitting: 2) == "👨‍👩‍👧‍👦")
    }
}
