import Foundation
import NavStore
import NavStoreTools
import TestSupport
import Testing

/// The `Date`, `URL` and `LocalizedError` forms an app uses beside the log's milliseconds and
/// paths: each gives what its millisecond or path form gives.
@Suite("Foundation forms: Date, URL, LocalizedError")
struct FoundationFormsTests {
    @Test("a Date is taken to the millisecond below it; dates past Int64 milliseconds are clamped")
    func dateToMilliseconds() {
        #expect(HistoryPoint.date(Date(timeIntervalSince1970: 1.5)) == .time(1_500))
        #expect(HistoryPoint.date(Date(timeIntervalSince1970: 0.0019)) == .time(1))
        #expect(HistoryPoint.date(Date(timeIntervalSince1970: -0.0005)) == .time(-1))
        #expect(HistoryPoint.date(Date(timeIntervalSince1970: 1_767_225_600)) == .time(1_767_225_600_000))
        #expect(
            HistoryPoint.date(.distantFuture)
                == .time(Int64((Date.distantFuture.timeIntervalSince1970 * 1_000).rounded(.down))))
        #expect(HistoryPoint.date(Date(timeIntervalSince1970: 1e300)) == .time(.max))
        #expect(HistoryPoint.date(Date(timeIntervalSince1970: -1e300)) == .time(.min))
        #expect(HistoryPoint.date(Date(timeIntervalSince1970: .infinity)) == .time(.max))
    }

    @Test(
        "a store and a recorder opened by file URL; times read back as Dates; a date reads as its time",
        arguments: [false, true])
    func urlAndDates(recorder useRecorder: Bool) async throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("nav 🧭.sqlite")
        let start = Date(timeIntervalSince1970: 1_767_225_600.25)
        if useRecorder {
            let recorder = NavigationRecorder(url: url)
            recorder.record(.push(Entry(id: "a", item: NavigationItem(title: "A"))), session: "s")
            try await recorder.close()
        } else {
            let store = try NavigationStore(url: url)
            try store.startSession("s", at: 1_767_225_600_250)
            try store.execute(
                .push(Entry(id: "a", item: NavigationItem(title: "A"))), session: "s", at: 1_767_225_601_000)
        }
        #expect(FileManager.default.fileExists(atPath: url.path))
        let store = try NavigationStore(url: url, create: false)
        let info = try await store.sessionInfo("s")
        #expect(info.createdDate == Date(timeIntervalSince1970: Double(info.createdAt) / 1_000))
        #expect(info.updatedDate >= info.createdDate)
        var events: [Event] = []
        try store.events(session: "s") { events.append($0) }
        #expect(events.map(\.date) == events.map { Date(timeIntervalSince1970: Double($0.at) / 1_000) })
        let now = try await store.state(session: "s")
        #expect(now.date == events.last?.date)
        if !useRecorder {
            #expect(info.createdDate == start)
            #expect(try await store.state(session: "s", at: .date(start)).version == 1)
            #expect(try await store.state(session: "s", at: .date(start.addingTimeInterval(0.75))).version == 2)
            #expect(throws: StoreError.self) {
                try store.state(session: "s", at: .date(start.addingTimeInterval(-0.001)))
            }
        }
        // A missing file by URL, as by path.
        #expect(throws: StoreError.databaseNotFound(path: directory.url.appendingPathComponent("no.sqlite").path)) {
            try NavigationStore(url: directory.url.appendingPathComponent("no.sqlite"), create: false)
        }
    }

    @Test("StoreError is a LocalizedError: localizedDescription is its one-line description")
    func localizedError() throws {
        let directory = try TemporaryDirectory()
        let store = try NavigationStore(path: directory.path("nav.sqlite"))
        do {
            _ = try store.sessionInfo("missing")
            Issue.record("no error")
        } catch {
            #expect(error.localizedDescription == error.description)
            #expect((error as any Error).localizedDescription.contains("missing"))
            #expect(error.errorDescription == error.description)
        }
    }
}
