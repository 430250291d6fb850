import NavStore
import NavStoreTools

/// 13. A UIKit trace's width: the import of a 3-line trace whose `didShow` stacks are n entries
/// wide (the root; n pushed at once; all n retitled), at n and at 4n. Its cost grows with n when
/// each line costs O(n + depth): the rate per entry at 4n against the rate at n is then about 1
/// (a lookup of each entry that scans the stack gives 1/4 per doubling, 1/16 here).
enum TraceBench {
    static let name = "UIKit trace import: a didShow n wide, per entry, at 4n against n"

    static func run(_ context: BenchContext) throws -> [Figure] {
        let options = context.options
        let narrow = options.full ? 10_000 : options.size(5_000)
        let wide = narrow * 4
        let rounds = options.small ? 2 : 3
        var narrowSeconds: [Double] = []
        var wideSeconds: [Double] = []
        try TempDirectory.with("trace") { dir in
            for round in 0..<rounds {
                // Which width goes first alternates.
                for width in round % 2 == 0 ? [narrow, wide] : [wide, narrow] {
                    let lines = trace(width: width)
                    let path = dir.file("trace-\(round)-\(width).sqlite")
                    let store = try NavigationStore(path: path)
                    var report: TraceImportReport?
                    let seconds = try measureSeconds {
                        report = try store.importUIKitTrace(lines: lines, session: "wide", platform: nil)
                    }
                    // The start, the root, the n entries pushed at once (one event), n updates.
                    guard report?.imported == 3 + width else {
                        throw BenchError("the trace import appended \(report?.imported ?? 0) events, expected \(3 + width)")
                    }
                    if width == narrow { narrowSeconds.append(seconds) } else { wideSeconds.append(seconds) }
                }
            }
        }
        let narrowRate = Double(narrow) / median(narrowSeconds)
        let wideRate = Double(wide) / median(wideSeconds)
        return [
            .ratio(
                "13", "trace import, didShow \(wide) wide (per entry, against \(narrow) wide)", ours: wideRate,
                unit: "entries/s", baselineName: "the same trace \(narrow) wide", baseline: narrowRate,
                ratio: pairedRateRatio(
                    ours: wideSeconds.map { $0 / Double(wide) }, baseline: narrowSeconds.map { $0 / Double(narrow) }),
                target: .atLeast(0.5),
                extra: ["wide s": median(wideSeconds), "narrow s": median(narrowSeconds)],
                note:
                    "3 lines: the root; a didShow pushing n entries at once (one entries.pushed event); a didShow retitling all n (n item.updated events); linear is 1, quadratic would be \(formatFixed(Double(narrow) / Double(wide), decimals: 2)); medians of \(rounds) rounds"
            )
        ]
    }

    /// The 3 lines of a trace `width` entries wide.
    static func trace(width: Int) -> [String] {
        func stack(_ title: String) -> String {
            "[{\"id\":\"root\"}" + (0..<width).map { ",{\"id\":\"e\($0)\",\"item\":{\"title\":\"\(title) \($0)\"}}" }.joined()
                + "]"
        }
        return [
            #"{"callback":"didShow","at":1767225600000,"stack":[{"id":"root"}]}"#,
            #"{"callback":"didShow","at":1767225601000,"stack":"# + stack("Screen") + "}",
            #"{"callback":"didShow","at":1767225602000,"stack":"# + stack("Renamed") + "}",
        ]
    }
}
