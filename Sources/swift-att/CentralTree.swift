import SwiftATTJSON
import SwiftATTCore
import SwiftATTGATT

/// A discovered database as LightBlue shows it: services, their characteristics with
/// properties and handles, and descriptors, each with its SIG (or seed) name; or as JSON.
enum CentralTree {
    static func name(_ uuid: BluetoothUUID) -> String? {
        CentralSession.names[uuid] ?? uuid.assignedName
    }

    static func label(_ uuid: BluetoothUUID) -> String {
        name(uuid).map { "\(uuid) \($0)" } ?? uuid.description
    }

    /// `read, write, notify`.
    static func properties(_ p: GATTCharacteristic.Properties) -> [String] {
        let names: [(GATTCharacteristic.Properties, String)] = [
            (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "write-without-response"),
            (.write, "write"), (.notify, "notify"), (.indicate, "indicate"),
            (.authenticatedSignedWrites, "signed-write"), (.extendedProperties, "extended"),
        ]
        return names.filter { p.contains($0.0) }.map(\.1)
    }

    /// One line per attribute, drawn as a tree; `values` adds what was read.
    static func text(_ database: GATTClientDatabase, values: [UInt16: [UInt8]] = [:]) -> [String] {
        var lines: [String] = []
        for record in database.services {
            let service = record.service
            let kind = service.isPrimary ? "Service" : "Secondary service"
            lines.append("\(kind) \(label(service.uuid))  \(ValueText.handleRange(service.handles.lowerBound, service.handles.upperBound))")
            for include in record.includedServices {
                lines.append("├─ Includes \(label(include.uuid))  \(ValueText.handleRange(include.handles.lowerBound, include.handles.upperBound))")
            }
            for (c, characteristicRecord) in record.characteristics.enumerated() {
                let characteristic = characteristicRecord.characteristic
                let last = c == record.characteristics.count - 1
                let branch = last ? "└─" : "├─"
                let stem = last ? "   " : "│  "
                var line = "\(branch) \(label(characteristic.uuid))  [\(properties(characteristic.properties).joined(separator: ", "))]  value \(Hex.handle(characteristic.valueHandle))"
                if let value = values[characteristic.valueHandle] {
                    line += "  = \(CentralValueText.text(value, uuid: characteristic.uuid, compact: true))"
                }
                lines.append(line)
                for (d, descriptor) in characteristicRecord.descriptors.enumerated() {
                    let twig = d == characteristicRecord.descriptors.count - 1 ? "└─" : "├─"
                    var line = "\(stem)\(twig) \(label(descriptor.uuid))  \(Hex.handle(descriptor.handle))"
                    if let value = values[descriptor.handle] { line += "  = \(ValueText.bytes(value[...]).joined(separator: "  "))" }
                    lines.append(line)
                }
            }
        }
        return lines
    }

    static func json(_ database: GATTClientDatabase, values: [UInt16: [UInt8]] = [:]) -> JSONValue {
        func uuid(_ u: BluetoothUUID) -> [JSONMember] {
            [JSONMember("uuid", .string(u.description))] + (name(u).map { [JSONMember("name", .string($0))] } ?? [])
        }
        let services: [JSONValue] = database.services.map { record in
            let s = record.service
            var members = uuid(s.uuid) + [
                JSONMember("primary", .bool(s.isPrimary)),
                JSONMember("start", .integer(Int(s.handles.lowerBound))), JSONMember("end", .integer(Int(s.handles.upperBound))),
            ]
            if !record.includedServices.isEmpty {
                members.append(JSONMember("includes", .array(record.includedServices.map { i in
                    .object(uuid(i.uuid) + [JSONMember("handle", .integer(Int(i.declarationHandle))),
                                            JSONMember("start", .integer(Int(i.handles.lowerBound))),
                                            JSONMember("end", .integer(Int(i.handles.upperBound)))])
                })))
            }
            members.append(JSONMember("characteristics", .array(record.characteristics.map { c in
                let ch = c.characteristic
                var members = uuid(ch.uuid) + [
                    JSONMember("handle", .integer(Int(ch.valueHandle))),
                    JSONMember("declaration", .integer(Int(ch.declarationHandle))),
                    JSONMember("properties", .array(properties(ch.properties).map { .string($0) })),
                ]
                if let value = values[ch.valueHandle] { members += CentralValueText.json(value, uuid: ch.uuid) }
                members.append(JSONMember("descriptors", .array(c.descriptors.map { d in
                    var members = uuid(d.uuid) + [JSONMember("handle", .integer(Int(d.handle)))]
                    if let value = values[d.handle] { members.append(JSONMember("value", .string(Hex.encode(value)))) }
                    return .object(members)
                })))
                return .object(members)
            })))
            return .object(members)
        }
        var top: [JSONMember] = [JSONMember("event", "database"), JSONMember("services", .array(services))]
        if let hash = database.databaseHash { top.append(JSONMember("databaseHash", .string(Hex.encode(hash)))) }
        return .object(top)
    }
}
