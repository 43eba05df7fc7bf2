import SwiftATTCore

/// One AD structure: a Length octet, an AD type and that type's data.
///
/// Core 5.4 Vol 3 Part C §11, Figure 11.1. The data is a view into the bytes it was parsed
/// from. Every value of this type satisfies its type's length rule
/// (`ADType.lengthRequirement`) and carries at most 254 data octets, so `item` decodes
/// without further checks and `encode` always writes a well-formed structure.
public struct ADStructure: Hashable, Sendable, ByteEncodable, CustomStringConvertible {
    /// What the data means.
    public let type: ADType
    /// The data octets (after the AD type).
    public let data: ArraySlice<UInt8>

    /// A structure whose data the caller has already checked.
    @inlinable
    init(unchecked type: ADType, data: ArraySlice<UInt8>) {
        self.type = type
        self.data = data
    }

    /// A structure from its type and data, checked against the type's length rule.
    public init(type: ADType, data: ArraySlice<UInt8>) throws(ADEncodingError) {
        guard data.count <= ADEncodingError.maximumStructureDataLength else {
            throw .structureTooLong(type, dataLength: data.count)
        }
        if let rule = type.lengthRequirement, !rule.isSatisfied(by: data.count) {
            throw .invalidData(.invalidLength(type, offset: 0, length: data.count, required: rule))
        }
        self.init(unchecked: type, data: data)
    }

    /// A structure of `type` with `data`; throws if the data breaks the type's length rule or is
    /// longer than 254 octets.
    public init(type: ADType, data: [UInt8]) throws(ADEncodingError) {
        try self.init(type: type, data: data[...])
    }

    /// The typed reading of the structure.
    public var item: ADItem { ADItem(self) }

    /// Length octet, AD type octet, data.
    public var encodedLength: Int { 2 + data.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(UInt8(truncatingIfNeeded: 1 + data.count))
        writer.write(type.rawValue)
        writer.write(data)
    }

    /// `0x09 Complete Local Name: 506f6c6172`.
    public var description: String {
        "\(type): \(Hex.encode(data))"
    }
}
