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
        .target(name: "Research"),
        .target(name: "CareStore"),
        .target(
            name: "CareStoreSQLite",
            dependencies: ["CareStore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .executableTarget(
            name: "studykit",
            dependencies: [
                "Research",
                "CareStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ResearchTests", dependencies: ["Research"]),
        .testTarget(name: "CareStoreTests", dependencies: ["CareStore"]),
        .testTarget(name: "StudykitCLITests", dependencies: ["studykit"]),
    ],
    swiftLanguageModes: [.v6]
)
