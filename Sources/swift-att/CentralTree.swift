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
        text(database, read: DiscoveredValues(values: values))
    }

    /// One line per attribute, drawn as a tree; each value read is shown decoded where
    /// the assigned numbers say what it is, and a refused read shows why.
    static func text(_ database: GATTClientDatabase, read: DiscoveredValues) -> [String] {
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
                let line = "\(branch) \(label(characteristic.uuid))  [\(properties(characteristic.properties).joined(separator: ", "))]  value \(Hex.handle(characteristic.valueHandle))"
                lines.append(line + shown(read, characteristic.valueHandle) { DecodedValueText.characteristic($0, uuid: characteristic.uuid) })
                for (d, descriptor) in characteristicRecord.descriptors.enumerated() {
                    let twig = d == characteristicRecord.descriptors.count - 1 ? "└─" : "├─"
                    let line = "\(stem)\(twig) \(label(descriptor.uuid))  \(Hex.handle(descriptor.handle))"
                    lines.append(line + shown(read, descriptor.handle) { DecodedValueText.descriptor($0, uuid: descriptor.uuid) })
                }
            }
        }
        return lines
    }

    /// `  = 80 %  (50)`, `  = 01 02  (malformed: …)`, `  (not read: …)`, or nothing when
    /// the attribute was not read.
    private static func shown(
        _ read: DiscoveredValues, _ handle: UInt16, _ decode: ([UInt8]) -> DecodedValueText.Decoded?
    ) -> String {
        if let error = read.failures[handle] { return "  (not read: \(DiscoveredValues.reason(error)))" }
        guard let value = read.values[handle] else { return "" }
        let hex = value.isEmpty ? "(empty)" : Hex.encode(value, separator: " ")
        switch decode(value) {
        case let .value(text, _, showsHex)?:
            return "  = \(text)" + (showsHex ? "  (\(hex))" : "")
        case let .malformed(reason)?:
            return "  = \(hex)  (malformed: \(reason))"
        case nil:
            if value.count > 32 { return "  = " + Hex.encode(value.prefix(32)) + "… (\(value.count) bytes)" }
            return "  = " + ValueText.bytes(value[...]).joined(separator: "  ")
        }
    }

    static func json(_ database: GATTClientDatabase, values: [UInt16: [UInt8]] = [:]) -> JSONValue {
        json(database, read: DiscoveredValues(values: values))
    }

    /// The tree as one JSON object. Beside each value's `"value"` (hex) are the fields
    /// it decodes to, `"malformed"` when it does not, and `"error"` (with `"attError"`,
    /// the code) for a read that was refused.
    static func json(_ database: GATTClientDatabase, read: DiscoveredValues) -> JSONValue {
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
                if let value = read.values[ch.valueHandle] {
                    members += CentralValueText.json(value, uuid: ch.uuid) + decodedJSON(DecodedValueText.characteristic(value, uuid: ch.uuid))
                }
                members += errorJSON(read, ch.valueHandle)
                members.append(JSONMember("descriptors", .array(c.descriptors.map { d in
                    var members = uuid(d.uuid) + [JSONMember("handle", .integer(Int(d.handle)))]
                    if let value = read.values[d.handle] {
                        members.append(JSONMember("value", .string(Hex.encode(value))))
                        let decoded = DecodedValueText.descriptor(value, uuid: d.uuid)
                        members += decodedJSON(decoded)
                        // As for a characteristic: a vendor descriptor's value that is all text.
                        if decoded == nil, !value.isEmpty, ValueText.printable(value[...]) != nil {
                            members.append(JSONMember("text", .string(String(decoding: value, as: UTF8.self))))
                        }
                    }
                    members += errorJSON(read, d.handle)
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

    /// The decoded fields beside `"value"`; a key `CentralValueText.json` already gave
    /// (the heart rate's, `"percent"`, `"text"`) is not repeated.
    private static func decodedJSON(_ decoded: DecodedValueText.Decoded?) -> [JSONMember] {
        switch decoded {
        case let .value(_, json, _)?: return json
        case let .malformed(reason)?: return [JSONMember("malformed", .string(reason))]
        case nil: return []
        }
    }

    private static func errorJSON(_ read: DiscoveredValues, _ handle: UInt16) -> [JSONMember] {
        guard let error = read.failures[handle] else { return [] }
        var members = [JSONMember("error", .string(DiscoveredValues.reason(error)))]
        if case let .attributeError(code, _, _) = error { members.append(JSONMember("attError", .integer(Int(code.rawValue)))) }
        return members
    }
}
