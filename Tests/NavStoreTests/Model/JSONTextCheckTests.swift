import Testing

@testable import NavStore

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
}
