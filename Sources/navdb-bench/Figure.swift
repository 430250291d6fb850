/// One line of the result table: ours, the baseline it is judged against, their ratio, the target.
struct Figure: Encodable, Sendable {
    /// The measurement's number (its row in BENCHMARKS.md's tables) and a letter for its rows.
    var id: String
    /// What is measured.
    var name: String
    /// Our figure, in `unit`; `nil` when the row was skipped.
    var ours: Double?
    var unit: String
    /// What the baseline is, and its figure in the same unit (`nil` for an absolute figure).
    var baselineName: String
    var baseline: Double?
    /// Ours relative to the baseline (see each measurement's note for the direction).
    var ratio: Double?
    /// The target, as text naming what it applies to (`ratio >= 0.5`), or `nil` for none.
    var target: String?
    /// PASS (`true`) / FAIL (`false`), or `nil` when there is no target or the row was skipped.
    var pass: Bool?
    /// More figures the reader needs beside the main ones (named, with units in the name).
    var extra: [String: Double] = [:]
    /// Anything that qualifies the figure.
    var note: String?

    /// A figure whose target applies to the ratio.
    static func ratio(
        _ id: String, _ name: String, ours: Double, unit: String, baselineName: String, baseline: Double,
        ratio: Double, target: Target, extra: [String: Double] = [:], note: String? = nil
    ) -> Figure {
        Figure(
            id: id, name: name, ours: ours, unit: unit, baselineName: baselineName, baseline: baseline, ratio: ratio,
            target: target.text.map { "ratio \($0)" }, pass: target.holds(ratio), extra: extra, note: note)
    }

    /// A figure whose target applies to our absolute value.
    static func absolute(
        _ id: String, _ name: String, ours: Double, unit: String, baselineName: String = "-", baseline: Double? = nil,
        ratio: Double? = nil, target: Target, extra: [String: Double] = [:], note: String? = nil
    ) -> Figure {
        Figure(
            id: id, name: name, ours: ours, unit: unit, baselineName: baselineName, baseline: baseline, ratio: ratio,
            target: target.text.map { "ours \($0) \(unit)" }, pass: target.holds(ours), extra: extra, note: note)
    }

    /// A figure held to a target on the ratio and another on our absolute value: both must hold.
    static func ratioAndAbsolute(
        _ id: String, _ name: String, ours: Double, unit: String, baselineName: String, baseline: Double,
        ratio: Double, ratioTarget: Target, absoluteTarget: Target, extra: [String: Double] = [:],
        note: String? = nil
    ) -> Figure {
        let passes = [ratioTarget.holds(ratio), absoluteTarget.holds(ours)].compactMap { $0 }
        let text = [ratioTarget.text.map { "ratio \($0)" }, absoluteTarget.text.map { "ours \($0) \(unit)" }].compactMap
        { $0 }
        return Figure(
            id: id, name: name, ours: ours, unit: unit, baselineName: baselineName, baseline: baseline, ratio: ratio,
            target: text.isEmpty ? nil : text.joined(separator: ", "),
            pass: passes.isEmpty ? nil : passes.allSatisfy { $0 }, extra: extra, note: note)
    }

    /// A row that could not be measured, with the reason.
    static func skipped(_ id: String, _ name: String, reason: String) -> Figure {
        Figure(
            id: id, name: name, ours: nil, unit: "", baselineName: "-", baseline: nil, ratio: nil,
            target: nil, pass: nil, note: "SKIPPED: \(reason)")
    }
}
