#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bad input data (exit 65): a JSON file that does not decode, or an input file that cannot be
/// read. Nothing was written.
struct InputError: Error, CustomStringConvertible {
    var description: String
}

/// Reading a file named on the command line, or stdin for `-`, without Foundation.
struct InputFile {
    /// The path, or `-` for stdin.
    var path: String

    /// How messages name the input: `'file.json'` or `stdin`.
    var name: String { path == "-" ? "stdin" : "'\(path)'" }

    /// Opens the file (or returns stdin).
    /// - Throws: ``InputError`` with the system's reason.
    private func descriptor() throws(InputError) -> Int32 {
        if path == "-" { return STDIN_FILENO }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError(description: "cannot read \(name): \(String(cString: strerror(errno)))") }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw InputError(description: "cannot read \(name): it is a directory")
        }
        return fd
    }

    /// Every byte of the input.
    /// - Throws: ``InputError`` when it cannot be opened or read.
    func readAll() throws(InputError) -> [UInt8] {
        let fd = try descriptor()
        defer { if fd != STDIN_FILENO { close(fd) } }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError(description: "cannot read \(name): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }

    /// The input's lines, read lazily in chunks (a `\r` before `\n` is dropped; invalid UTF-8 is
    /// replaced). The file is opened now, so a missing file is reported before anything else.
    /// - Throws: ``InputError`` when it cannot be opened.
    /// - Parameter consequence: what the error of a line that is not UTF-8 says happened
    ///   (`nothing was imported`, `nothing was linted`).
    func lines(consequence: String = "nothing was imported") throws(InputError) -> LineReader {
        LineReader(fd: try descriptor(), name: name, consequence: consequence)
    }
}

/// Lines of a file descriptor as a single-pass sequence, so an import streams instead of holding
/// the file in memory.
///
/// Linear in the input: each byte is searched for a newline once (the search resumes where the
/// last one stopped), and consumed bytes are dropped only when they are at least half of what is
/// held. A line longer than ``maximumLineBytes`` is refused with its line number before more of
/// it is read, so memory stays bounded whatever the input.
final class LineReader: Sequence, IteratorProtocol {
    /// The longest line accepted, in bytes without its line end: 64 MiB (an event's JSON is
    /// rarely past a few kilobytes; a `stack.replaced` of thousands of entries stays far below).
    static let maximumLineBytes = 64 << 20

    private let fd: Int32
    private let name: String
    private let maximumLineBytes: Int
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    private var pending: [UInt8] = []
    private var start = 0
    /// Bytes of `pending` from `start` up to here hold no newline.
    private var searched = 0
    private var finished = false
    /// Set once the input was ended by an error: nothing more is handed out.
    private var stopped = false
    /// A read error met on the way, if any. The reader then yields one line that is not JSON
    /// (a NUL), so an import consuming the lines fails and writes nothing instead of committing a
    /// truncated input; the caller reports this error in place of the import's.
    private(set) var error: InputError?

    /// What the error of a line that is not UTF-8 says happened.
    private let consequence: String

    init(
        fd: Int32, name: String, consequence: String = "nothing was imported",
        maximumLineBytes: Int = LineReader.maximumLineBytes
    ) {
        self.fd = fd
        self.name = name
        self.consequence = consequence
        self.maximumLineBytes = maximumLineBytes
    }

    deinit { if fd != STDIN_FILENO { close(fd) } }

    /// A line's text. Bytes that are not UTF-8 are not replaced (two different ids could become
    /// one): the reader records the error and yields a line that is not JSON, so the import fails
    /// and writes nothing, and the caller reports this error.
    private func text(_ bytes: ArraySlice<UInt8>) -> String {
        lineNumber += 1
        if let line = String(validating: bytes, as: UTF8.self) { return line }
        if error == nil {
            error = InputError(description: "line \(lineNumber) of \(name) is not valid UTF-8 text; \(consequence)")
        }
        return "\u{0}"
    }

    /// Lines handed out so far.
    private var lineNumber = 0

    /// Ends the input with an error: the next line handed out is not JSON, so the import fails.
    private func fail(_ problem: InputError) -> String? {
        defer { stopped = true }
        error = problem
        pending = []
        start = 0
        searched = 0
        return "\u{0}"
    }

    func next() -> String? {
        if stopped { return nil }
        while true {
            if let newline = pending[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start, pending[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                if end - start > maximumLineBytes { return tooLong() }
                let line = text(pending[start..<end])
                start = newline + 1
                searched = start
                return line
            }
            searched = pending.count
            if pending.count - start > maximumLineBytes + 1 { return tooLong() }
            if finished {
                guard start < pending.count else { return nil }
                let line = text(pending[start...])
                start = pending.count
                searched = start
                return line
            }
            if start > 0, start >= pending.count - start {
                pending.removeFirst(start)
                searched -= start
                start = 0
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return fail(InputError(description: "cannot read \(name): \(String(cString: strerror(errno)))"))
            } else if count == 0 {
                finished = true
            } else {
                pending.append(contentsOf: buffer[0..<count])
            }
        }
    }

    private func tooLong() -> String? {
        fail(
            InputError(
                description:
                    "line \(lineNumber + 1) of \(name) is longer than \(maximumLineBytes) bytes (the longest input line navdb reads); \(consequence)"
            ))
    }
}
