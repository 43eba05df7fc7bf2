import SwiftATTAdvertising
import SwiftATTCore
import Foundation

/// A JSON value as the fixture files hold it.
enum FixtureJSON: Hashable, Sendable, Decodable, CustomStringConvertible {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([FixtureJSON])
    case object([String: FixtureJSON])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int.self) {
            self = .int(i)
        } else if let d = try? c.decode(Double.self) {
            self = .double(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([FixtureJSON].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: FixtureJSON].self))
        }
    }

    var int: Int? { if case let .int(i) = self { i } else { nil } }
    var string: String? { if case let .string(s) = self { s } else { nil } }
    var array: [FixtureJSON]? { if case let .array(a) = self { a } else { nil } }
    var object: [String: FixtureJSON]? { if case let .object(o) = self { o } else { nil } }

    var description: String {
        switch self {
        case let .bool(b): return String(b)
        case let .int(i): return String(i)
        case let .double(d): return String(d)
        case let .string(s): return "\"\(s)\""
        case let .array(a): return "[" + a.map(\.description).joined(separator: ", ") + "]"
        case let .object(o):
            return "{" + o.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

/// `Fixtures/advertising/`, found from this file's path so tests run from any directory.
enum AdvertisingFixtures {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // AdvertisingTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Fixtures/advertising")

    static func load<T: Decodable>(_ name: String, as: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: directory.appendingPathComponent(name)))
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

extension FixtureJSON: ExpressibleByStringLiteral {
    init(stringLiteral value: String) { self = .string(value) }
}

/// SplitMix64: a small, seeded generator so fuzz runs are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
