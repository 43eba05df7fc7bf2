import SwiftATTCore

/// Data a service attaches to its UUID in the advertisement.
///
/// Core Specification Supplement Part A §1.11: a 16-bit (AD type 0x16), 32-bit (0x20) or
/// 128-bit (0x21) service UUID, little-endian, then service-defined data. Eddystone frames
/// travel this way under 0xFEAA (`eddystone`).
public struct ServiceData: Hashable, Sendable, CustomStringConvertible {
    /// The service UUID, at the width it was (or will be) sent.
    public let uuid: BluetoothUUID
    /// The data after the UUID: a view into the advertisement.
    public let data: ArraySlice<UInt8>

    /// Data of the service `uuid`, as a view.
    public init(uuid: BluetoothUUID, data: ArraySlice<UInt8>) {
        self.uuid = uuid
        self.data = data
    }

    /// Data of the service `uuid`.
    public init(uuid: BluetoothUUID, data: [UInt8]) {
        self.init(uuid: uuid, data: data[...])
    }

    @usableFromInline
    init(validated s: ADStructure) {
        let width: BluetoothUUID.Width =
            s.type == .serviceData16BitUUID ? .bits16 : s.type == .serviceData32BitUUID ? .bits32 : .bits128
        let n = width.byteCount
        // The length rule (at least 2, 4 or 16 octets) was checked when the structure was made.
        switch width {
        case .bits16: uuid = BluetoothUUID(s.data.littleEndianUInt16(at: 0))
        case .bits32: uuid = BluetoothUUID(uuid32: s.data.littleEndianUInt32(at: 0))
        case .bits128: uuid = BluetoothUUID(uuid128: s.data.littleEndianUInt128(at: 0))
        }
        data = s.data.bytes(from: n)
    }

    /// The service data a structure holds; `nil` when the structure is of another type.
    public init?(_ s: ADStructure) {
        guard s.type == .serviceData16BitUUID || s.type == .serviceData32BitUUID || s.type == .serviceData128BitUUID
        else { return nil }
        self.init(validated: s)
    }

    /// The AD type for the UUID's width.
    public var type: ADType {
        switch uuid.width {
        case .bits16: return .serviceData16BitUUID
        case .bits32: return .serviceData32BitUUID
        case .bits128: return .serviceData128BitUUID
        }
    }

    /// The Eddystone frame, when this is 0xFEAA service data that decodes as one.
    public var eddystone: EddystoneFrame? { EddystoneFrame(self) }

    /// `FEAA: 10ec01…`, with the UUID's assigned name when known.
    public var description: String {
        let name = uuid.assignedName.map { " (\($0))" } ?? ""
        return "\(uuid)\(name): \(Hex.encode(data))"
    }
}
