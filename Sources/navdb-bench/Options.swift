/// The bench's command line: `navdb-bench [--full] [--json] [--navdb PATH] [--only LIST] [--small]`.
struct Options: Sendable {
    /// Adds the 10^6-event sizes.
    var full = false
    /// Prints the figures as JSON on stdout instead of the table.
    var json = false
    /// The `navdb` executable for measurement 3; default: beside this one.
    var navdb: String?
    /// Only these measurements (1-13); all when empty.
    var only: Set<Int> = []
    /// Sizes divided by 10 and fewer rounds: for profiling under callgrind, not for figures.
    var small = false

    static let usage = """
        OVERVIEW: Measures navdb against SQLite baselines in one run and prints each figure as a ratio.

        USAGE: navdb-bench [--full] [--json] [--navdb <path>] [--only <list>] [--small]

        OPTIONS:
          --full                  Add the 10^6-event sizes (takes several minutes).
          --json                  Print the figures as JSON on stdout.
          --navdb <path>          The navdb executable to time (default: the one beside navdb-bench).
          --only <list>           Run only these measurements, e.g. 1,4 (1-13).
          --small                 Sizes / 10, fewer rounds: for profiling, not for figures.
          -h, --help              Show help information.
        """

    /// Parses `arguments` (without argv[0]).
    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ name: String, _ inline: String?) throws -> String {
            if let inline { return inline }
            guard let next = rest.popFirst() else { throw BenchError("missing value for '\(name)'\n\(Options.usage)") }
            return next
        }
        while let argument = rest.popFirst() {
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0]
            let inline = parts.count > 1 ? parts[1] : nil
            switch name {
            case "--full": full = true
            case "--json": json = true
            case "--small": small = true
            case "--navdb": navdb = try value(name, inline)
            case "--only":
                for item in try value(name, inline).split(separator: ",") {
                    guard let n = Int(item), (1...13).contains(n) else {
                        throw BenchError("'--only' takes numbers 1-13 separated by commas, not '\(item)'")
                    }
                    only.insert(n)
                }
            default:
                throw BenchError("unknown argument '\(argument)'\n\(Options.usage)")
            }
        }
    }

    /// Whether measurement `n` runs.
    func runs(_ n: Int) -> Bool { only.isEmpty || only.contains(n) }

    /// `value` scaled down by 10 under `--small`.
    func size(_ value: Int) -> Int { small ? max(value / 10, 100) : value }
}
