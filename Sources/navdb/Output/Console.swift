/// Writing to stdout and stderr through C stdio (buffered; flushed at exit), and what the
/// terminal allows (colour, progress).
enum Console {
    /// Writes `text` to stdout as UTF-8, unchanged.
    static func out(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            if fwrite(bytes.baseAddress, 1, bytes.count, Platform.standardOutput) < bytes.count, writeError == 0 { writeError = errno }
        }
    }

    /// The `errno` of the first write to stdout that failed, 0 while none did. The process is
    /// single-threaded where it writes output.
    nonisolated(unsafe) private static var writeError: Int32 = 0

    /// Writes `text` and a newline to stdout.
    static func line(_ text: String = "") { out(text + "\n") }

    /// Writes `text` and a newline to stdout for a command that streams (history, export,
    /// replay), and stops it at the first write that failed: where `SIGPIPE` is ignored (a command
    /// that changes the database, ``Command/changesDatabase``) a closed pipe is only an `EPIPE`
    /// from `write`, and a long listing would otherwise run to its end.
    /// - Throws: ``OutputError`` with the system's reason once a write to stdout failed.
    static func streamLine(_ text: String) throws(OutputError) {
        out(text + "\n")
        if writeError != 0 || ferror(Platform.standardOutput) != 0 {
            reported = true
            throw OutputError(reason: String(cString: strerror(writeError != 0 ? writeError : EIO)))
        }
    }

    /// Flushes stdout now, for a command whose lines must reach the reader as they come
    /// (`follow`), and stops it as ``streamLine(_:)`` does once a write failed.
    /// - Throws: ``OutputError`` with the system's reason once a write to stdout failed.
    static func flushStream() throws(OutputError) {
        if fflush(Platform.standardOutput) != 0, writeError == 0 { writeError = errno }
        if writeError != 0 || ferror(Platform.standardOutput) != 0 {
            reported = true
            throw OutputError(reason: String(cString: strerror(writeError != 0 ? writeError : EIO)))
        }
    }

    /// Whether an ``OutputError`` was thrown, so ``finish()`` does not say it again.
    nonisolated(unsafe) private static var reported = false

    /// Writes `text` to stderr as UTF-8 (stderr is unbuffered).
    static func err(_ text: String) {
        fputs(text, Platform.standardError)
    }

    /// Whether stdout is a terminal.
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether stderr is a terminal: progress is shown only then.
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether to colour stdout: it is a terminal and `NO_COLOR` is not set (https://no-color.org).
    static var useColor: Bool { stdoutIsTerminal && getenv("NO_COLOR") == nil }

    /// Flushes stdout (before exiting or showing progress).
    static func flush() { fflush(Platform.standardOutput) }

    /// Flushes stdout now and says why, if anything written to it so far was lost (as
    /// ``finish()``); a loss it returns counts as reported by the caller, so ``finish()`` does not
    /// report it again. For output whose delivery decides what is committed (a restore payload).
    static func deliver() -> String? {
        let reason = finish()
        if reason != nil { failureReported = true }
        return reason
    }

    /// Whether a lost write was already reported through ``deliver()``.
    nonisolated(unsafe) private static var failureReported = false

    /// Flushes stdout for the last time and says why, if anything written to it was lost
    /// (`ferror`, or a failing `fflush`: a full disk, `/dev/full`, a closed pipe); `nil` when all
    /// of it was written.
    static func finish() -> String? {
        if failureReported { return nil }
        if fflush(Platform.standardOutput) != 0, writeError == 0 { writeError = errno }
        guard !reported, writeError != 0 || ferror(Platform.standardOutput) != 0 else { return nil }
        return String(cString: strerror(writeError != 0 ? writeError : EIO))
    }
}

/// Output that could not be written to stdout (a closed pipe, a full disk): exit 74.
struct OutputError: Error, CustomStringConvertible {
    /// The system's reason (`strerror`).
    var reason: String

    var description: String {
        "cannot write the output: \(reason); the output is incomplete (what the command did to the database stands)"
    }
}

/// A progress line on stderr for long work, shown only when stderr is a terminal; it is
/// rewritten in place and erased when done, so it never mixes with the output on stdout.
struct Progress {
    private let enabled = Console.stderrIsTerminal
    private let label: String
    private var lastShown = 0

    init(_ label: String) { self.label = label }

    /// Shows `label… count` every `every` items.
    mutating func update(_ count: Int, every: Int = 10_000) {
        guard enabled, count - lastShown >= every else { return }
        lastShown = count
        Console.err("\r\(label)… \(count)")
    }

    /// Shows `label… done/total` (for the store's progress callbacks).
    func show(_ done: Int, of total: Int) {
        if enabled { Console.err("\r\(label)… \(done)/\(total)") }
    }

    /// Erases the progress line.
    func finish() { if enabled { Console.err("\r\u{1B}[2K") } }
}
