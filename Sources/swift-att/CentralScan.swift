import SwiftATTAdvertising
import SwiftATTJSON
import SwiftATTCore
import SwiftATTHost

/// `swift-att central scan`: a live table of advertisers (address, type, RSSI, name,
/// services with their names, manufacturer data), one row per device as it is first
/// seen — or per report with `--duplicates` — or one JSON object per line.
enum CentralScan {
    static func run(
        _ options: CentralCommand.Options, central: Central, report: EventReport, inputs: CentralInputs,
        seen: (@Sendable (DiscoveredDevice) -> Void)? = nil
    ) async throws(CommandError) -> Int32 {
        let filter = ScanFilter(services: options.services, nameContains: options.name, minimumRSSI: options.minimumRSSI)
        let scan = central.scan(filter, active: !options.passive, allowDuplicates: options.duplicates)
        // Listening for Ctrl-C before saying it stops the scan: one typed as soon as the
        // line shows must reach this scan.
        let watched = inputs.subscribe()
        Output.progress("scanning for \(options.scanTimeout)\(options.passive ? " (passive)" : ""); Ctrl-C stops")
        if !options.json { Output.print(header) }
        let saw = seen
        // Whichever ends first ends the scan: the scan itself (enough devices, or the
        // controller gone), Ctrl-C, or the time. Only the scanning task has a count.
        let found = await withTaskGroup(of: Int?.self) { group in
            group.addTask {
                var seen = Set<BluetoothAddress>()
                do {
                    for try await device in scan {
                        seen.insert(device.address)
                        saw?(device)
                        report.emit(row(device), json(device))
                        if let count = options.count, seen.count >= count { break }
                    }
                } catch {}
                return seen.count
            }
            group.addTask {
                for await input in watched { if case .signal = input { break } }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: options.scanTimeout)
                return nil
            }
            var found = await group.next() ?? nil
            group.cancelAll()
            for await count in group { found = found ?? count }
            return found ?? 0
        }
        Output.progress("\(String(count: found, "device")) found")
        return 0
    }

    static let header = pad("ADDRESS", 18) + pad("TYPE", 8) + pad("RSSI", 6) + pad("NAME", 22) + pad("SERVICES", 34) + "MANUFACTURER"

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    static func row(_ device: DiscoveredDevice) -> String {
        let data = device.data
        let services = data.serviceUUIDs.map { CentralTree.label($0) }.joined(separator: ", ")
        let manufacturer = data.manufacturerSpecificData.map { "\($0.companyIdentifier) \(Hex.encode($0.data))" }.joined(separator: "; ")
        return pad(device.address.description, 18) + pad(kind(device.address), 8) + pad("\(device.rssi)", 6)
            + pad(data.localName.map { EventReport.quoted($0.name) } ?? "-", 22)
            + pad(services.isEmpty ? "-" : services, 34) + (manufacturer.isEmpty ? "-" : manufacturer)
            + (device.identity.map { "  (bonded: identity \($0))" } ?? "")
    }

    static func kind(_ address: BluetoothAddress) -> String {
        address.kind == .public ? "public" : "random"
    }

    static func json(_ device: DiscoveredDevice) -> JSONValue {
        let data = device.data
        var members: [JSONMember] = [
            JSONMember("event", "device"), JSONMember("address", .string(device.address.description)),
            JSONMember("type", .string(kind(device.address))), JSONMember("rssi", .integer(Int(device.rssi))),
            JSONMember("name", data.localName.map { .string($0.name) } ?? .null),
            JSONMember("services", .array(data.serviceUUIDs.map { uuid in
                .object([JSONMember("uuid", .string(uuid.description))]
                        + (CentralTree.name(uuid).map { [JSONMember("name", .string($0))] } ?? []))
            })),
            JSONMember("manufacturer", .array(data.manufacturerSpecificData.map { m in
                .object([JSONMember("company", .integer(Int(m.companyIdentifier.rawValue))),
                         JSONMember("companyName", .string(m.companyIdentifier.description)),
                         JSONMember("data", .string(Hex.encode(m.data)))])
            })),
        ]
        if let power = data.txPowerLevel { members.append(JSONMember("txPower", .integer(Int(power)))) }
        if let identity = device.identity { members.append(JSONMember("identity", .string(identity.description))) }
        members.append(JSONMember("reports", .integer(device.reportCount)))
        return .object(members)
    }
}
