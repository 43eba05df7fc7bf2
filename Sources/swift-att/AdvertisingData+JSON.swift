import SwiftATTAdvertising
import SwiftATTJSON
import SwiftATTCore

extension AdvertisingData {
    /// The payload in the JSON form of `Fixtures/advertising/README.md`: `significantLength`,
    /// `items` (one object per AD structure, in order) and `padding` when there is any.
    var json: JSONValue {
        var members: [JSONMember] = [
            JSONMember("significantLength", .integer(significantLength)),
            JSONMember("items", .array(map(\.json))),
        ]
        if !padding.isEmpty { members.append(JSONMember("padding", .hex(padding))) }
        return .object(members)
    }
}

extension ADStructure {
    /// `type`, `typeName` (when assigned), `data`, then the keys of the decoded item.
    var json: JSONValue {
        var o: [JSONMember] = []
        func add(_ key: String, _ value: JSONValue?) {
            if let value { o.append(JSONMember(key, value)) }
        }
        add("type", .integer(Int(type.rawValue)))
        add("typeName", type.name.map(JSONValue.string))
        add("data", .hex(data))
        switch item {
        case let .flags(f):
            add("flags", .integer(Int(f.rawValue)))
            add("flagNames", .array(f.names.map(JSONValue.string)))
        case let .serviceUUIDs(list):
            add("uuids", .array(list.map(JSONValue.uuid)))
        case let .localName(n):
            add("name", .string(n.name))
            add("validUTF8", .bool(n.isValidUTF8))
        case let .txPowerLevel(dBm):
            add("txPowerLevel", .integer(Int(dBm)))
        case let .peripheralConnectionIntervalRange(r):
            add("minimum", .integer(Int(r.minimum)))
            add("maximum", .integer(Int(r.maximum)))
        case let .serviceData(d):
            add("uuid", .uuid(d.uuid))
            add("serviceData", .hex(d.data))
            add("eddystone", d.eddystone?.json)
        case let .targetAddresses(list):
            add("addresses", .array(list.map { .string($0.description) }))
        case let .appearance(a):
            add("appearance", .integer(Int(a.rawValue)))
            add("category", .integer(Int(a.category)))
            add("subcategory", .integer(Int(a.subcategory)))
            add("appearanceName", a.name.map(JSONValue.string))
            add("categoryName", a.categoryName.map(JSONValue.string))
        case let .advertisingInterval(i):
            add("interval", .integer(Int(i.units)))
        case let .leBluetoothDeviceAddress(a):
            add("address", .string(a.description))
            add("addressType", .string(a.kind == .public ? "public" : "random"))
        case let .leRole(r):
            add("role", .integer(Int(r.rawValue)))
            add("roleName", r.name.map(JSONValue.string))
        case let .uri(u):
            add("schemeCodePoint", u.schemeCodePoint.map { .integer(Int($0)) })
            add("uri", u.uri.map(JSONValue.string))
            add("validUTF8", .bool(u.isValidUTF8))
        case let .manufacturerSpecificData(m):
            add("companyIdentifier", .integer(Int(m.companyIdentifier.rawValue)))
            add("companyName", m.companyIdentifier.name.map(JSONValue.string))
            add("manufacturerData", .hex(m.data))
            add("iBeacon", m.iBeacon?.json)
        case .other:
            break
        }
        return .object(o)
    }
}

extension IBeacon {
    var json: JSONValue {
        [
            "proximityUUID": .uuid(proximityUUID),
            "major": .integer(Int(major)),
            "minor": .integer(Int(minor)),
            "measuredPower": .integer(Int(measuredPower)),
        ]
    }
}

extension EddystoneFrame {
    /// `frame` (`uid`, `url`, `tlm`, `eid`), then the frame's fields.
    var json: JSONValue {
        switch self {
        case let .uid(f):
            return [
                "frame": "uid", "txPower": .integer(Int(f.txPower)),
                "namespace": .hex(f.namespace), "instance": .hex(f.instance),
            ]
        case let .url(f):
            return ["frame": "url", "txPower": .integer(Int(f.txPower)), "url": .string(f.url)]
        case let .tlm(f):
            var members: [JSONMember] = [
                JSONMember("frame", "tlm"),
                JSONMember("batteryVoltage", .integer(Int(f.batteryVoltage))),
                JSONMember("temperatureRaw", .integer(Int(f.temperatureRaw))),
            ]
            // Absent for 0x8000, "not measured".
            if let t = f.temperature { members.append(JSONMember("temperature", .double(t))) }
            members.append(JSONMember("advertisingCount", .integer(Int(f.advertisingCount))))
            members.append(JSONMember("uptime", .integer(Int(f.uptime))))
            return .object(members)
        case let .eid(f):
            return ["frame": "eid", "txPower": .integer(Int(f.txPower)), "identifier": .hex(f.identifier)]
        }
    }
}

extension JSONValue {
    /// Lowercase hex, no separators.
    fileprivate static func hex(_ bytes: ArraySlice<UInt8>) -> JSONValue { .string(Hex.encode(bytes)) }
    /// In the UUID's wire width: `180D`, `0000180D`, or the dashed 128-bit form.
    fileprivate static func uuid(_ uuid: BluetoothUUID) -> JSONValue { .string(uuid.description) }
}
