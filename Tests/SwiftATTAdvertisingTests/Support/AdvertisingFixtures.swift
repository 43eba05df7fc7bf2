import SwiftATTAdvertising
import SwiftATTCore
import TestSupport

/// The tables in `Fixtures/advertising/`.
enum AdvertisingFixtures {
    static func load<T: Decodable>(_ name: String, as: T.Type) throws -> T {
        try FixtureFiles.decode(T.self, from: "advertising/" + name)
    }
}

/// One entry of vectors.json.
struct GoldenVector: Decodable, Sendable, CustomStringConvertible {
    var name: String
    var source: String
    var hex: String
    var fields: [String: FixtureJSON]

    var bytes: [UInt8] { (try? Hex.decode(hex)) ?? [] }
    var description: String { name }

    static let all: [GoldenVector] = (try? AdvertisingFixtures.load("vectors.json", as: [GoldenVector].self)) ?? []
}

/// One entry of malformed.json.
struct MalformedVector: Decodable, Sendable, CustomStringConvertible {
    var name: String
    var hex: String
    var error: String
    var offset: Int
    var length: Int
    var remaining: Int?
    var type: UInt8?
    var required: [String: FixtureJSON]?

    var bytes: [UInt8] { (try? Hex.decode(hex)) ?? [] }
    var description: String { name }

    /// The error the entry names.
    var expectedError: ADDecodingError? {
        switch error {
        case "structureOverrun":
            guard let remaining else { return nil }
            return .structureOverrun(offset: offset, length: length, remaining: remaining)
        case "invalidLength":
            guard let type, let (key, value) = required?.first else { return nil }
            let rule: ADLengthRequirement
            switch key {
            case "exactly": rule = .exactly(value.int ?? -1)
            case "atLeast": rule = .atLeast(value.int ?? -1)
            case "multipleOf": rule = .multiple(of: value.int ?? -1)
            case "between":
                let bounds = value.array?.compactMap(\.int) ?? []
                guard bounds.count == 2 else { return nil }
                rule = .between(bounds[0], bounds[1])
            default: return nil
            }
            return .invalidLength(ADType(type), offset: offset, length: length, required: rule)
        default:
            return nil
        }
    }

    static let all: [MalformedVector] = (try? AdvertisingFixtures.load("malformed.json", as: [MalformedVector].self)) ?? []
}

/// The fixture form of decoded advertising data (Fixtures/advertising/README.md), written
/// here from the public API, independently of any formatter in the package.
enum ADFields {
    static func of(_ data: AdvertisingData) -> FixtureJSON {
        var out: [String: FixtureJSON] = [
            "significantLength": .int(data.significantLength),
            "items": .array(data.map(item)),
        ]
        if !data.padding.isEmpty { out["padding"] = .string(Hex.encode(data.padding)) }
        return .object(out)
    }

    static func item(_ structure: ADStructure) -> FixtureJSON {
        var o: [String: FixtureJSON] = [
            "type": .int(Int(structure.type.rawValue)),
            "data": .string(Hex.encode(structure.data)),
        ]
        if let name = structure.type.name { o["typeName"] = .string(name) }
        switch structure.item {
        case let .flags(f):
            o["flags"] = .int(Int(f.rawValue))
            o["flagNames"] = .array(f.names.map(FixtureJSON.string))
        case let .serviceUUIDs(list):
            o["uuids"] = .array(list.map { .string($0.description) })
        case let .localName(n):
            o["name"] = .string(n.name)
            o["validUTF8"] = .bool(n.isValidUTF8)
        case let .txPowerLevel(dBm):
            o["txPowerLevel"] = .int(Int(dBm))
        case let .peripheralConnectionIntervalRange(r):
            o["minimum"] = .int(Int(r.minimum))
            o["maximum"] = .int(Int(r.maximum))
        case let .serviceData(d):
            o["uuid"] = .string(d.uuid.description)
            o["serviceData"] = .string(Hex.encode(d.data))
            if let frame = d.eddystone { o["eddystone"] = eddystone(frame) }
        case let .targetAddresses(list):
            o["addresses"] = .array(list.map { .string($0.description) })
        case let .appearance(a):
            o["appearance"] = .int(Int(a.rawValue))
            o["category"] = .int(Int(a.category))
            o["subcategory"] = .int(Int(a.subcategory))
            if let name = a.name { o["appearanceName"] = .string(name) }
            if let name = a.categoryName { o["categoryName"] = .string(name) }
        case let .advertisingInterval(i):
            o["interval"] = .int(Int(i.units))
        case let .leBluetoothDeviceAddress(a):
            o["address"] = .string(a.description)
            o["addressType"] = .string(a.kind == .public ? "public" : "random")
        case let .leRole(r):
            o["role"] = .int(Int(r.rawValue))
            if let name = r.name { o["roleName"] = .string(name) }
        case let .uri(u):
            if let code = u.schemeCodePoint { o["schemeCodePoint"] = .int(Int(code)) }
            if let text = u.uri { o["uri"] = .string(text) }
            o["validUTF8"] = .bool(u.isValidUTF8)
        case let .manufacturerSpecificData(m):
            o["companyIdentifier"] = .int(Int(m.companyIdentifier.rawValue))
            if let name = m.companyIdentifier.name { o["companyName"] = .string(name) }
            o["manufacturerData"] = .string(Hex.encode(m.data))
            if let b = m.iBeacon {
                o["iBeacon"] = .object([
                    "proximityUUID": .string(b.proximityUUID.description),
                    "major": .int(Int(b.major)), "minor": .int(Int(b.minor)),
                    "measuredPower": .int(Int(b.measuredPower)),
                ])
            }
        case .other:
            break
        }
        return .object(o)
    }

    static func eddystone(_ frame: EddystoneFrame) -> FixtureJSON {
        switch frame {
        case let .uid(f):
            return .object([
                "frame": "uid", "txPower": .int(Int(f.txPower)),
                "namespace": .string(Hex.encode(f.namespace)), "instance": .string(Hex.encode(f.instance)),
            ])
        case let .url(f):
            return .object(["frame": "url", "txPower": .int(Int(f.txPower)), "url": .string(f.url)])
        case let .tlm(f):
            var o: [String: FixtureJSON] = [
                "frame": "tlm", "batteryVoltage": .int(Int(f.batteryVoltage)),
                "temperatureRaw": .int(Int(f.temperatureRaw)),
                "advertisingCount": .int(Int(f.advertisingCount)), "uptime": .int(Int(f.uptime)),
            ]
            if let t = f.temperature { o["temperature"] = .double(t) }
            return .object(o)
        case let .eid(f):
            return .object(["frame": "eid", "txPower": .int(Int(f.txPower)), "identifier": .string(Hex.encode(f.identifier))])
        }
    }
}
