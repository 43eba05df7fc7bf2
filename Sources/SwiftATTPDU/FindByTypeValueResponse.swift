import SwiftATTCore

/// ATT_FIND_BY_TYPE_VALUE_RSP: the handle ranges of the matching attributes.
/// Core 5.4 Vol 3 Part F §3.4.3.4.
public struct FindByTypeValueResponse: ATTPDUCodable {
    public static let opcode = ATTOpcode.findByTypeValueResponse

    /// A found attribute and the end of its group (the service's last handle).
    public struct HandlesInformation: ATTListEntry {
        public var foundAttributeHandle: UInt16
        public var groupEndHandle: UInt16

        public init(foundAttributeHandle: UInt16, groupEndHandle: UInt16) {
            self.foundAttributeHandle = foundAttributeHandle
            self.groupEndHandle = groupEndHandle
        }

        @inlinable
        public init(entryBytes: ArraySlice<UInt8>) {
            foundAttributeHandle = entryBytes.littleEndianUInt16(at: 0)
            groupEndHandle = entryBytes.littleEndianUInt16(at: 2)
        }
    }

    /// The list's bytes, stored plainly so a decoded `ATTPDU` needs no generic metadata.
    public let handlesInformationBytes: ArraySlice<UInt8>

    /// The found ranges, decoded on access.
    public var handlesInformationList: ATTEntryList<HandlesInformation> {
        ATTEntryList(unchecked: handlesInformationBytes, entryLength: 4)
    }

    public init(_ entries: [HandlesInformation]) throws(ATTDecodingError) {
        handlesInformationBytes = try ATTEntryList<HandlesInformation>.build(entries, of: Self.opcode, entryLength: { _ in 4 }) { e, out in
            out.append(littleEndian: e.foundAttributeHandle)
            out.append(littleEndian: e.groupEndHandle)
        }.bytes
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: 1)
        handlesInformationBytes = try ATTEntryList<HandlesInformation>.parse(pdu.bytes(from: 1), entryLength: 4, of: Self.opcode).bytes
    }

    public var encodedLength: Int { 1 + handlesInformationBytes.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(handlesInformationBytes)
    }
}
