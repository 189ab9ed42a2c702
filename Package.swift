// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "StudyKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Research", targets: ["Research"]),
        .executable(name: "studykit", targets: ["studykit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "Research"),
        .executableTarget(
            name: "studykit",
            dependencies: [
                "Research",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ResearchTests", dependencies: ["Research"]),
        .testTarget(name: "StudykitCLITests", dependencies: ["studykit"]),
    ],
    swiftLanguageModes: [.v6]
)
