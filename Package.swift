// swift-tools-version: 6.0
// swift-att: a Bluetooth Low Energy host stack in pure Swift for Linux.
// One target per protocol layer; a layer imports only the layers below it.
//
// Every module another package can see is named SwiftATT<Layer> (README: "Using swift-att
// from your package"), so none collides with a dependency's own `HCI`, `GATT` or
// `Transport`; their tests are SwiftATT<Layer>Tests. `SwiftATT` gathers the whole host
// API behind one import.
import PackageDescription

let package = Package(
    name: "swift-att",
    products: [
        // The whole stack behind one import: central, peripheral, GATT, transports.
        .library(name: "SwiftATT", targets: ["SwiftATT"]),
        // Each layer on its own, for tools that need only part of it.
        .library(name: "SwiftATTCore", targets: ["SwiftATTCore"]),
        .library(name: "SwiftATTPDU", targets: ["SwiftATTPDU"]),
        .library(name: "SwiftATTJSON", targets: ["SwiftATTJSON"]),
        .library(name: "SwiftATTPDUJSON", targets: ["SwiftATTPDUJSON"]),
        .library(name: "SwiftATTSMP", targets: ["SwiftATTSMP"]),
        .library(name: "SwiftATTHCI", targets: ["SwiftATTHCI"]),
        .library(name: "SwiftATTAdvertising", targets: ["SwiftATTAdvertising"]),
        .library(name: "SwiftATTTransport", targets: ["SwiftATTTransport"]),
        .library(name: "SwiftATTL2CAP", targets: ["SwiftATTL2CAP"]),
        .library(name: "SwiftATTCrypto", targets: ["SwiftATTCrypto"]),
        .library(name: "SwiftATTGATT", targets: ["SwiftATTGATT"]),
        .library(name: "SwiftATTSecurity", targets: ["SwiftATTSecurity"]),
        .library(name: "SwiftATTHost", targets: ["SwiftATTHost"]),
        .library(name: "SwiftATTLoopback", targets: ["SwiftATTLoopback"]),
        .library(name: "SwiftATTProfiles", targets: ["SwiftATTProfiles"]),
        .library(name: "SwiftATTDatabaseFile", targets: ["SwiftATTDatabaseFile"]),
        .library(name: "SwiftATTBondFile", targets: ["SwiftATTBondFile"]),
        .executable(name: "swift-att", targets: ["swift-att"]),
        .executable(name: "swift-att-benchmarks", targets: ["ATTBenchmarks"]),
        .executable(name: "swift-att-host-benchmarks", targets: ["HostBenchmarks"]),
        .executable(name: "swift-att-soak", targets: ["Soak"]),
    ],
    targets: [
        // Codec layers: the Swift standard library only.
        .target(name: "SwiftATTCore"),
        .target(name: "SwiftATTPDU", dependencies: ["SwiftATTCore"]),
        // The Security Manager Protocol's PDUs (Core 5.4 Vol 3 Part H §3): the standard library only.
        .target(name: "SwiftATTSMP", dependencies: ["SwiftATTCore"]),
        // A strict JSON parser and serializer (RFC 8259): the standard library only.
        .target(name: "SwiftATTJSON"),
        // The JSON form of ATT PDUs (Fixtures/att/README.md): the standard library only.
        .target(name: "SwiftATTPDUJSON", dependencies: ["SwiftATTJSON", "SwiftATTPDU", "SwiftATTCore"]),
        .target(name: "SwiftATTHCI", dependencies: ["SwiftATTCore"]),
        .target(name: "SwiftATTAdvertising", dependencies: ["SwiftATTCore"]),

        // Transports: byte pipes to a controller. libbluetooth (libbluetooth-dev) for hci0.
        .systemLibrary(
            name: "CSwiftATTBluetooth",
            providers: [.apt(["libbluetooth-dev"])]
        ),
        .target(name: "SwiftATTTransport", dependencies: ["SwiftATTCore", "SwiftATTHCI", "CSwiftATTBluetooth"]),
        // Emulated controllers joined in memory: a fast end-to-end fixture, the host
        // benchmark's link, and a controller for an application's own tests (README:
        // "Testing without Bumble").
        .target(name: "SwiftATTLoopback", dependencies: ["SwiftATTCore", "SwiftATTHCI", "SwiftATTTransport", "SwiftATTCrypto"]),

        // The security functions on OpenSSL 3's libcrypto (libssl-dev): AES-128, AES-CMAC,
        // P-256 ECDH with public-key validation, secure random numbers, and the Security
        // Manager's e, ah, c1, s1, f4, f5, f6, g2, h6, h7. The project's one AES.
        .systemLibrary(
            name: "CSwiftATTCrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "SwiftATTCrypto", dependencies: ["SwiftATTCore", "CSwiftATTCrypto"]),

        // Line editing, history and completion for `swift-att central shell`: libedit
        // (libedit-dev), the BSD line editor, used by the command-line tool only.
        .systemLibrary(
            name: "CSwiftATTEdit",
            providers: [.apt(["libedit-dev"])]
        ),

        // Protocol layers above the codecs.
        .target(name: "SwiftATTL2CAP", dependencies: ["SwiftATTCore", "SwiftATTHCI"]),
        // AES-CMAC for the Database Hash comes from SwiftATTCrypto.
        .target(name: "SwiftATTGATT", dependencies: ["SwiftATTCore", "SwiftATTPDU", "SwiftATTCrypto"]),
        // The Security Manager (Core 5.4 Vol 3 Part H): pairing as a pure state machine fed
        // SMP PDUs and link events, bonds, resolvable private addresses.
        .target(name: "SwiftATTSecurity", dependencies: ["SwiftATTCore", "SwiftATTSMP", "SwiftATTCrypto"]),
        .target(
            name: "SwiftATTHost",
            dependencies: ["SwiftATTCore", "SwiftATTHCI", "SwiftATTL2CAP", "SwiftATTTransport", "SwiftATTPDU",
                           "SwiftATTGATT", "SwiftATTAdvertising", "SwiftATTCrypto", "SwiftATTSMP", "SwiftATTSecurity"]
        ),
        .target(
            name: "SwiftATT",
            dependencies: ["SwiftATTCore", "SwiftATTPDU", "SwiftATTHCI", "SwiftATTAdvertising", "SwiftATTTransport",
                           "SwiftATTL2CAP", "SwiftATTGATT", "SwiftATTSMP", "SwiftATTSecurity", "SwiftATTHost"]
        ),
        // The seeds' profiles (heart rate, transfer, HC-08, light shield): databases,
        // advertising and value codecs. The standard library only.
        .target(name: "SwiftATTProfiles", dependencies: ["SwiftATTCore", "SwiftATTPDU", "SwiftATTGATT", "SwiftATTAdvertising"]),
        // A GATT database described in a JSON file (README: "A GATT database in JSON").
        .target(name: "SwiftATTDatabaseFile", dependencies: ["SwiftATTCore", "SwiftATTPDU", "SwiftATTJSON", "SwiftATTGATT"]),
        // A host's identities and bonds in a JSON file, kept from run to run (README:
        // "Bonds that last"): the host's SecurityStorage on the file system.
        .target(
            name: "SwiftATTBondFile",
            dependencies: ["SwiftATTCore", "SwiftATTJSON", "SwiftATTCrypto", "SwiftATTSecurity", "SwiftATTTransport",
                           "SwiftATTGATT", "SwiftATTHost"]
        ),

        // The command-line tool: the only place that formats for humans.
        .executableTarget(
            name: "swift-att",
            dependencies: ["SwiftATTCore", "SwiftATTPDU", "SwiftATTJSON", "SwiftATTPDUJSON", "SwiftATTHCI", "SwiftATTL2CAP",
                           "SwiftATTTransport", "SwiftATTHost", "SwiftATTAdvertising", "SwiftATTGATT",
                           "SwiftATTProfiles", "SwiftATTDatabaseFile", "SwiftATTBondFile", "SwiftATTSecurity",
                           "CSwiftATTEdit"]
        ),

        // Benchmarks: release-built executables that print tables.
        .target(
            name: "BenchmarkSupport", path: "Benchmarks/BenchmarkSupport",
            linkerSettings: [.linkedLibrary("m")]
        ),
        .target(name: "BenchmarkTables", path: "Benchmarks/BenchmarkTables"),
        .executableTarget(
            name: "ATTBenchmarks",
            dependencies: ["SwiftATTCore", "SwiftATTPDU", "SwiftATTL2CAP", "BenchmarkSupport", "BenchmarkTables", "BenchSupport",
                           "TestSupport", "HeapProbe"],
            path: "Benchmarks/ATTBenchmarks"
        ),
        // Two swift-att hosts over the loopback link, Bumble's hosts, and Bumble's controllers;
        // notifications, and pairing (with the Security Manager's sessions on their own).
        .executableTarget(
            name: "HostBenchmarks",
            dependencies: ["SwiftATTCore", "SwiftATTPDU", "SwiftATTHCI", "SwiftATTL2CAP", "SwiftATTTransport", "SwiftATTGATT",
                           "SwiftATTHost", "SwiftATTAdvertising", "SwiftATTLoopback", "SwiftATTSMP", "SwiftATTSecurity",
                           "SwiftATTCrypto", "BenchmarkTables", "BenchSupport", "TestSupport", "HeapProbe"],
            path: "Benchmarks/HostBenchmarks"
        ),

        // One side of the eight-link soak (Tests/soak/soak.sh).
        .executableTarget(
            name: "Soak",
            dependencies: ["SwiftATTCore", "SwiftATTGATT", "SwiftATTHost", "SwiftATTTransport", "SwiftATTAdvertising", "HeapProbe"],
            path: "Tests/Soak"
        ),

        // Test support, never built by a package that depends on swift-att.
        // Allocations per thread (an interposed malloc) for the PDU tests' zero-allocation
        // checks, the ATT benchmark's allocs/op and the host benchmark's allocations per
        // notification; glibc's mallinfo2() for the soak.
        .target(name: "HeapProbe", path: "Tests/HeapProbe"),
        .target(name: "PseudoTerminal", path: "Tests/PseudoTerminal", linkerSettings: [.linkedLibrary("util")]),
        // What many test targets share, written once: the seeded generator (SplitMix64),
        // Fixtures/ and the repository found from #filePath, the fixtures' JSON values, and
        // bounded waits. Foundation only, so the codec tests take it without the bench.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Starts Bumble's virtual controllers and Bumble peers for tests (Tests/bench).
        .target(name: "BenchSupport", dependencies: ["TestSupport"], path: "Tests/BenchSupport"),

        // One test target per layer.
        .testTarget(name: "SwiftATTCoreTests", dependencies: ["SwiftATTCore"]),
        .testTarget(name: "SwiftATTAdvertisingTests", dependencies: ["SwiftATTAdvertising", "SwiftATTCore", "TestSupport"]),
        .testTarget(name: "SwiftATTPDUTests", dependencies: ["SwiftATTPDU", "SwiftATTPDUJSON", "SwiftATTCore", "HeapProbe", "TestSupport"]),
        .testTarget(name: "SwiftATTJSONTests", dependencies: ["SwiftATTJSON", "TestSupport"]),
        .testTarget(
            name: "SwiftATTSMPTests",
            dependencies: ["SwiftATTSMP", "SwiftATTCore", "SwiftATTHCI", "SwiftATTL2CAP", "TestSupport"]
        ),
        .testTarget(name: "SwiftATTSecurityTests", dependencies: ["SwiftATTSecurity", "SwiftATTSMP", "SwiftATTCrypto", "SwiftATTCore"]),
        .testTarget(name: "SwiftATTPDUJSONTests", dependencies: ["SwiftATTPDUJSON", "SwiftATTPDU", "SwiftATTCore", "TestSupport"]),
        .testTarget(name: "SwiftATTHCITests", dependencies: ["SwiftATTHCI", "SwiftATTCore", "TestSupport"]),
        .testTarget(
            name: "SwiftATTTransportTests",
            dependencies: ["SwiftATTTransport", "SwiftATTHCI", "CSwiftATTBluetooth", "PseudoTerminal"]
        ),
        .testTarget(name: "SwiftATTL2CAPTests", dependencies: ["SwiftATTL2CAP", "SwiftATTHCI", "TestSupport"]),
        // CrossCheckTests runs crosscheck.py in the bench's Python (Tests/bench/setup.sh).
        .testTarget(
            name: "SwiftATTCryptoTests",
            dependencies: ["SwiftATTCrypto", "SwiftATTCore", "TestSupport", "BenchSupport"],
            exclude: ["crosscheck.py"]
        ),
        .testTarget(
            name: "SwiftATTGATTTests",
            dependencies: ["SwiftATTGATT", "SwiftATTCrypto", "SwiftATTPDU", "SwiftATTCore", "TestSupport"]
        ),
        .testTarget(
            name: "SwiftATTLoopbackTests",
            dependencies: ["SwiftATTLoopback", "SwiftATTHost", "SwiftATTHCI", "SwiftATTTransport", "SwiftATTGATT",
                           "SwiftATTPDU", "SwiftATTCore", "SwiftATTAdvertising", "SwiftATTSMP", "SwiftATTSecurity",
                           "SwiftATTBondFile", "TestSupport"]
        ),
        .testTarget(
            name: "SwiftATTProfilesTests",
            dependencies: ["SwiftATTProfiles", "SwiftATTGATT", "SwiftATTPDU", "SwiftATTAdvertising", "SwiftATTCore"]
        ),
        .testTarget(
            name: "SwiftATTBondFileTests",
            dependencies: ["SwiftATTBondFile", "SwiftATTHost", "SwiftATTSecurity", "SwiftATTGATT", "SwiftATTJSON", "SwiftATTCore",
                           "SwiftATTTransport", "TestSupport"]
        ),
        .testTarget(
            name: "SwiftATTDatabaseFileTests",
            dependencies: ["SwiftATTDatabaseFile", "SwiftATTGATT", "SwiftATTPDU", "SwiftATTCore", "TestSupport"]
        ),

        // Suites across layers.
        // Faults end to end over the loopback link: hardware errors, hostile peers.
        .testTarget(
            name: "HostFaultTests",
            dependencies: ["SwiftATTLoopback", "SwiftATTHost", "SwiftATTHCI", "SwiftATTL2CAP", "SwiftATTTransport",
                           "SwiftATTGATT", "SwiftATTPDU", "SwiftATTCore", "SwiftATTAdvertising", "TestSupport"]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["SwiftATTCore", "SwiftATTHCI", "SwiftATTHost", "SwiftATTTransport", "SwiftATTAdvertising",
                           "BenchSupport", "TestSupport", "SwiftATTGATT", "SwiftATTPDU", "SwiftATTProfiles",
                           "SwiftATTSMP", "SwiftATTSecurity"]
        ),
        .testTarget(name: "CaptureTests", dependencies: ["SwiftATTPDU", "SwiftATTHCI", "SwiftATTL2CAP", "TestSupport"]),
        // The soak's value format and receiver check (Tests/Soak).
        .testTarget(name: "SoakTests", dependencies: ["Soak"]),
        // Runs the built swift-att binary as a subprocess.
        .testTarget(name: "CommandLineTests", dependencies: ["swift-att", "BenchSupport", "TestSupport", "PseudoTerminal"]),
    ],
    swiftLanguageModes: [.v6]
)
