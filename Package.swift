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
        .target(
            name: "NavStore", dependencies: ["NavStoreModel", "CSQLite"], resources: [.copy("PrivacyInfo.xcprivacy")]),
        // UIKit's navigation rules alone: values, events, the reducer, the observer, lint's rules,
        // the events' stored JSON. No SQLite, no store: NavStore re-exports it.
        .target(name: "NavStoreModel"),
        // What navdb does beyond an app's needs: import and export, the HTML report, retention,
        // rebuild and check. Not in the NavStore product.
        .target(name: "NavStoreTools", dependencies: ["NavStore"]),
        .target(name: "NavStorePostgreSQL", dependencies: ["NavStore", "CLibPQ"]),
        .executableTarget(name: "navdb", dependencies: ["NavStoreTools", "NavStorePostgreSQL"]),
        .executableTarget(
            name: "navdb-bench", dependencies: ["NavStoreTools", "NavStorePostgreSQL", "CSQLite"]),
        .target(
            name: "TestSupport", dependencies: ["NavStoreTools", "NavStorePostgreSQL"], path: "Tests/TestSupport"),
        .testTarget(
            name: "NavStoreTests", dependencies: ["NavStoreModel", "NavStoreTools", "NavStorePostgreSQL", "TestSupport"]),
        .testTarget(
            name: "navdbTests", dependencies: ["NavStoreModel", "NavStoreTools", "NavStorePostgreSQL", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
