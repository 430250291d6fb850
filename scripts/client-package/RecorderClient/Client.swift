import Dispatch
import Foundation
import NavStore

/// The recorder client of scripts/check-app-dependency.sh, built in a package of its own that depends on
/// the NavStore product alone: what an app does with a recorder. A recorder from a path with the
/// default options, 2,000 pushes recorded from a thread of the client's own (each `record()`
/// timed, against a synchronous `execute` of the same push on another file), a flush, and the
/// committed events read back live with `for try await`.
///
/// `RecorderClient RECORDED_DB EXECUTE_DB`: exit 0 when all 2,001 events were delivered in order.
@main
struct Client {
    static let pushes = 2_000
    static let session = "client"

    static func nanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    static func push(_ index: Int) -> NavigationCommand {
        .push(Entry(id: "screen-\(index)", item: NavigationItem(title: "Screen \(index)")))
    }

    /// The times one thread writes and, once it has signalled, another reads.
    final class Times: @unchecked Sendable { var values: [Double] = [] }

    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3 else {
            print("usage: RecorderClient RECORDED_DB EXECUTE_DB")
            exit(64)
        }
        let recorder = NavigationRecorder(path: arguments[1])
        let recorded = Times()
        let recording = DispatchSemaphore(value: 0)
        let thread = Thread {
            recorded.values.reserveCapacity(pushes)
            for index in 0..<pushes {
                let command = push(index)
                let start = nanoseconds()
                recorder.record(command, session: session)
                recorded.values.append(Double(nanoseconds() - start) / 1_000)
            }
            recording.signal()
        }
        thread.start()
        recording.wait()

        // The same pushes, each a synchronous transaction on another file.
        let store = try NavigationStore(path: arguments[2])
        try store.startSession(session)
        var executed: [Double] = []
        for index in 0..<pushes {
            let command = push(index)
            let start = nanoseconds()
            try store.execute(command, session: session)
            executed.append(Double(nanoseconds() - start) / 1_000)
        }

        try await recorder.flush()

        var delivered = 0
        for try await event in recorder.events(session: session, from: 1) {
            delivered += 1
            guard event.version == delivered else {
                print("FAIL: event \(delivered) has version \(event.version)")
                exit(1)
            }
            if delivered == pushes + 1 { break }
        }

        func p99(_ values: [Double]) -> Double { values.sorted()[Int(Double(values.count) * 0.99) - 1] }
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
        func text(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
        print(
            "record(): mean \(text(mean(recorded.values), 2)) µs, p99 \(text(p99(recorded.values), 2)) µs; "
                + "execute: mean \(text(mean(executed), 0)) µs, p99 \(text(p99(executed), 0)) µs; "
                + "ratio of means \(text(mean(recorded.values) / mean(executed), 4)); events delivered \(delivered)")
        guard delivered == pushes + 1 else {
            print("FAIL: \(delivered) events delivered, expected \(pushes + 1)")
            exit(1)
        }
    }
}
