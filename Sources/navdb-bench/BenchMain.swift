import NavStore
import NavStoreTools
import NavStorePostgreSQL

/// The bench's entry point: parses the options, runs the measurements (each in a fresh temporary
/// directory, removed afterwards), prints the table or the JSON.
enum BenchMain {
    static func run(_ arguments: [String]) -> Never {
        // Measurement 9 opens stores at postgresql:// URIs.
        PostgreSQLBackend.register()
        runHiddenSubcommand(arguments)
        if arguments.contains("-h") || arguments.contains("--help") {
            print(Options.usage)
            exit(0)
        }
        let options: Options
        do { options = try Options(arguments) } catch {
            fputs("Error: \(error)\n", Platform.standardError)
            exit(64)
        }
        let synchronous = StoreOptions().synchronous.rawValue
        var info = RunInfo.current(
            mode: options.full ? "--full" : options.small ? "--small" : "default", synchronous: synchronous)
        let start = monotonicNanoseconds()
        let figures = measure(BenchContext(options: options, synchronous: synchronous))
        info.seconds = Double(monotonicNanoseconds() - start) / 1e9
        if options.json {
            printJSON(figures, info: info)
        } else {
            print(renderTable(figures, info: info))
        }
        // A FAIL is a figure, not an error of the bench: the exit status stays 0.
        exit(0)
    }

    /// Runs the child process's hidden subcommand and exits, if `arguments` names one.
    private static func runHiddenSubcommand(_ arguments: [String]) {
        let children: [(String, ([String]) -> Int32)] = [
            (ImportChild.subcommand, ImportChild.main),
            (LintChild.subcommand, LintChild.main),
            (WriterLoop.subcommand, WriterLoop.main),
            (RecorderLoop.subcommand, RecorderLoop.main),
        ]
        for (subcommand, main) in children where arguments.first == subcommand {
            exit(main(Array(arguments.dropFirst())))
        }
    }

    /// Runs the selected measurements in order; a measurement that throws becomes a skipped row.
    private static func measure(_ context: BenchContext) -> [Figure] {
        let measurements: [(Int, String, (BenchContext) throws -> [Figure])] = [
            (1, "bulk append", BulkAppendBench.run),
            (2, "one append per transaction", SingleAppendBench.run),
            (3, "navdb push as a process", ProcessBench.run),
            (4, "state at a random version", HistoryBench.run),
            (5, "rebuild", RebuildBench.run),
            (6, "import: bytes per event and peak memory", ImportBench.run),
            (6, "bytes per event of one very deep stack", DeepStackBench.run),
            (7, "retention: session delete and prune", RetentionBench.run),
            (8, "lint of every session, against the fold and a bare read", LintBench.run),
            (9, PostgreSQLBench.name, PostgreSQLBench.run),
            (10, "recorder: the caller's thread and the sustained append", RecorderBench.run),
            (11, FollowBench.name, FollowBench.run),
            (12, ScaleBench.name, ScaleBench.run),
            (13, TraceBench.name, TraceBench.run),
        ]
        var figures: [Figure] = []
        for (number, name, body) in measurements where context.options.runs(number) {
            progress("\(number). \(name)...")
            let began = monotonicNanoseconds()
            do {
                figures += try body(context)
            } catch {
                progress("\(number). \(name) failed: \(error)")
                figures.append(.skipped("\(number)", name, reason: "failed: \(error)"))
            }
            progress("\(number). done in \(formatFixed(Double(monotonicNanoseconds() - began) / 1e9, decimals: 1)) s")
        }
        return figures
    }

    /// Prints the run and the figures as pretty-printed JSON with sorted keys; exits 70 if they
    /// cannot be encoded.
    private static func printJSON(_ figures: [Figure], info: RunInfo) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        struct Output: Encodable {
            var run: RunInfo
            var figures: [Figure]
        }
        do {
            print(String(decoding: try encoder.encode(Output(run: info, figures: figures)), as: UTF8.self))
        } catch {
            fputs("Error: cannot encode the figures: \(error)\n", Platform.standardError)
            exit(70)
        }
    }
}

/// What every measurement needs to know about the run.
struct BenchContext: Sendable {
    var options: Options
    /// `StoreOptions().synchronous` as SQL (`full`, `normal`, ...): the baselines use the same.
    var synchronous: String
}
