// swift-tools-version: 6.0
// A program that uses swift-att as a package dependency, the way an application does:
// it logs a heart-rate monitor's readings (the central API), can be the monitor itself
// (the peripheral API), and runs both in one process over in-memory controllers.
//
// In your own package, depend on swift-att by its URL instead:
//     .package(url: "https://…/swift-att.git", branch: "main")
// Here it is this repository itself, through Dependencies/swift-att, a link to the
// repository's root: a path dependency takes the last component of its path as the
// package's identity, so the link keeps it "swift-att" wherever the repository is cloned.
import PackageDescription

let package = Package(
    name: "HeartRateLogger",
    dependencies: [
        .package(path: "Dependencies/swift-att"),
    ],
    targets: [
        .executableTarget(
            name: "heart-rate-logger",
            dependencies: [
                .product(name: "SwiftATT", package: "swift-att"),
                .product(name: "SwiftATTLoopback", package: "swift-att"),
                .product(name: "SwiftATTProfiles", package: "swift-att"),
            ],
            path: "Sources/HeartRateLogger"
        ),
        // The Swift examples of README.md and Documentation/*.md, each verbatim in a program of
        // its own, so that they compile against the API as it is (Examples/check-readme-snippets.py
        // checks that the documentation still says exactly this). Built, never run: they need a real adapter.
        .executableTarget(name: "ReadmeATTCodec", dependencies: [.product(name: "SwiftATTPDU", package: "swift-att")],
                          path: "ReadmeExamples/ReadmeATTCodec"),
        .executableTarget(name: "ReadmeServingGATT", dependencies: [.product(name: "SwiftATT", package: "swift-att")],
                          path: "ReadmeExamples/ReadmeServingGATT"),
        .executableTarget(name: "ReadmeCentral",
                          dependencies: [.product(name: "SwiftATT", package: "swift-att"),
                                         .product(name: "SwiftATTProfiles", package: "swift-att")],
                          path: "ReadmeExamples/ReadmeCentral"),
        .executableTarget(name: "ReadmeSharedLoop", dependencies: [.product(name: "SwiftATT", package: "swift-att")],
                          path: "ReadmeExamples/ReadmeSharedLoop"),
        .executableTarget(name: "ReadmePairing", dependencies: [.product(name: "SwiftATT", package: "swift-att")],
                          path: "ReadmeExamples/ReadmePairing"),
        .executableTarget(name: "ReadmeLoopback",
                          dependencies: [.product(name: "SwiftATT", package: "swift-att"),
                                         .product(name: "SwiftATTLoopback", package: "swift-att")],
                          path: "ReadmeExamples/ReadmeLoopback"),
        .executableTarget(name: "ReadmeChannels", dependencies: [.product(name: "SwiftATT", package: "swift-att")],
                          path: "ReadmeExamples/ReadmeChannels"),
        .executableTarget(name: "ReadmeEnhancedATT", dependencies: [.product(name: "SwiftATT", package: "swift-att")],
                          path: "ReadmeExamples/ReadmeEnhancedATT"),
        .executableTarget(name: "ReadmeBondFile",
                          dependencies: [.product(name: "SwiftATT", package: "swift-att"),
                                         .product(name: "SwiftATTBondFile", package: "swift-att")],
                          path: "ReadmeExamples/ReadmeBondFile"),
    ],
    swiftLanguageModes: [.v6]
)
