import SwiftATTCore

/// The devices a directed advertisement is meant for.
///
/// Core Specification Supplement Part A §1.13: Public Target Address (0x17) or Random
/// Target Address (0x18), each a list of six-octet addresses, least significant octet first.
public struct TargetAddressList: RandomAccessCollection, Hashable, Sendable {
    /// Whether the list holds public or random addresses.
    public let kind: BluetoothAddress.Kind
    /// Six octets per address.
    public let bytes: ArraySlice<UInt8>

    @usableFromInline
    init(validated s: ADStructure) {
        kind = s.type == .publicTargetAddress ? .public : .random
        bytes = s.data
    }

    /// The list a structure holds; `nil` when the structure is of another type.
    public init?(_ s: ADStructure) {
        guard s.type == .publicTargetAddress || s.type == .randomTargetAddress else { return nil }
        self.init(validated: s)
    }

    /// A list of addresses of one kind (each address's own kind is not consulted).
    public init(_ addresses: [BluetoothAddress], kind: BluetoothAddress.Kind) {
        var out: [UInt8] = []
        out.reserveCapacity(addresses.count * 6)
        for a in addresses { out.append(contentsOf: a.littleEndianBytes) }
        self.kind = kind
        bytes = out[...]
    }

    /// The AD type the list is written with.
    public var type: ADType { kind == .public ? .publicTargetAddress : .randomTargetAddress }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { bytes.count / 6 }

    public subscript(position: Int) -> BluetoothAddress {
        BluetoothAddress(littleEndianBytes: bytes.bytes(at: position * 6, count: 6), kind: kind)
    }
}
