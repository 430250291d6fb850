import Foundation
import NavStore
import NavStoreTools
import Testing

/// NavStore.docc/PlatformGenerations.md, "Which generation an app runs under": each row of the
/// article's table, and the Info.plist values as an app reads them.
@Suite("The generation an app runs under")
struct PlatformForAppTests {
    @Test(
        "each row of the article's table",
        arguments: [
            (18, "18.5", false, PlatformGeneration.ios14),
            (18, "26.0", true, .ios14),
            (25, nil, false, .ios14),
            (26, "18.0", false, .ios14),
            (26, "18.0", true, .ios14),
            (27, "18.4", false, .ios14),
            (26, "26.0", true, .ios14),
            (26, "26.1", true, .ios14),
            (26, "26.0", false, .ios26),
            (26, nil, false, .ios26),
            (26, nil, true, .ios14),
            (27, "27.0", true, .ios26),
            (28, "27.2", false, .ios26),
            (27, nil, true, .ios26),
        ] as [(Int, String?, Bool, PlatformGeneration)])
    func table(system: Int, sdk: String?, compatibility: Bool, expected: PlatformGeneration) {
        #expect(
            PlatformGeneration.forApp(
                systemMajorVersion: system, linkedSDKVersion: sdk, requiresCompatibility: compatibility)
                == expected)
    }

    @Test("an SDK version that is not a number counts as unknown: the system's own")
    func oddSDK() {
        for sdk in ["", "beta", "🧭26", "９９"] {
            #expect(
                PlatformGeneration.forApp(systemMajorVersion: 26, linkedSDKVersion: sdk, requiresCompatibility: false)
                    == .ios26)
            #expect(
                PlatformGeneration.forApp(systemMajorVersion: 18, linkedSDKVersion: sdk, requiresCompatibility: false)
                    == .ios14)
        }
    }

    @Test("from ProcessInfo's version and an Info.plist: Boolean or string flags, the SDK key")
    func infoDictionary() {
        let ios26 = OperatingSystemVersion(majorVersion: 26, minorVersion: 1, patchVersion: 0)
        let ios18 = OperatingSystemVersion(majorVersion: 18, minorVersion: 6, patchVersion: 2)
        let cases: [([String: Any]?, OperatingSystemVersion, PlatformGeneration)] = [
            (nil, ios26, .ios26),
            ([:], ios26, .ios26),
            (["DTPlatformVersion": "26.0"], ios26, .ios26),
            (["DTPlatformVersion": "26.0", "UIDesignRequiresCompatibility": true], ios26, .ios14),
            (["DTPlatformVersion": "26.0", "UIDesignRequiresCompatibility": false], ios26, .ios26),
            (["DTPlatformVersion": "26.0", "UIDesignRequiresCompatibility": "YES"], ios26, .ios14),
            (["DTPlatformVersion": "26.0", "UIDesignRequiresCompatibility": "no"], ios26, .ios26),
            (["DTPlatformVersion": "18.2"], ios26, .ios14),
            (["DTPlatformVersion": 26], ios26, .ios26),  // not a string: unknown
            (["DTPlatformVersion": "27.0", "UIDesignRequiresCompatibility": true], ios26, .ios26),
            (["DTPlatformVersion": "26.0"], ios18, .ios14),
        ]
        for (info, system, expected) in cases {
            #expect(
                PlatformGeneration.forApp(systemVersion: system, infoDictionary: info) == expected,
                "\(String(describing: info)) on \(system.majorVersion)")
        }
    }

    @Test("the article's call compiles and runs here (a Linux kernel's version is below 26)")
    func articleCall() {
        let platform = PlatformGeneration.forApp(
            systemVersion: ProcessInfo.processInfo.operatingSystemVersion, infoDictionary: Bundle.main.infoDictionary)
        #if os(Linux)
            #expect(ProcessInfo.processInfo.operatingSystemVersion.majorVersion < 26)
            #expect(platform == .ios14)
        #else
            #expect(PlatformGeneration.allCases.contains(platform))
        #endif
    }
}
