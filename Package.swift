// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "StudyKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Research", targets: ["Research"]),
        .library(name: "CareStore", targets: ["CareStore"]),
        .library(name: "CareStoreSQLite", targets: ["CareStoreSQLite"]),
        .executable(name: "studykit", targets: ["studykit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(name: "JSONDiagnostics"),
        .target(name: "Research", dependencies: ["JSONDiagnostics"]),
        .target(name: "CareStore", dependencies: ["JSONDiagnostics"]),
        .target(
            name: "CareStoreSQLite",
            dependencies: ["CareStore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // A child process for the durability test: writes outcomes until it is killed. Not a product.
        .executableTarget(name: "CareStoreSQLiteCrashWriter", dependencies: ["CareStore", "CareStoreSQLite"]),
        .executableTarget(
            name: "studykit",
            dependencies: [
                "Research",
                "CareStore",
                "CareStoreSQLite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ResearchTests", dependencies: ["Research"]),
        .testTarget(name: "CareStoreTests", dependencies: ["CareStore", "CareStoreSQLite", "JSONDiagnostics"]),
        .testTarget(name: "StudykitCLITests", dependencies: ["studykit"]),
        .testTarget(
            name: "CareStoreSQLiteTests",
            dependencies: ["CareStore", "CareStoreSQLite", "CareStoreSQLiteCrashWriter", .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
