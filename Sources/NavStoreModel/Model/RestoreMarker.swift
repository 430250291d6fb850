/// What a `session.restored` marker records about the restart it marks (<doc:Restore>): which state
/// the app was handed, and why it was an earlier one. The marker changes no state: the log's state
/// at a marker is still the one its last navigation event produced, which is the state the app
/// shows only when no fallback was handed out (``failedVersions`` empty). After a fallback, the log
/// is brought in line with what the app shows by `restore --ack`, which appends its own marker
/// (``acknowledged``) followed by the events that lead there.
///
/// Payload shape: `{"restoredVersion": Int, "attempt": Int, "failedVersions": [Int],
/// "acknowledged": true}`, each key left out when unset (`nil`, empty, `false`); markers written
/// before these fields existed are `{}`. Which combinations a restore records, and so which an
/// import takes: <doc:Restore>.
public struct RestoreMarker: Sendable, Hashable, Codable {
    /// The version whose state the app was handed (1-based; 0 for the base layer's root alone),
    /// or `nil` when the marker does not say (a marker written by an older version, or one
    /// recorded without a restore plan).
    public var restoredVersion: Int?
    /// How many restores of that state went unacknowledged, this one included (1-based), or `nil`.
    public var attempt: Int?
    /// The states that went unacknowledged too often in a row, newest first: the reason an
    /// earlier state than the session's newest was handed out. Empty when none was.
    public var failedVersions: [Int]
    /// Whether `restore --ack` appended this marker: the app acknowledged the restore of
    /// ``restoredVersion`` (a fallback), and the events after the marker bring the log in line.
    public var acknowledged: Bool

    /// A marker with these fields; `RestoreMarker()` says nothing beyond "restarted here".
    public init(
        restoredVersion: Int? = nil, attempt: Int? = nil, failedVersions: [Int] = [], acknowledged: Bool = false
    ) {
        self.restoredVersion = restoredVersion
        self.attempt = attempt
        self.failedVersions = failedVersions
        self.acknowledged = acknowledged
    }

    /// Whether the app was handed an earlier state than the session's newest (a fallback).
    public var isFallback: Bool { !failedVersions.isEmpty }

    private enum CodingKeys: String, CodingKey {
        case restoredVersion, attempt, failedVersions, acknowledged
    }

    /// Decodes a marker; every key is optional (`{}` is a marker that says nothing more).
    /// - Throws: `DecodingError` for a key of the wrong type or a negative version.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        restoredVersion = try c.decodeIfPresent(Int.self, forKey: .restoredVersion)
        attempt = try c.decodeIfPresent(Int.self, forKey: .attempt)
        failedVersions = try c.decodeIfPresent([Int].self, forKey: .failedVersions) ?? []
        acknowledged = try c.decodeIfPresent(Bool.self, forKey: .acknowledged) ?? false
        if let version = restoredVersion, version < 0 {
            throw DecodingError.dataCorruptedError(
                forKey: .restoredVersion, in: c, debugDescription: "a version is 0 or more, got \(version)")
        }
        if let attempt, attempt < 1 {
            throw DecodingError.dataCorruptedError(
                forKey: .attempt, in: c, debugDescription: "an attempt is 1 or more, got \(attempt)")
        }
        if let bad = failedVersions.first(where: { $0 < 1 }) {
            throw DecodingError.dataCorruptedError(
                forKey: .failedVersions, in: c, debugDescription: "a failed version is 1 or more, got \(bad)")
        }
    }

    /// Encodes the set fields only, so a marker that says nothing is `{}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(restoredVersion, forKey: .restoredVersion)
        try c.encodeIfPresent(attempt, forKey: .attempt)
        if !failedVersions.isEmpty { try c.encode(failedVersions, forKey: .failedVersions) }
        if acknowledged { try c.encode(true, forKey: .acknowledged) }
    }
}

extension RestoreMarker {
    /// Why no restore could have recorded this marker as version `version` of its session, or
    /// `nil` when one could (<doc:Restore>). What can be recorded:
    /// - `{}`: a marker that says nothing more (what navdb 0.1 wrote, and a marker recorded
    ///   without a restore plan);
    /// - a restore's marker (`restore --mark`): `restoredVersion` and `attempt` (1 or more), and
    ///   either no `failedVersions` with `restoredVersion` 1 or more (the newest state handed
    ///   out), or the failed states: `[h]` with `restoredVersion` before `h` (an acknowledged
    ///   earlier state, or 0 for the base root alone), or `[h, e]`, newest first, with
    ///   `restoredVersion` 0 (the earlier acknowledged state `e` failed too);
    /// - an acknowledgement's marker (`restore --ack` after a fallback): `acknowledged`,
    ///   `restoredVersion` and `failedVersions` as a fallback's above, no `attempt`; the events
    ///   that bring the log to the acknowledged state follow it (the importer checks that).
    ///
    /// Every version it names is before its own: a restore hands out a state the session had.
    /// - Returns: the first problem as a phrase naming the value and what is accepted.
    package func unrecordableProblem(asVersion version: Int) -> String? {
        if self == RestoreMarker() { return nil }
        guard let restored = restoredVersion else {
            return "a marker other than {} names the state it handed out (restoredVersion), found none"
        }
        if restored >= version {
            return
                "restoredVersion \(restored) is not before the marker (version \(version)): a restore hands out a state the session had, 0 (the base root alone) through \(version - 1)"
        }
        if acknowledged {
            if let attempt {
                return "an acknowledged marker (restore --ack) counts no attempt, found attempt \(attempt)"
            }
            if failedVersions.isEmpty {
                return
                    "an acknowledged marker (restore --ack) follows a fallback and names its failed states, found no failedVersions"
            }
        } else if attempt == nil {
            return "a restore's marker names its attempt (1 or more) beside restoredVersion \(restored), found none"
        }
        return failedVersionsProblem(restored: restored, version: version)
    }

    /// ``unrecordableProblem(asVersion:)`` for the failed versions of a marker handing out
    /// `restored`, recorded as `version`.
    private func failedVersionsProblem(restored: Int, version: Int) -> String? {
        let list = "[\(failedVersions.map(String.init).joined(separator: ", "))]"
        guard let newest = failedVersions.first else {
            return restored >= 1
                ? nil
                : "restoredVersion 0 (the base root alone) is a fallback, whose marker names the failed states in failedVersions, found none"
        }
        if failedVersions.count > 2 {
            return
                "failedVersions \(list) names \(failedVersions.count) states; a fallback names at most two: the newest state and the acknowledged one before it"
        }
        if newest >= version {
            return
                "failed version \(newest) is not before the marker (version \(version)): a failed state is one the session had, 1 through \(version - 1)"
        }
        if failedVersions.count == 2 && failedVersions[1] >= newest {
            return "failedVersions \(list) is not newest first: the second is an earlier state than the first"
        }
        if restored >= newest {
            return
                "restoredVersion \(restored) is not before the failed version \(newest): a fallback hands out an earlier state, or 0 (the base root alone)"
        }
        if failedVersions.count == 2 && restored != 0 {
            return
                "failedVersions \(list) says the earlier acknowledged state failed too, so the base root alone is handed out (restoredVersion 0), found restoredVersion \(restored)"
        }
        return nil
    }
}
