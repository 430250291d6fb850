import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// A trace import reads its input as it goes (the lines up to the one being
/// replayed), never the whole trace first; checked by what the input was asked for, not by time
/// or memory.
@Suite("Trace imports stream their input")
struct TraceStreamingTests {
    /// Lines handed out one at a time, counting how many were asked for.
    final class CountingLines: Sequence, @unchecked Sendable {
        let lines: [String]
        private(set) var read = 0
        init(_ lines: [String]) { self.lines = lines }
        func makeIterator() -> AnyIterator<String> {
            var index = 0
            return AnyIterator { [self] in
                guard index < lines.count else { return nil }
                defer { index += 1 }
                read = Swift.max(read, index + 1)
                return lines[index]
            }
        }
    }

    static let uikitLines = [
        #"{"callback":"didShow","at":1000,"stack":[{"id":"A"}]}"#,
        #"{"callback":"didShow","at":2000,"stack":[{"id":"A"},{"id":"B"}]}"#,
        #"{"callback":"didPop","at":3000,"id":"nowhere"}"#,
    ]

    static let swiftUILines = [
        #"{"path":[{"id":"A"}],"by":"app","at":1000}"#,
        #"{"path":[{"id":"A"},{"id":"B"}],"by":"app","at":2000}"#,
        #"{"path":"not a path","by":"app","at":3000}"#,
    ]

    /// 10,000 good lines after the bad third one.
    static func withTail(_ head: [String], _ tail: String) -> [String] {
        head + Array(repeating: tail, count: 10_000)
    }

    @Test("a UIKit trace refused at line 3 of 10,003 read 3 lines, into a store and into a missing file")
    func uikitStops() throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        let input = CountingLines(Self.withTail(Self.uikitLines, Self.uikitLines[1]))
        #expect(throws: StoreError.self) { try store.importUIKitTrace(lines: input, session: "s", platform: nil) }
        #expect(input.read == 3, "read \(input.read) lines")
        let missing = CountingLines(Self.withTail(Self.uikitLines, Self.uikitLines[1]))
        #expect(throws: StoreError.self) {
            try NavigationStore.importUIKitTrace(
                into: dir.path("missing.sqlite"), lines: missing, session: "s", platform: nil)
        }
        #expect(missing.read == 3, "read \(missing.read) lines")
        #expect(!FileManager.default.fileExists(atPath: dir.path("missing.sqlite")))
        // A good trace is read to its end, once.
        let good = CountingLines(Array(Self.uikitLines.prefix(2)))
        #expect(try store.importUIKitTrace(lines: good, session: "s", platform: nil).imported == 3)
        #expect(good.read == 2)
    }

    @Test("a SwiftUI path trace refused at line 3 of 10,003 read 3 lines")
    func swiftUIStops() throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        let input = CountingLines(Self.withTail(Self.swiftUILines, Self.swiftUILines[1]))
        #expect(throws: StoreError.self) { try store.importSwiftUIPath(lines: input, session: "p", platform: nil) }
        #expect(input.read == 3, "read \(input.read) lines")
    }
}
