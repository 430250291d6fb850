#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lines of a text file, read one at a time with `getline(3)` into one reused buffer: memory
/// stays at the longest line, whatever the file's size. Line ends (`\n`, `\r\n`) are dropped.
final class LineReader: Sequence, IteratorProtocol {
    private let file: UnsafeMutablePointer<FILE>
    private var buffer: UnsafeMutablePointer<CChar>?
    private var capacity = 0
    /// Lines returned so far.
    private(set) var count = 0

    /// Opens `path` for reading.
    init(path: String) throws {
        guard let file = fopen(path, "r") else {
            throw BenchError("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        self.file = file
    }

    deinit {
        free(buffer)
        fclose(file)
    }

    func next() -> String? {
        let length = getline(&buffer, &capacity, file)
        guard length >= 0, let buffer else { return nil }
        var end = length
        while end > 0, buffer[end - 1] == 0x0A || buffer[end - 1] == 0x0D { end -= 1 }
        count += 1
        return buffer.withMemoryRebound(to: UInt8.self, capacity: end) {
            String(decoding: UnsafeBufferPointer(start: $0, count: end), as: UTF8.self)
        }
    }
}

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
