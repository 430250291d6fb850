// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "NavStore",
    // NavStore is an app's dependency: nothing in it needs an API newer than these (docs/app.md).
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .visionOS(.v1)],
    products: [
        // What an app embeds: the model, the SQLite store, restore, time travel, lint. It depends
        // on CSQLite and the toolchain alone.
        .library(name: "NavStore", targets: ["NavStore"]),
        // The PostgreSQL backend, for tools that share one database between many writers.
        .library(name: "NavStorePostgreSQL", targets: ["NavStorePostgreSQL"]),
        .executable(name: "navdb", targets: ["navdb"]),
        .executable(name: "navdb-bench", targets: ["navdb-bench"]),
    ],
    targets: [
        // The system's SQLite: its header from the SDK on Apple platforms, /usr/include on Linux
        // (libsqlite3-dev). No pkg-config: a `sqlite3.pc` found on a Mac (Homebrew's) would put
        // that SQLite's flags into an iOS build.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // libpq's headers only: NavStorePostgreSQL loads libpq.so.5 at run time (see Sources/CLibPQ/shim.h).
        .systemLibrary(
            name: "CLibPQ",
            path: "Sources/CLibPQ",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        // The SQL of Migrations/ reaches it as Swift source (scripts/generate-migrations.sh).
        // PrivacyInfo.xcprivacy is its privacy manifest, which Apple's tools read from the
        // target's resource bundle in an app (README, "NavStore in an app").
        .target(name: "NavStore", dependencies: ["CSQLite"], resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(name: "NavStorePostgreSQL", dependencies: ["NavStore", "CLibPQ"]),
        .executableTarget(name: "navdb", dependencies: ["NavStore", "NavStorePostgreSQL"]),
        .executableTarget(name: "navdb-bench", dependencies: ["NavStore", "NavStorePostgreSQL", "CSQLite"]),
        .target(
            name: "TestSupport", dependencies: ["NavStore", "NavStorePostgreSQL"], path: "Tests/TestSupport"),
        .testTarget(name: "NavStoreTests", dependencies: ["NavStore", "NavStorePostgreSQL", "TestSupport"]),
        .testTarget(name: "navdbTests", dependencies: ["NavStore", "NavStorePostgreSQL", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
