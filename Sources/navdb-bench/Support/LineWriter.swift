/// Writes text to a file through stdio's buffer (`fopen`/`fputs`), for the NDJSON inputs.
final class LineWriter {
    private let file: UnsafeMutablePointer<FILE>

    init(path: String) throws {
        guard let file = fopen(path, "w") else {
            throw BenchError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        self.file = file
    }

    /// Writes `line` and a newline.
    func write(_ line: String) {
        fputs(line, file)
        fputc(0x0A, file)
    }

    /// Flushes and closes the file.
    func close() { fclose(file) }
}
