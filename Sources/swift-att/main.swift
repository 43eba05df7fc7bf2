// swift-att: a Bluetooth LE host on the command line (scan, connect, serve GATT) and a
// decoder and encoder of its PDUs and captures. This file only dispatches.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SwiftATTHost

/// Runs the command named by the first argument; returns the exit status.
func run(_ arguments: [String]) async throws(CommandError) -> Int32 {
    guard let command = arguments.first else {
        throw .usage("missing command (see 'swift-att --help')")
    }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "decode": return try DecodeCommand.run(rest)
    case "encode": return try EncodeCommand.run(rest)
    case "dump": return try DumpCommand.run(rest)
    case "info": return try await InfoCommand.run(rest)
    case "peripheral": return try await PeripheralCommand.run(rest)
    case "central": return try await CentralCommand.run(rest)
    case "l2cap": return try await L2CAPCommand.run(rest)
    case "adapters": return try AdaptersCommand.run(rest)
    case "bonds": return try BondsCommand.run(rest)
    case "bridge": return try BridgeCommand.run(rest)
    case "help": return try Usage.help(for: rest)
    case "-h", "--help": Output.print(Usage.main)
    case "--version": Output.print("swift-att \(swiftATTVersion)")
    default:
        if command.hasPrefix("-") { throw .usage("unknown option '\(command)' (see 'swift-att --help')") }
        throw .usage("unknown command '\(command)' (see 'swift-att --help')")
    }
    return 0
}

// The command's work runs on the loop thread its host runs on (`HostEventLoop.shared`,
// where every host started without a loop of its own runs): a command and its answer,
// a notification and the line that prints it, meet on one thread, with no hand-off
// between the loop and Swift's pool; tasks beside the main one start there too
// (`Task.onCommandLoop`). What blocks (reading standard input, the shell's
// prompt) has threads of its own (`BlockingCallThread`, `InputWatcher`). Without a loop
// (the process is out of threads or descriptors) the work runs on the pool, and the
// host's start reports why.
do throws(CommandError) {
    exit(try await withTaskExecutorPreference(CommandLoop.executor) { () async throws(CommandError) -> Int32 in
        try await run(Array(CommandLine.arguments.dropFirst()))
    })
} catch {
    Output.error(error.message)
    exit(error.exitCode)
}
