#if canImport(Glibc)
import Glibc
#endif
import SwiftATTJSON
import SwiftATTTransport

/// `swift-att adapters [--json]`: the kernel's Bluetooth adapters, with who holds each,
/// read from HCIGETDEVINFO and the management channel (as `btmgmt info` would, without
/// bluetoothd). Needs no privilege.
enum AdaptersCommand {
    static func run(_ arguments: [String]) throws(CommandError) -> Int32 {
        let args = try Arguments(arguments, flags: ["--json"], command: "adapters")
        if args.wantsHelp {
            Output.print(Usage.adapters)
            return 0
        }
        guard args.positionals.isEmpty else { throw .usage("adapters: unexpected argument '\(args.positionals[0])'") }
        let adapters: [KernelAdapter]
        do {
            adapters = try KernelAdapter.all()
        } catch {
            throw .failure(error.description)
        }
        let daemon = bluetoothdProcessID()
        if args.has("--json") {
            Output.print(JSONValue.array(adapters.map { json($0, daemon: daemon) }).serialized())
        } else if adapters.isEmpty {
            Output.print("no Bluetooth adapters (the kernel has Bluetooth support, but no controller is attached)")
        } else {
            for adapter in adapters { Output.print(text(adapter, daemon: daemon)) }
        }
        return 0
    }

    static func state(_ adapter: KernelAdapter) -> String {
        if adapter.flags.contains(.initializing) { return "initializing" }
        return adapter.flags.contains(.up) || adapter.powered ? "up" : "down"
    }

    /// Who holds the adapter, said so that the next step is clear.
    static func holder(_ adapter: KernelAdapter, daemon: Int32?) -> String {
        switch adapter.holder {
        case .nobody:
            return "free: swift-att can open it (--transport \(adapter.name))"
        case .management:
            let who = daemon.map { "bluetoothd (pid \($0))" } ?? "the kernel's management interface"
            return "\(who): 'btmgmt -i \(adapter.name) power off' or 'systemctl stop bluetooth' frees it"
        case .userChannel:
            return "another program on the HCI user channel"
        case .settingUp:
            return "the kernel (still setting it up)"
        }
    }

    static func holderName(_ holder: KernelAdapter.Holder) -> String {
        switch holder {
        case .nobody: return "nobody"
        case .management: return "management"
        case .userChannel: return "user-channel"
        case .settingUp: return "setting-up"
        }
    }

    static func text(_ adapter: KernelAdapter, daemon: Int32?) -> String {
        "\(adapter.name)  \(adapter.address)  \(state(adapter).padded(to: 12))  \(holder(adapter, daemon: daemon))"
    }

    static func json(_ adapter: KernelAdapter, daemon: Int32?) -> JSONValue {
        .object([
            JSONMember("name", .string(adapter.name)),
            JSONMember("index", .integer(Int(adapter.index))),
            JSONMember("address", .string(adapter.address.description)),
            JSONMember("state", .string(state(adapter))),
            JSONMember("listed", .bool(adapter.listed)),
            JSONMember("powered", .bool(adapter.powered)),
            JSONMember("holder", .string(holderName(adapter.holder))),
            JSONMember("bluetoothd", daemon.map { .integer(Int($0)) } ?? .null),
        ])
    }

    /// bluetoothd's process ID, found by name in /proc (the usual holder of an adapter).
    static func bluetoothdProcessID() -> Int32? {
        guard let directory = opendir("/proc") else { return nil }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), let file = fopen("/proc/\(name)/comm", "r") else { continue }
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 64)
            if fgets(&line, Int32(line.count), file) != nil,
               String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) == "bluetoothd\n" {
                return pid
            }
        }
        return nil
    }
}
