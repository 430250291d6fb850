import NavStore

/// Why a `LineReader` stopped early: a line that is not UTF-8, a line past the longest
/// accepted, or a failed read. The message names the line (or the input) and says what happened.
package struct LineReadError: Error, Sendable, CustomStringConvertible {
    /// The one-line message, e.g. `line 3 of 'x.ndjson' is not valid UTF-8 text; nothing was imported`.
    package let description: String
}

/// Lines of a file descriptor as a single-pass sequence, so an import streams instead of holding
/// the file in memory.
///
/// Linear in the input: each byte is searched for a newline once (the search resumes where the
/// last one stopped), and consumed bytes are dropped only when they are at least half of what is
/// held. A line longer than ``maximumLineBytes`` is refused with its line number before more of
/// it is read, so memory stays bounded whatever the input.
package final class LineReader: Sequence, IteratorProtocol {
    /// The longest line accepted, in bytes without its line end: 64 MiB (an event's JSON is
    /// rarely past a few kilobytes; a `stack.replaced` of thousands of entries stays far below).
    package static let maximumLineBytes = 64 << 20

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
    package private(set) var error: LineReadError?

    /// What the error of a line that is not UTF-8 says happened.
    private let consequence: String

    /// Reads the lines of `fileDescriptor`, which the reader closes when it is done (unless it is
    /// stdin).
    /// - Parameters:
    ///   - fd: the open file descriptor to read from (0 for stdin).
    ///   - name: how messages name the input (`'file.ndjson'`, `stdin`).
    ///   - consequence: what an error says happened (`nothing was imported`).
    ///   - maximumLineBytes: the longest line accepted, in bytes without its line end.
    package init(
        fileDescriptor fd: Int32, name: String, consequence: String = "nothing was imported",
        maximumLineBytes: Int = LineReader.maximumLineBytes
    ) {
        self.fd = fd
        self.name = name
        self.consequence = consequence
        self.maximumLineBytes = maximumLineBytes
    }

    /// Opens `path` for reading.
    /// - Throws: ``LineReadError`` with the system's reason.
    package convenience init(path: String, consequence: String = "nothing was imported") throws(LineReadError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw LineReadError(description: "cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        self.init(fileDescriptor: fd, name: "'\(path)'", consequence: consequence)
    }

    deinit { if fd != STDIN_FILENO { close(fd) } }

    /// A line's text. Bytes that are not UTF-8 are not replaced (two different ids could become
    /// one): the reader records the error and yields a line that is not JSON, so the import fails
    /// and writes nothing, and the caller reports this error.
    private func text(_ bytes: ArraySlice<UInt8>) -> String {
        lineNumber += 1
        var bytes = bytes
        // A byte order mark at the start of the input is no part of the first line: RFC 8259
        // §8.1 lets a reader ignore it (an editor's "UTF-8 with BOM"), so a BOM before a blank
        // line leaves a blank line, not a line that is not JSON.
        if lineNumber == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if let line = bytes.withUnsafeBufferPointer({ String(validUTF8: $0) }) { return line }
        if error == nil {
            error = LineReadError(description: "line \(lineNumber) of \(name) is not valid UTF-8 text; \(consequence)")
        }
        return "\u{0}"
    }

    /// Lines handed out so far.
    package private(set) var lineNumber = 0

    /// Ends the input with an error: the next line handed out is not JSON, so the import fails.
    private func fail(_ problem: LineReadError) -> String? {
        defer { stopped = true }
        error = problem
        pending = []
        start = 0
        searched = 0
        return "\u{0}"
    }

    /// The next line without its line end, or `nil` at the end of the input (or after an error).
    package func next() -> String? {
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
                return fail(LineReadError(description: "cannot read \(name): \(String(cString: strerror(errno)))"))
            } else if count == 0 {
                finished = true
            } else {
                pending.append(contentsOf: buffer[0..<count])
            }
        }
    }

    private func tooLong() -> String? {
        fail(
            LineReadError(
                description:
                    "line \(lineNumber + 1) of \(name) is longer than \(maximumLineBytes) bytes (the longest input line accepted); \(consequence)"
            ))
    }
}
