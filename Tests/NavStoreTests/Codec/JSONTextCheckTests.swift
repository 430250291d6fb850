import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// ``JSONTextCheck`` says where the problem is, as a decoding error does.
@Suite("JSONTextCheck: where the problem is")
struct JSONTextCheckTests {
    @Test(
        "the path of a refused number, a repeated key or a too deep value",
        arguments: [
            (#"{"a": 1e400}"#, " at a"),
            (#"[1, 2, -0]"#, " at [2]"),
            (#"{"a": [0, {"b": 1, "b": 2}]}"#, " at a[1].b"),
            (#"{"\u0061": {"x": 18446744073709551616}}"#, " at a.x"),
            (#"{"k": 1, "a": {"y": 1e-400}}"#, " at a.y"),
            (#"[{"a": 1}, {"b": [1, 2, 3, -0]}]"#, " at [1].b[3]"),
            (String(repeating: "[", count: 101), " at [0][0][0][0][0][0]...[0][0][0] (100 levels deep)"),
            ("{\"" + String(repeating: "k", count: 50) + "\": -0}", " at " + String(repeating: "k", count: 40) + "..."),
        ])
    func location(json: String, suffix: String) throws {
        let problem = try #require(JSONTextCheck().problem(in: json))
        #expect(problem.hasSuffix(suffix), "\(problem)")
    }

    @Test(
        "a trailing comma is refused where it is; commas inside strings and between values are not",
        arguments: [
            (#"[1,]"#, "a comma before ']' ends no value (a trailing comma is not JSON) at [1]"),
            (#"{"a": 1 , }"#, "a comma before '}' ends no value (a trailing comma is not JSON) at a"),
            ("[{\"id\": \"A\"},\n\t\r ]", "a comma before ']' ends no value (a trailing comma is not JSON) at [1]"),
            (
                #"{"a": {"b": [true, null,]}}"#,
                "a comma before ']' ends no value (a trailing comma is not JSON) at a.b[2]"
            ),
        ])
    func trailingComma(json: String, problem: String) {
        #expect(JSONTextCheck().problem(in: json) == problem)
    }

    @Test("commas that end a value are fine", arguments: [#"[1, 2]"#, #"{"a": ",]", "b": [",}"]}"#, #"[[],{}]"#, "[]"])
    func commasBetweenValues(json: String) {
        #expect(JSONTextCheck().problem(in: json) == nil)
    }

    @Test("the top level has no path, and valid JSON no problem")
    func topLevel() {
        #expect(
            JSONTextCheck().problem(in: "-0")
                == "the number -0 would be stored as 0 (JSON numbers keep no sign on zero here: write 0)")
        #expect(JSONTextCheck().problem(in: #"{"a": [1, {"b": "1e400"}], "c": -1}"#) == nil)
    }

    @Test(
        "keys that are one text in two Unicode spellings are refused, naming both; other keys are not",
        arguments: [
            (#"{"\u00e9": 1, "e\u0301": 2}"#, "U+00E9 and as U+0065 U+0301", ""),
            ("{\"e\u{301}\": 2, \"\u{E9}\": 1}", "U+0065 U+0301 and as U+00E9", ""),
            (#"{"K": 1, "\u212a": 2}"#, "U+004B and as U+212A", ""),
            (#"{"x": {"\u212b": 3, "\u00c5": 4}}"#, "U+212B and as U+00C5", " at x.Å"),
            (
                "{" + (0..<20).map { #""k\#($0)": 0, "# }.joined() + #""caf\u00e9": 1, "cafe\u0301": 2}"#,
                "U+0063 U+0061 U+0066 U+00E9 and as U+0063 U+0061 U+0066 U+0065 U+0301", ""
            ),
        ])
    func canonicallyEquivalentKeys(json: String, spellings: String, suffix: String) throws {
        let problem = try #require(JSONTextCheck().problem(in: json))
        #expect(problem.contains("twice, as " + spellings + ": the same text in two Unicode spellings"), "\(problem)")
        #expect(problem.hasSuffix(suffix), "\(problem)")
        #expect(JSONTextCheck(uniqueKeys: false).problem(in: json) == nil)
    }

    @Test(
        "keys past ASCII that are different texts are kept",
        arguments: [
            #"{"\u00e9": 1, "e": 2, "\u00e8": 3}"#, #"{"K": 1, "k": 2, "\u212a\u212a": 3}"#,
            #"{"\u65e5": 1, "\u65e5\u672c": 2, "e\u0301\u0301": 3, "\u00e9": 4}"#,
            #"{"a": {"\u00e9": 1}, "b": {"e\u0301": 2}}"#,
        ])
    func distinctKeysPastASCII(json: String) {
        #expect(JSONTextCheck().problem(in: json) == nil)
    }

    @Test(
        "an escaped surrogate without its other half is refused where it is; pairs and escaped backslashes are not",
        arguments: [
            (#"{"t": "a\udc00"}"#, "U+DC00", " at t"),
            (#"[{"item": {"title": "\ud83e"}}]"#, "U+D83E", " at [0].item.title"),
            (#"["\ud83e\u0041"]"#, "U+D83E", " at [0]"),
            (#"["\ud83e\ud83e\udded"]"#, "U+D83E", " at [0]"),
            (#"{"\uDC00": 1}"#, "U+DC00", ")"),  // a key: the object it is in is the top level
        ])
    func loneSurrogate(json: String, escape: String, suffix: String) throws {
        let problem = try #require(JSONTextCheck().problem(in: json))
        #expect(problem.contains("an escape of \(escape), half of a UTF-16 surrogate pair"), "\(problem)")
        #expect(problem.hasSuffix(suffix), "\(problem)")
    }

    @Test("paired surrogates, other escapes and an escaped backslash before u are JSON text as it should be")
    func pairedSurrogates() {
        for json in [
            #"["\ud83e\udded"]"#, #"["\uD83E\uDDED and \u00e9"]"#, #"["\\udc00"]"#, #"["\\\ud83e\udded"]"#,
            #"["\n\t\"\/\u0000"]"#, #"{"\ud83e\udded": 1}"#,
        ] {
            #expect(JSONTextCheck().problem(in: json) == nil, "\(json)")
        }
    }
}
