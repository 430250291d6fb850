import Dispatch
import NavStore
import NavStoreTools

/// The hidden subcommand `navdb-bench __recorder-loop`: the recording child of the reliability
/// suite (Tests/navdbTests/Reliability/RecorderReliabilityTests.swift). It records pushes of
/// entries `TAG-N`, `TAG-(N+1)`, ... onto one session through a ``NavigationRecorder`` (default
/// options), and after every `K` of them awaits `flush()` and prints, flushed, the number of
/// pushes recorded before that flush: every line the parent reads is a count of calls that are
/// committed. The parent kills it with SIGKILL at random moments, or runs several at once.
///
/// ```
/// navdb-bench __recorder-loop DB SESSION [--start N] [--count C] [--flush-every K] [--tag T] [--pace-ms P]
///     [--slow-after S --slow-pace-ms Q] [--until-exists FILE]
/// ```
/// - `--start N`: the first push is `TAG-(N+1)` (default 0): a restart after a kill goes on
///   after what the log holds.
/// - `--count C`: stop after C pushes, flushed (exit 0); default: until killed, until the parent
///   is gone, or for ten minutes at most.
/// - `--flush-every K`: pushes per flush (default 20).
/// - `--tag T`: prefix of the entry ids (default `r<pid>`).
/// - `--pace-ms P`: sleep P milliseconds after each call (default 0: as fast as it can).
/// - `--slow-after S`, `--slow-pace-ms Q`: after S pushes, sleep Q milliseconds after each call
///   instead: a run that must last as long as other writers (`--until-exists`) keeps recording
///   without its stack growing fast while they are slow (a loaded machine).
/// - `--until-exists FILE`: stop, flushed, once FILE exists (checked before each call), so that
///   the run lasts as long as the parent's other writers.
///
/// Exit codes: 0 done, 64 usage, 74 a flush that failed (its error on stderr). Every failure the
/// recorder reports goes to stderr as `failure: ...`.
enum RecorderLoop {
    static let subcommand = "__recorder-loop"

    static func main(_ arguments: [String]) -> Int32 {
        var positional: [String] = []
        var settings = Settings()
        var rest = arguments[...]
        while let word = rest.popFirst() {
            switch word {
            case "--start", "--count", "--flush-every", "--tag", "--pace-ms", "--until-exists", "--slow-after",
                "--slow-pace-ms":
                guard let value = rest.popFirst() else { return usage("missing value for \(word)") }
                if word == "--tag" || word == "--until-exists" {
                    if word == "--tag" { settings.tag = value } else { settings.stopFile = value }
                    continue
                }
                guard let number = Int(value), number >= (word == "--flush-every" ? 1 : 0) else {
                    return usage("bad value '\(value)' for \(word)")
                }
                switch word {
                case "--start": settings.start = number
                case "--count": settings.count = number
                case "--pace-ms": settings.pace = number
                case "--slow-after": settings.slowAfter = number
                case "--slow-pace-ms": settings.slowPace = number
                default: settings.every = number
                }
            default:
                positional.append(word)
            }
        }
        guard positional.count == 2 else { return usage("expected DB and SESSION") }
        return record(into: positional[0], session: positional[1], settings)
    }

    /// The options of a run, as the arguments set them (their defaults: see ``RecorderLoop``).
    private struct Settings {
        var start = 0
        var count: Int?
        var every = 20
        var pace = 0
        var slowAfter = Int.max
        var slowPace = 0
        var stopFile: String?
        var tag = "r\(getpid())"
    }

    /// The loop itself: records pushes onto `session` of the database at `path` as `settings`
    /// say, printing the count after each flush.
    /// - Returns: the exit code: 0 done, 74 a flush that failed.
    private static func record(into path: String, session: String, _ settings: Settings) -> Int32 {
        var count = settings.count
        let recorder = NavigationRecorder(path: path)
        Task.detached {
            for await failure in recorder.failures { fputs("failure: \(failure)\n", Platform.standardError) }
        }
        let parent = getppid()
        let deadline = Timestamp.now() + 600_000
        var recorded = 0
        while count.map({ recorded < $0 }) ?? true {
            if getppid() != parent || Timestamp.now() > deadline { return 0 }
            if let stopFile = settings.stopFile, access(stopFile, F_OK) == 0 {
                count = recorded
                break
            }
            recorded += 1
            let id = "\(settings.tag)-\(settings.start + recorded)"
            let wait = recorded > settings.slowAfter ? settings.slowPace : settings.pace
            if wait > 0 { usleep(useconds_t(wait * 1_000)) }
            recorder.record(
                .push(Entry(id: id, route: "r/\(id)", item: NavigationItem(title: "Screen \(id)"))), session: session)
            guard recorded % settings.every == 0 || recorded == count else { continue }
            guard flush(recorder, until: deadline) else { return 74 }
            // Only now, after the flush returned: the parent counts these as committed.
            fputs("\(settings.start + recorded)\n", Platform.standardOutput)
            fflush(Platform.standardOutput)
        }
        if recorded % settings.every != 0 {
            // Stopped by --until-exists between two flushes: flush the rest and say so.
            guard flush(recorder, until: deadline) else { return 74 }
            fputs("\(settings.start + recorded)\n", Platform.standardOutput)
            fflush(Platform.standardOutput)
        }
        return 0
    }

    /// Flushes, again after a flush that failed because the store stayed locked (other writers
    /// on a loaded machine): the recorder keeps the calls queued and retries (<doc:Recording>), so
    /// such a failure loses nothing. Any other failure, or the deadline, ends the loop (its error
    /// on stderr).
    private static func flush(_ recorder: NavigationRecorder, until deadline: Int64) -> Bool {
        while true {
            do {
                try RecorderBench.flush(recorder)
                return true
            } catch {
                guard "\(error)".contains("stayed locked"), Timestamp.now() < deadline else {
                    fputs("Error: \(error)\n", Platform.standardError)
                    return false
                }
            }
        }
    }

    private static func usage(_ message: String) -> Int32 {
        fputs(
            "Error: \(message)\nusage: navdb-bench \(subcommand) DB SESSION [--start N] [--count C] [--flush-every K] [--tag T] [--pace-ms P] [--slow-after S --slow-pace-ms Q] [--until-exists FILE]\n",
            Platform.standardError)
        return 64
    }
}
