import SwiftATTCore
import SwiftATTHCI
import SwiftATTJSON
import SwiftATTAdvertising

/// The stored fields of a decoded HCI, SMP or signaling structure as a JSON object, keyed
/// by the Swift property names (`connectionHandle`, `peerAddress`): the JSON twin of
/// `ReflectedFields`. Codes are integers with a sibling `…Name` (`status`, `statusName`);
/// octet strings are hex; addresses are `XX:XX:XX:XX:XX:XX`; advertising data is also
/// decoded into AD structures under a sibling `…AD` key, as `decode ad --json` prints them.
enum DumpFieldsJSON {
    /// The fields of `value` as an object (a scalar becomes `{"value": …}`; an enum with
    /// a payload `{"case": …, …payload's fields}`).
    static func object(_ value: Any) -> JSONValue {
        var members: [JSONMember] = []
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .enum, let payload = mirror.children.first {
            members.append(JSONMember("case", .string(payload.label ?? "")))
            flatten(payload.value, into: &members)
        } else {
            flatten(value, into: &members)
        }
        return .object(members)
    }

    private static func flatten(_ value: Any, into members: inout [JSONMember]) {
        var extra: [JSONMember] = []
        if let s = scalar(value, label: "value", into: &extra) {
            members.append(JSONMember("value", s))
            members += extra
            return
        }
        let adLabel = advertisingDataLabel(of: value)
        for child in Mirror(reflecting: value).children {
            guard let label = child.label, !label.hasPrefix("_") else { continue }
            add(label.hasPrefix(".") ? "value\(label.dropFirst())" : label, child.value, decodingAD: label == adLabel, to: &members)
        }
    }

    /// The field of `value` that holds AD structures: LE Set (Extended) Advertising /
    /// Scan Response Data's data, an advertising report's data.
    private static func advertisingDataLabel(of value: Any) -> String? {
        switch value {
        case is LESetAdvertisingData, is LESetExtendedAdvertisingData: return "advertisingData"
        case is LESetScanResponseData, is LESetExtendedScanResponseData: return "scanResponseData"
        case is LEAdvertisingReport.Report, is LEExtendedAdvertisingReport.Report: return "data"
        default: return nil
        }
    }

    private static func add(_ label: String, _ value: Any, decodingAD: Bool = false, to members: inout [JSONMember]) {
        var extra: [JSONMember] = []
        if decodingAD, let bytes = value as? ArraySlice<UInt8> {
            members.append(JSONMember(label, .string(Hex.encode(bytes))))
            members.append(JSONMember(label + "AD", DumpAD.json(bytes)))
            return
        }
        if let s = scalar(value, label: label, into: &extra) {
            members.append(JSONMember(label, s))
            members += extra
            return
        }
        members.append(JSONMember(label, nested(value)))
    }

    /// A structure, list or optional that is not a scalar.
    private static func nested(_ value: Any) -> JSONValue {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let some = mirror.children.first?.value else { return .null }
            var extra: [JSONMember] = []
            return scalar(some, label: "value", into: &extra) ?? nested(some)
        case .collection, .set:
            return .array(mirror.children.map { element(element: $0.value) })
        default:
            if let collection = value as? any Collection {
                return .array(collection.map { element(element: $0 as Any) })
            }
            return object(value)
        }
    }

    private static func element(element: Any) -> JSONValue {
        var extra: [JSONMember] = []
        return scalar(element, label: "value", into: &extra) ?? nested(element)
    }

    /// A leaf value as JSON, `nil` for structures. Names and decoded forms go into
    /// `extra` as `<label>Name` siblings.
    private static func scalar(_ value: Any, label: String, into extra: inout [JSONMember]) -> JSONValue? {
        switch value {
        case let v as BluetoothAddress:
            return .string(v.description)
        case let v as HCIStatus:
            extra.append(JSONMember(label + "Name", .string(v.name)))
            return .integer(Int(v.rawValue))
        case let v as HCIOpcode:
            if let name = v.name { extra.append(JSONMember(label + "Name", .string(name))) }
            return .integer(Int(v.rawValue))
        case let v as ArraySlice<UInt8>:
            return .string(Hex.encode(v))
        case let v as [UInt8]:
            return .string(Hex.encode(v))
        case let v as Bool:
            return .bool(v)
        case let v as any BinaryInteger:
            if let i = Int(exactly: v) { return .integer(i) }
            return .string("0x" + String(v, radix: 16))
        case let v as Double:
            return .double(v)
        case let v as String:
            return .string(v)
        case let v as any RawRepresentable:
            let raw = rawInteger(v.rawValue)
            if Mirror(reflecting: value).displayStyle == .enum {
                extra.append(JSONMember(label + "Name", .string(String(describing: value))))
            }
            if let raw { return raw }
            if let wide = v.rawValue as? any BinaryInteger { return .string("0x" + String(wide, radix: 16)) }
            return .string(String(describing: v.rawValue))
        default:
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .enum, mirror.children.isEmpty { return .string(String(describing: value)) }
            return nil
        }
    }

    private static func rawInteger(_ raw: Any) -> JSONValue? {
        guard let v = raw as? any BinaryInteger, let i = Int(exactly: v) else { return nil }
        return .integer(i)
    }
}

/// Advertising data carried by an HCI command or report, decoded as `decode ad` does;
/// a malformed tail is reported, not hidden.
enum DumpAD {
    static func json(_ bytes: ArraySlice<UInt8>) -> JSONValue {
        let (data, error) = AdvertisingData.parsingValidPrefix(bytes)
        guard let error else { return data.json }
        guard case var .object(members) = data.json else { return data.json }
        members.append(JSONMember("error", .string("\(error)")))
        return .object(members)
    }

    static func textLines(_ bytes: ArraySlice<UInt8>) -> [String] {
        let (data, error) = AdvertisingData.parsingValidPrefix(bytes)
        var lines = data.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let error { lines.append("malformed: \(error)") }
        return lines
    }
}
