import Foundation
import Testing

/// Every error about a `set-stack` file names the file and where in it the bad entry or value is,
/// as the decoder's errors do (`at [1].id`): the rules' refusals (an empty id, an id given twice,
/// an id live in another layer, an empty array) and the text checks (numbers past Int64 or a
/// double, `-0`, a key given twice, nesting past the limit). Exit codes stay those of the
/// refusal; the database is unchanged.
@Suite("navdb set-stack: errors name the file and the path")
struct SetStackFileErrorTests {
    @Test(
        "each refusal names the file and the JSON path of the bad entry",
        arguments: CommandBackend.each([
            (
                #"[{"id": "B"}, {"id": ""}]"#, Int32(65),
                "the entry id '' is empty: an entry id has at least one character at [1].id"
            ),
            (
                #"[{"id": "X"}, {"id": "Y"}, {"id": "X"}]"#, 1,
                "set-stack lists entry 'X' more than once; ids must be distinct at [0].id and [2].id"
            ),
            ("[]", 1, "set-stack needs at least one entry (the array is empty)"),
            (
                #"[{"id": "B", "item": {"title": "Inbox",}}]"#, 65,
                "a comma before '}' ends no value (a trailing comma is not JSON) at [0].item.title"
            ),
            (#"[{"id": "B"},]"#, 65, "a comma before ']' ends no value (a trailing comma is not JSON) at [1]"),
            (
                #"[{"id": "M"}, {"id": "A"}]"#, 1,
                "entry 'A' is already live in layer 0 (stack: [A] | [M]); ids must be unique at [1].id"
            ),
            (
                #"[{"id": "B", "params": {"n": 1e400}}]"#, 65,
                "the number 1e400 is beyond what NavStore keeps (integers within ±9223372036854775807, or numbers of a 64-bit double) at [0].params.n"
            ),
            (
                #"[{"id": "B", "params": {"a": [1, {"z": -0}]}}]"#, 65,
                "the number -0 would be stored as 0 (JSON numbers keep no sign on zero here: write 0) at [0].params.a[1].z"
            ),
            (
                #"[{"id": "B", "item": {"title": "a", "t\u0069tle": "b"}}]"#, 65,
                "an object names the key \"title\" twice (keys must be unique) at [0].item.title"
            ),
            (
                #"[{"id": "B", "params": {"deep": "# + String(repeating: "[", count: 120)
                    + String(repeating: "]", count: 120)
                    + "}}]", 65,
                "nested deeper than 100 levels inside an entry (params may nest 100 levels) at [0].params.deep[0][0][0]...[0][0][0] (102 levels deep)"
            ),
        ]))
    func located(json: String, status: Int32, message: String, backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok(["push", "s", "A", "--time", "2026-11-30T09:00:01Z"])
        try sandbox.ok(["present", "s", "M", "--time", "2026-11-30T09:00:02Z"])
        let file = try sandbox.write("stack.json", json)
        try expectRefused(
            sandbox, ["set-stack", "s", "--json-file", file], status: status,
            message: "Error: invalid entries in '\(file)': \(message)")
        try expectRefused(
            sandbox, ["set-stack", "s", "--json-file", "-"], stdin: json, status: status,
            message: "Error: invalid entries in stdin: \(message)")
    }
}
