import NavStore
import NavStoreTools

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
        LineReader(fileDescriptor: try descriptor(), name: name, consequence: consequence)
    }
}
