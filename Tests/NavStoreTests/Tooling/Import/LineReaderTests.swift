import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// The one line reader (`import`, `lint --input` and the benchmark's inputs).
@Suite("LineReader: lines of a file")
struct LineReaderTests {
    /// A file holding `bytes` in `directory`.
    static func file(_ bytes: [UInt8], in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("input.ndjson")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("lines come without their \\n or \\r\\n, a last line without a newline included, empty lines kept")
    func lineEnds() throws {
        let directory = try TemporaryDirectory(prefix: "navstore-lines")
        defer { withExtendedLifetime(directory) {} }
        let reader = try LineReader(path: Self.file(Array("a\r\nb\n\nc".utf8), in: directory))
        #expect(Array(reader) == ["a", "b", "", "c"])
        #expect(reader.error == nil)
        #expect(reader.lineNumber == 4)
    }

    @Test("a byte order mark at the start of the input is dropped (RFC 8259 §8.1); elsewhere it is text")
    func byteOrderMark() throws {
        let directory = try TemporaryDirectory(prefix: "navstore-lines")
        defer { withExtendedLifetime(directory) {} }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(Array(try LineReader(path: Self.file(bom + Array("\n{}".utf8), in: directory))) == ["", "{}"])
        #expect(Array(try LineReader(path: Self.file(bom, in: directory))) == [""])
        #expect(
            Array(try LineReader(path: Self.file(Array("a\n".utf8) + bom + Array("b".utf8), in: directory)))
                == ["a", "\u{FEFF}b"])
    }

    @Test("a line that is not UTF-8 stops the input with an error naming the line")
    func invalidUTF8() throws {
        let directory = try TemporaryDirectory(prefix: "navstore-lines")
        defer { withExtendedLifetime(directory) {} }
        let reader = try LineReader(
            path: Self.file(Array("ok\n".utf8) + [0xFF, 0x0A] + Array("never\n".utf8), in: directory))
        let lines = Array(reader)
        #expect(lines.first == "ok")
        #expect(lines.contains("\u{0}"), "a line that is not JSON, so an import consuming it fails")
        #expect(reader.error?.description.hasPrefix("line 2 of ") == true, "\(String(describing: reader.error))")
    }

    @Test("a line past the limit is refused with its number before more of it is read")
    func tooLong() throws {
        let directory = try TemporaryDirectory(prefix: "navstore-lines")
        defer { withExtendedLifetime(directory) {} }
        let path = try Self.file(
            Array("short\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 100) + [0x0A], in: directory)
        let reader = LineReader(
            fileDescriptor: open(path, O_RDONLY), name: "'in'", consequence: "nothing was read", maximumLineBytes: 10)
        #expect(Array(reader) == ["short", "\u{0}"])
        #expect(reader.error?.description.contains("line 2 of 'in' is longer than 10 bytes") == true)
    }

    @Test("a file that cannot be opened is refused with the system's reason")
    func missing() {
        #expect(throws: LineReadError.self) { try LineReader(path: "/nonexistent/navstore/input") }
    }
}
