// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "NavStore",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .visionOS(.v2)],
    products: [
        .library(name: "NavStore", targets: ["NavStore"]),
        .executable(name: "navdb", targets: ["navdb"]),
        .executable(name: "navdb-bench", targets: ["navdb-bench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // libpq's headers only: NavStore loads libpq.so.5 at run time (see Sources/CLibPQ/shim.h).
        .systemLibrary(
            name: "CLibPQ",
            path: "Sources/CLibPQ",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .target(
            name: "NavStore",
            dependencies: ["CSQLite", "CLibPQ"],
            resources: [.embedInCode("Migrations")]
        ),
        .executableTarget(name: "navdb", dependencies: ["NavStore"]),
        .executableTarget(name: "navdb-bench", dependencies: ["NavStore", "CSQLite", "CLibPQ"]),
        .target(name: "TestSupport", dependencies: ["NavStore"], path: "Tests/TestSupport"),
        .testTarget(name: "NavStoreTests", dependencies: ["NavStore", "TestSupport"]),
        .testTarget(name: "navdbTests", dependencies: ["NavStore", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
