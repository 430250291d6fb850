import Testing

/// Runs `navdb WORDS --help` and compares its whole output with `expected` (without the final
/// newline), as swift-argument-parser's `AssertHelp` does; `-h` and `navdb help WORDS` must print
/// the same. A mismatch names the first line that differs.
func assertHelp(_ words: [String], _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(words + ["--help"])
    #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stderr.isEmpty, "\(result)", sourceLocation: sourceLocation)
    let actual = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    let wanted = (expected + "\n").split(separator: "\n", omittingEmptySubsequences: false)
    let common = min(actual.count, wanted.count)
    let differing = (0..<common).first { actual[$0] != wanted[$0] } ?? (actual.count != wanted.count ? common : nil)
    if let line = differing {
        let got = line < actual.count ? String(actual[line]) : "(end)"
        let want = line < wanted.count ? String(wanted[line]) : "(end)"
        Issue.record("line \(line + 1) differs:\n  got:  \(got)\n  want: \(want)", sourceLocation: sourceLocation)
    }
    #expect(try sandbox.run(words + ["-h"]).stdout == result.stdout, sourceLocation: sourceLocation)
    if !words.isEmpty {
        #expect(try sandbox.run(["help"] + words).stdout == result.stdout, sourceLocation: sourceLocation)
    }
}
