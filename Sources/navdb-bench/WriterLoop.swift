import NavStore
import NavStoreTools

/// The hidden subcommand `navdb-bench __writer-loop`: the child writer of the reliability suite
/// (Tests/navdbTests/Reliability). It opens a store and appends to one session in a loop through
/// ``NavigationStore/execute(_:session:at:expectedVersion:eventID:)``, printing each acknowledged
/// version on stdout, flushed, only *after* the call returned (the transaction committed), so
/// that every line the parent reads is an acknowledged event. The parent kills it with SIGKILL at
/// random moments, or runs several at once on one file.
///
/// ```
/// navdb-bench __writer-loop DB SESSION [--count N] [--snapshot-interval K] [--seed S] [--tag T]
/// ```
/// - `--count N`: stop after N acknowledged events (exit 0); default: run until killed, until the
///   parent process is gone, or for ten minutes at most.
/// - `--snapshot-interval K`: `StoreOptions.snapshotInterval` (default the store's).
/// - `--seed S`: the random choice of commands (default: the process id).
/// - `--tag T`: prefix of the entry ids it pushes, unique per writer (default `w<pid>`).
///
/// The session is started when missing (a racing writer that started it first is fine). A
/// command the rules refuse (another writer changed the state between the read and the write)
/// is retried with another; refusals go to stderr as `refused: ...` and never to stdout. Exit
/// codes: 0 done, 64 usage, 74 any store error (its message on stderr, one line).
enum WriterLoop {
    static let subcommand = "__writer-loop"

    static func main(_ arguments: [String]) -> Int32 {
        var positional: [String] = []
        var count: Int?
        var interval: Int?
        var seed = UInt64(getpid())
        var tag = "w\(getpid())"
        var rest = arguments[...]
        while let word = rest.popFirst() {
            switch word {
            case "--count", "--snapshot-interval", "--seed", "--tag":
                guard let value = rest.popFirst() else { return usage("missing value for \(word)") }
                switch word {
                case "--count": count = Int(value)
                case "--snapshot-interval": interval = Int(value)
                case "--seed": seed = UInt64(value) ?? seed
                default: tag = value
                }
                if (word == "--count" && count == nil) || (word == "--snapshot-interval" && (interval ?? 0) < 1) {
                    return usage("bad value '\(value)' for \(word)")
                }
            default:
                positional.append(word)
            }
        }
        guard positional.count == 2 else { return usage("expected DB and SESSION") }
        var options = StoreOptions()
        if let interval { options.snapshotInterval = interval }
        do {
            return try run(
                path: positional[0], session: positional[1], count: count, options: options, seed: seed, tag: tag)
        } catch {
            fputs("Error: \(error)\n", Platform.standardError)
            return 74
        }
    }

    private static func usage(_ message: String) -> Int32 {
        fputs(
            "Error: \(message)\nusage: navdb-bench \(subcommand) DB SESSION [--count N] [--snapshot-interval K] [--seed S] [--tag T]\n",
            Platform.standardError)
        return 64
    }

    private static func run(
        path: String, session: String, count: Int?, options: StoreOptions, seed: UInt64, tag: String
    ) throws -> Int32 {
        let store = try NavigationStore(path: path, options: options)
        do {
            try store.startSession(session)
        } catch {
            // Restarted after a kill, or another writer started it: carry on.
            guard case .sessionExists = error else { throw error }
        }
        var random = SeededRandom(seed: seed)
        var acknowledged = 0
        var pushed = 0
        // A writer whose parent died (a test run interrupted) must not write forever: it stops
        // when it is handed to another parent, and after ten minutes whatever happens.
        let parent = getppid()
        let deadline = Timestamp.now() + 600_000
        while count.map({ acknowledged < $0 }) ?? true {
            if getppid() != parent || Timestamp.now() > deadline { return 0 }
            let state = try store.state(session: session).state
            let command = nextCommand(state, random: &random, tag: tag, pushed: &pushed)
            let result: AppendResult
            do {
                result = try store.execute(command, session: session)
            } catch {
                guard case .rules(let refusal) = error else { throw error }
                fputs("refused: \(refusal)\n", Platform.standardError)
                continue
            }
            guard result.event != nil else { continue }
            // Only now, after the commit: the parent counts this line as acknowledged.
            fputs("\(result.version)\n", Platform.standardOutput)
            fflush(Platform.standardOutput)
            acknowledged += 1
        }
        return 0
    }

    /// A command that the state allows (mostly pushes and pops, now and then an update, a
    /// presentation, a dismissal, a whole new stack or a long title, so that some transactions
    /// span several pages).
    private static func nextCommand(_ state: SessionState, random: inout SeededRandom, tag: String, pushed: inout Int)
        -> NavigationCommand
    {
        func newEntry() -> Entry {
            pushed += 1
            let long = random.next(100) < 5
            let title = long ? String(repeating: "long title \(pushed) ", count: 300) : "Screen \(pushed)"
            return Entry(
                id: "\(tag)-\(pushed)", route: "route/\(pushed)", params: ["n": .integer(Int64(pushed))],
                item: NavigationItem(title: title, backButtonTitle: random.next(4) == 0 ? "" : nil))
        }
        let top = state.topLayer.entries
        let roll = random.next(100)
        if top.isEmpty || (top.count < 3 && roll < 60) { return .push(newEntry()) }
        switch roll {
        case 0..<40: return .push(newEntry())
        case 40..<70: return .pop(source: .programmatic)
        case 70..<80:
            var item = top[top.count - 1].item
            item.title = "Updated \(random.next(1000))"
            return .update(entryID: top[top.count - 1].id, item: item)
        case 80..<86:
            return state.layers.count < 3
                ? .present(newEntry(), modalInPresentation: random.next(2) == 0) : .push(newEntry())
        case 86..<92: return state.layers.count > 1 ? .dismiss(source: .programmatic) : .push(newEntry())
        case 92..<96: return .setStack((0..<(1 + random.next(4))).map { _ in newEntry() })
        default: return .popToRoot
        }
    }
}
