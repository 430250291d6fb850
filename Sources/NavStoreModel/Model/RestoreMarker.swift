/// What a `session.restored` marker records about the restart it marks (<doc:Restore>): which state
/// the app was handed, and why it was an earlier one. The marker changes no state: the log's state
/// at a marker is still the one its last navigation event produced, which is the state the app
/// shows only when no fallback was handed out (``failedVersions`` empty). After a fallback, the log
/// is brought in line with what the app shows by `restore --ack`, which appends its own marker
/// (``acknowledged``) followed by the events that lead there.
///
/// Payload shape: `{"restoredVersion": Int, "attempt": Int, "failedVersions": [Int],
/// "acknowledged": true}`, each key left out when unset (`nil`, empty, `false`); markers written
/// before these fields existed are `{}`.
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
