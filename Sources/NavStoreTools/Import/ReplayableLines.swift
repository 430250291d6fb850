import NavStore

/// The lines of a single-pass input, copied to an anonymous temporary file (`tmpfile(3)`) as
/// they are read, so that a transaction run again after a serialization failure (a backend
/// whose ``SQLDialect/writesMayRunAgain``, PostgreSQL) reads the input again from its first line
/// instead of going on where the failed run stopped. Memory stays bounded; the file holds a copy
/// of the lines read (each as its length in bytes, then its UTF-8 bytes, so a line may hold any
/// character) until the import ends. A backend that never runs a transaction again needs no copy.
final class ReplayableLines<Base: IteratorProtocol<String>>: Sequence, IteratorProtocol {
    /// Why a run cannot read the input again from its first line: the copy could not be made or
    /// read back.
    struct ReplayError: Error, CustomStringConvertible {
        let description =
            "the import lost a race with another writer and had to start again, but the copy of its input in a temporary file could not be written or read back; nothing was imported, run it again"
    }

    private var base: Base
    private let file: UnsafeMutablePointer<FILE>?
    /// Bytes copied to the file so far.
    private var written = 0
    /// Whether the input handed out a line (a run after that must read it again).
    private var started = false
    /// Whether the input said it has no more lines (it is not asked again).
    private var exhausted = false
    /// Bytes read back in this run; `nil` once the run reads the input itself.
    private var replayed: Int?
    /// Whether the copy is incomplete: the file could not be made, written or read back.
    private var lost = false

    /// Reads `base` once; `copying` says whether lines are copied for another run.
    init(_ base: Base, copying: Bool) {
        self.base = base
        file = copying ? tmpfile() : nil
        lost = copying && file == nil
    }

    deinit { if let file { fclose(file) } }

    /// Starts a run: the lines read by earlier runs come again, from the first.
    /// - Throws: ``ReplayError`` when earlier runs read lines that could not be copied.
    func rewind() throws {
        guard started else { return }
        guard let file, !lost, fseeko(file, 0, SEEK_SET) == 0 else { throw ReplayError() }
        replayed = 0
    }

    /// Ends a run that read every line.
    /// - Throws: ``ReplayError`` when a line copied earlier could not be read back (the run
    ///   missed lines).
    func finish() throws {
        if lost, replayed != nil { throw ReplayError() }
    }

    /// The next line: read back from the file while the run replays, then from the input.
    func next() -> String? {
        if let file, let done = replayed {
            if done < written {
                guard let line = readBack(file) else {
                    lost = true
                    return nil
                }
                replayed = done + 8 + line.utf8.count
                return line
            }
            // Back at the end of the copy: writes go on from there.
            replayed = nil
            if fseeko(file, 0, SEEK_END) != 0 { lost = true }
        }
        guard !exhausted, let line = base.next() else {
            exhausted = true
            return nil
        }
        started = true
        copy(line)
        return line
    }

    private func readBack(_ file: UnsafeMutablePointer<FILE>) -> String? {
        var length = 0
        guard fread(&length, 8, 1, file) == 1, length >= 0 else { return nil }
        var complete = true
        let line = String(unsafeUninitializedCapacity: length) { buffer in
            let count = length == 0 ? 0 : fread(buffer.baseAddress, 1, length, file)
            complete = count == length
            return count
        }
        return complete ? line : nil
    }

    private func copy(_ line: String) {
        guard let file, !lost else { return }
        var length = line.utf8.count
        var line = line
        let copied =
            fwrite(&length, 8, 1, file) == 1
            && line.withUTF8 { fwrite($0.baseAddress, 1, length, file) } == length
        if copied { written += 8 + length } else { lost = true }
    }
}
