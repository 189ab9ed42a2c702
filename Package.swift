// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "StudyKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Research", targets: ["Research"]),
        .library(name: "CareStore", targets: ["CareStore"]),
        .executable(name: "studykit", targets: ["studykit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "Research"),
        .target(name: "CareStore"),
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
