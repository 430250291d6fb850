import Testing

/// Runs `arguments` in `sandbox` and checks a refusal as the command line promises it: exit
/// `status`, stdout empty, stderr one `Error: ` line containing `message` (a usage error, exit 64,
/// may add its usage lines, and with `usage` they name `navdb <usage>`), and the database file
/// byte for byte as before.
func expectRefused(
    usage: String? = nil, _ sandbox: Sandbox, _ arguments: [String], stdin: String? = nil, status: Int32,
    message: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let before = try sandbox.databaseBytes()
    let result = try sandbox.run(arguments, stdin: stdin)
    #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stderr.hasPrefix("Error: "), "\(result)", sourceLocation: sourceLocation)
    #expect(result.stderr.contains(message), "\(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
    if status != 64 {
        #expect(
            result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)",
            sourceLocation: sourceLocation)
    } else if let usage {
        #expect(result.stderr.contains("Usage: navdb \(usage)"), sourceLocation: sourceLocation)
    }
    #expect(try sandbox.databaseBytes() == before, "the database changed", sourceLocation: sourceLocation)
}
