import Foundation

extension PlatformGeneration {
    /// The generation an app shows on the system it runs on, from what it can read at launch
    /// (<doc:PlatformGenerations>, "Which generation an app runs under"):
    ///
    /// - a system before iOS 26: ``ios14``;
    /// - an app built with an SDK before 26 keeps the earlier design on iOS 26 and later, since
    ///   UIKit keys the design on the SDK the app was linked with: ``ios14``;
    /// - an app built with the 26 SDK that sets `UIDesignRequiresCompatibility` to `YES` in its
    ///   Info.plist keeps the earlier design: ``ios14``. The key is not honoured once the app is
    ///   built with the 27 SDK or later;
    /// - otherwise ``ios26``.
    ///
    /// - Parameters:
    ///   - systemMajorVersion: the running system's major version (`26` for iOS 26.1).
    ///   - linkedSDKVersion: the version of the SDK the app was built with, as Xcode writes it
    ///     into the Info.plist (`DTPlatformVersion`, `"26.0"`), or `nil` when unknown: then the
    ///     app is taken as built with the system's own SDK.
    ///   - requiresCompatibility: the Info.plist's `UIDesignRequiresCompatibility`.
    /// - Returns: the generation whose rules the app's back buttons follow.
    public static func forApp(
        systemMajorVersion: Int, linkedSDKVersion: String?, requiresCompatibility: Bool
    ) -> PlatformGeneration {
        guard systemMajorVersion >= 26 else { return .ios14 }
        let sdk = linkedSDKVersion.flatMap { Int($0.prefix { $0.isASCII && $0.isNumber }) } ?? systemMajorVersion
        if sdk < 26 { return .ios14 }
        if sdk == 26, requiresCompatibility { return .ios14 }
        return .ios26
    }

    /// ``forApp(systemMajorVersion:linkedSDKVersion:requiresCompatibility:)`` from the running
    /// system's version and the app's Info.plist:
    ///
    /// ```swift
    /// let platform = PlatformGeneration.forApp(
    ///     systemVersion: ProcessInfo.processInfo.operatingSystemVersion, infoDictionary: Bundle.main.infoDictionary)
    /// ```
    ///
    /// Meant for where UIKit runs: iOS and iPadOS, and Mac Catalyst and visionOS, whose version
    /// numbers are below 26 before their releases of 2025 and 26 with them, as iOS's. Elsewhere
    /// (Linux, where the version is the kernel's) the answer is that of an iOS of that number.
    /// - Parameters:
    ///   - systemVersion: `ProcessInfo.processInfo.operatingSystemVersion`.
    ///   - infoDictionary: `Bundle.main.infoDictionary`: its `DTPlatformVersion` (a string) and
    ///     `UIDesignRequiresCompatibility` (a Boolean; absent is `NO`).
    /// - Returns: the generation whose rules the app's back buttons follow.
    public static func forApp(
        systemVersion: OperatingSystemVersion, infoDictionary: [String: Any]?
    ) -> PlatformGeneration {
        forApp(
            systemMajorVersion: systemVersion.majorVersion,
            linkedSDKVersion: infoDictionary?["DTPlatformVersion"] as? String,
            requiresCompatibility: isYes(infoDictionary?["UIDesignRequiresCompatibility"]))
    }

    /// An Info.plist Boolean: `<true/>`, or the string `YES` or `true` (any letter case) as a
    /// hand-edited plist may hold it.
    private static func isYes(_ value: Any?) -> Bool {
        if let flag = value as? Bool { return flag }
        if let text = value as? String { return ["yes", "true", "1"].contains(text.lowercased()) }
        return false
    }
}
