import BluetoothCore

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

    public let handlesInformationList: ATTEntryList<HandlesInformation>

    public init(_ entries: [HandlesInformation]) throws(ATTDecodingError) {
        handlesInformationList = try .build(entries, of: Self.opcode, entryLength: { _ in 4 }) { e, out in
            out.append(littleEndian: e.foundAttributeHandle)
            out.append(littleEndian: e.groupEndHandle)
        }
    }

    @inlinable
    public init(parsing pdu: ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: 1)
        handlesInformationList = try .parse(pdu.bytes(from: 1), entryLength: 4, of: Self.opcode)
    }

    public var encodedLength: Int { 1 + handlesInformationList.bytes.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(handlesInformationList.bytes)
    }
}
