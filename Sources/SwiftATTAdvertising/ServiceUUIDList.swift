import SwiftATTCore

/// A list of service UUIDs of one width, read in place.
///
/// Core Specification Supplement Part A §1.1 (incomplete and complete lists of service
/// class UUIDs, AD types 0x02–0x07) and §1.10 (service solicitation, 0x14, 0x1F, 0x15).
/// A list may be empty: a complete list with no entries says the device has no services
/// of that width.
public struct ServiceUUIDList: RandomAccessCollection, Hashable, Sendable {
    /// Which of the three list kinds this is.
    public enum Kind: Hashable, Sendable {
        /// More services of this width exist than are listed.
        case incomplete
        /// Every service of this width is listed.
        case complete
        /// Services the device would like a peer to offer (Part A §1.10).
        case solicitation
    }

    /// Incomplete, complete or solicitation.
    public let kind: Kind
    /// The width every UUID in the list has.
    public let width: BluetoothUUID.Width
    /// The UUIDs' wire bytes, a whole number of `width.byteCount`-octet entries.
    public let bytes: ArraySlice<UInt8>

    @usableFromInline
    init(validated s: ADStructure) {
        switch s.type.rawValue {
        case 0x02: (kind, width) = (.incomplete, .bits16)
        case 0x03: (kind, width) = (.complete, .bits16)
        case 0x04: (kind, width) = (.incomplete, .bits32)
        case 0x05: (kind, width) = (.complete, .bits32)
        case 0x06: (kind, width) = (.incomplete, .bits128)
        case 0x07: (kind, width) = (.complete, .bits128)
        case 0x14: (kind, width) = (.solicitation, .bits16)
        case 0x1F: (kind, width) = (.solicitation, .bits32)
        default: (kind, width) = (.solicitation, .bits128)
        }
        bytes = s.data
    }

    /// The list a structure holds; `nil` when the structure is of another type.
    public init?(_ s: ADStructure) {
        switch s.type.rawValue {
        case 0x02...0x07, 0x14, 0x15, 0x1F: self.init(validated: s)
        default: return nil
        }
    }

    /// A list of `uuids`, each written at `width` (by default the first UUID's width, or 16
    /// bits for an empty list). Throws when a UUID has no alias of that width.
    public init(_ uuids: [BluetoothUUID], kind: Kind = .complete, width: BluetoothUUID.Width? = nil) throws(ADEncodingError) {
        let width = width ?? uuids.first?.width ?? .bits16
        var out: [UInt8] = []
        out.reserveCapacity(uuids.count * width.byteCount)
        for uuid in uuids {
            let written: BluetoothUUID
            switch width {
            case .bits16:
                guard let short = uuid.uuid16 else { throw .uuidNotRepresentable(uuid, width: width) }
                written = BluetoothUUID(short)
            case .bits32:
                guard let short = uuid.uuid32 else { throw .uuidNotRepresentable(uuid, width: width) }
                written = BluetoothUUID(uuid32: short)
            case .bits128:
                written = uuid.widened
            }
            written.encode(appendingTo: &out)
        }
        self.kind = kind
        self.width = width
        bytes = out[...]
    }

    /// The AD type the list is written with.
    public var type: ADType {
        switch (kind, width) {
        case (.incomplete, .bits16): return .incompleteListOf16BitServiceUUIDs
        case (.complete, .bits16): return .completeListOf16BitServiceUUIDs
        case (.incomplete, .bits32): return .incompleteListOf32BitServiceUUIDs
        case (.complete, .bits32): return .completeListOf32BitServiceUUIDs
        case (.incomplete, .bits128): return .incompleteListOf128BitServiceUUIDs
        case (.complete, .bits128): return .completeListOf128BitServiceUUIDs
        case (.solicitation, .bits16): return .listOf16BitServiceSolicitationUUIDs
        case (.solicitation, .bits32): return .listOf32BitServiceSolicitationUUIDs
        case (.solicitation, .bits128): return .listOf128BitServiceSolicitationUUIDs
        }
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { bytes.count / width.byteCount }

    @inlinable
    public subscript(position: Int) -> BluetoothUUID {
        let n = width.byteCount
        let entry = bytes.bytes(at: position &* n, count: n)
        switch width {
        case .bits16: return BluetoothUUID(entry.littleEndianUInt16(at: 0))
        case .bits32: return BluetoothUUID(uuid32: entry.littleEndianUInt32(at: 0))
        case .bits128: return BluetoothUUID(uuid128: entry.littleEndianUInt128(at: 0))
        }
    }
}
