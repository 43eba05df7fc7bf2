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
        .library(name: "Advertising", targets: ["Advertising"]),
        .executable(name: "swift-att", targets: ["swift-att"]),
        .executable(name: "swift-att-benchmarks", targets: ["ATTBenchmarks"]),
        .executable(name: "swift-att-host-benchmarks", targets: ["HostBenchmarks"]),
        .executable(name: "swift-att-soak", targets: ["Soak"]),
    ],
    targets: [
        // Codec layers: the Swift standard library only.
        .target(name: "BluetoothCore"),
        .target(name: "ATT", dependencies: ["BluetoothCore"]),
        // The JSON form of ATT PDUs (Fixtures/att/README.md): the standard library only.
        .target(name: "ATTJSON", dependencies: ["ATT", "BluetoothCore"]),
        .target(name: "HCI", dependencies: ["BluetoothCore"]),
        .target(name: "Advertising", dependencies: ["BluetoothCore"]),

        // Transports: byte pipes to a controller. libbluetooth (libbluetooth-dev) for hci0.
        .systemLibrary(
            name: "CBluetooth",
            providers: [.apt(["libbluetooth-dev"])]
        ),
        .target(name: "Transport", dependencies: ["BluetoothCore", "HCI", "CBluetooth"]),
        // Emulated controllers joined in memory: a fast end-to-end fixture and the host
        // benchmark's link (README: "Testing without Bumble").
        .target(name: "LoopbackController", dependencies: ["BluetoothCore", "HCI", "Transport"]),

        // Protocol layers above the codecs.
        .target(name: "L2CAP", dependencies: ["BluetoothCore", "HCI"]),
        .target(name: "GATT", dependencies: ["BluetoothCore", "ATT"]),
        .target(name: "Host", dependencies: ["BluetoothCore", "HCI", "L2CAP", "Transport", "ATT", "GATT", "Advertising"]),
        // The seeds' profiles (heart rate, transfer, HC-08, light shield): databases,
        // advertising and value codecs. The standard library only.
        .target(name: "Profiles", dependencies: ["BluetoothCore", "ATT", "GATT", "Advertising"]),
        // A GATT database described in a JSON file (README: "A GATT database in JSON").
        .target(name: "DatabaseFile", dependencies: ["BluetoothCore", "ATT", "ATTJSON", "GATT"]),

        // The command-line tool: the only place that formats for humans.
        .executableTarget(
            name: "swift-att",
            dependencies: ["BluetoothCore", "ATT", "ATTJSON", "HCI", "L2CAP", "Transport", "Host", "Advertising", "GATT", "Profiles", "DatabaseFile"]
        ),

        // Benchmarks: release-built executables that print tables.
        .target(
            name: "BenchmarkSupport", path: "Benchmarks/BenchmarkSupport",
            linkerSettings: [.linkedLibrary("m")]
        ),
        .target(name: "BenchmarkTables", path: "Benchmarks/BenchmarkTables"),
        .executableTarget(
            name: "ATTBenchmarks",
            dependencies: ["BluetoothCore", "ATT", "BenchmarkSupport", "BenchmarkTables", "BenchSupport", "HeapProbe"],
            path: "Benchmarks/ATTBenchmarks"
        ),
        // Two swift-att hosts over the loopback link, Bumble's hosts, and Bumble's controllers.
        .executableTarget(
            name: "HostBenchmarks",
            dependencies: ["BluetoothCore", "HCI", "L2CAP", "Transport", "GATT", "Host", "Advertising",
                           "LoopbackController", "BenchmarkTables", "BenchSupport"],
            path: "Benchmarks/HostBenchmarks"
        ),

        // One side of the eight-link soak (Tests/soak/soak.sh).
        .executableTarget(
            name: "Soak", dependencies: ["BluetoothCore", "GATT", "Host", "Transport", "Advertising", "HeapProbe"], path: "Tests/Soak"
        ),

        .testTarget(name: "BluetoothCoreTests", dependencies: ["BluetoothCore"]),
        .testTarget(name: "AdvertisingTests", dependencies: ["Advertising", "BluetoothCore"]),
        .testTarget(
            name: "ATTTests",
            dependencies: ["ATT", "ATTJSON", "BluetoothCore", "HeapProbe"]
        ),
        // Allocations per thread (an interposed malloc) for ATTTests' zero-allocation checks
        // and the ATT benchmark's allocs/op; glibc's mallinfo2() for the soak.
        .target(name: "HeapProbe", path: "Tests/HeapProbe"),
        .target(name: "PseudoTerminal", path: "Tests/PseudoTerminal"),
        // Starts Bumble's virtual controllers and Bumble peers for tests (Tests/bench).
        .target(name: "BenchSupport", path: "Tests/BenchSupport"),
        .testTarget(name: "TransportTests", dependencies: ["Transport", "HCI", "CBluetooth", "PseudoTerminal"]),
        .testTarget(name: "L2CAPTests", dependencies: ["L2CAP", "HCI"]),
        .testTarget(
            name: "LoopbackControllerTests",
            dependencies: ["LoopbackController", "Host", "HCI", "Transport", "GATT", "ATT", "BluetoothCore", "Advertising"]
        ),
        .testTarget(name: "GATTTests", dependencies: ["GATT", "ATT", "BluetoothCore"]),
        // Faults end to end over the loopback link: hardware errors, hostile peers.
        .testTarget(
            name: "HostFaultTests",
            dependencies: ["LoopbackController", "Host", "HCI", "L2CAP", "Transport", "GATT", "ATT", "BluetoothCore", "Advertising", "BenchSupport"]
        ),
        .testTarget(name: "ProfilesTests", dependencies: ["Profiles", "GATT", "ATT", "Advertising", "BluetoothCore"]),
        .testTarget(name: "HCIFlowTests", dependencies: ["HCI"]),
        .testTarget(name: "DatabaseFileTests", dependencies: ["DatabaseFile", "GATT", "ATT", "BluetoothCore"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["BluetoothCore", "HCI", "Host", "Transport", "Advertising", "BenchSupport", "GATT", "ATT", "Profiles"]
        ),
        .testTarget(
            name: "CaptureTests",
            dependencies: ["ATT", "HCI", "L2CAP"]
        ),
        .testTarget(name: "ATTJSONTests", dependencies: ["ATTJSON", "ATT", "BluetoothCore"]),
        .testTarget(name: "HCITests", dependencies: ["HCI", "BluetoothCore"]),
        // The soak's value format and receiver check (Tests/Soak).
        .testTarget(name: "SoakTests", dependencies: ["Soak"]),
        // Runs the built swift-att binary as a subprocess.
        .testTarget(name: "CommandLineTests", dependencies: ["swift-att", "BenchSupport", "PseudoTerminal"]),
    ],
    swiftLanguageModes: [.v6]
)
