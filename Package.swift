// swift-tools-version: 6.0
// swift-att: a Bluetooth Low Energy host stack in pure Swift for Linux.
// One target per protocol layer; a layer imports only the layers below it.
import PackageDescription

let package = Package(
    name: "swift-att",
    products: [
        .library(name: "BluetoothCore", targets: ["BluetoothCore"]),
        .library(name: "ATT", targets: ["ATT"]),
        .library(name: "ATTJSON", targets: ["ATTJSON"]),
        .library(name: "HCI", targets: ["HCI"]),
        .executable(name: "swift-att", targets: ["swift-att"]),
        .executable(name: "swift-att-benchmarks", targets: ["ATTBenchmarks"]),
    ],
    targets: [
        // Codec layers: the Swift standard library only.
        .target(name: "BluetoothCore"),
        .target(name: "ATT", dependencies: ["BluetoothCore"]),
        // The JSON form of ATT PDUs (Fixtures/att/README.md): the standard library only.
        .target(name: "ATTJSON", dependencies: ["ATT", "BluetoothCore"]),
        .target(name: "HCI", dependencies: ["BluetoothCore"]),

        // Protocol layers above the codecs.
        .target(name: "L2CAP", dependencies: ["BluetoothCore", "HCI"]),

        // The command-line tool: the only place that formats for humans.
        .executableTarget(
            name: "swift-att",
            dependencies: ["BluetoothCore", "ATT", "ATTJSON"]
        ),

        // Benchmarks: release-built executables that print tables.
        .target(
            name: "BenchmarkSupport", path: "Benchmarks/BenchmarkSupport",
            linkerSettings: [.linkedLibrary("m")]
        ),
        .executableTarget(
            name: "ATTBenchmarks",
            dependencies: ["BluetoothCore", "ATT", "BenchmarkSupport"],
            path: "Benchmarks/ATTBenchmarks"
        ),

        .testTarget(name: "BluetoothCoreTests", dependencies: ["BluetoothCore"]),
        .testTarget(
            name: "ATTTests",
            dependencies: ["ATT", "BluetoothCore"]
        ),
        .testTarget(
            name: "CaptureTests",
            dependencies: ["ATT", "HCI", "L2CAP"]
        ),
        .testTarget(name: "ATTJSONTests", dependencies: ["ATTJSON", "ATT", "BluetoothCore"]),
        // Runs the built swift-att binary as a subprocess.
        .testTarget(name: "CommandLineTests", dependencies: ["swift-att"]),
    ],
    swiftLanguageModes: [.v6]
)
