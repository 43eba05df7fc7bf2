import SwiftATTCore

/// ATT_FIND_BY_TYPE_VALUE_RSP: the handle ranges of the matching attributes.
/// Core 5.4 Vol 3 Part F §3.4.3.4.
public struct FindByTypeValueResponse: ATTEntryListPDU {
    public static let opcode = ATTOpcode.findByTypeValueResponse

    /// A found attribute and the end of its group (the service's last handle).
    public struct HandlesInformation: ATTListEntry {
        public var foundAttributeHandle: UInt16
        public var groupEndHandle: UInt16

        @usableFromInline
        enum Field {
            @usableFromInline static let foundAttributeHandle = 0..<2
            @usableFromInline static let groupEndHandle = 2..<4
        }

        public init(foundAttributeHandle: UInt16, groupEndHandle: UInt16) {
            self.foundAttributeHandle = foundAttributeHandle
            self.groupEndHandle = groupEndHandle
        }

        @inlinable
        public init(entryBytes: ArraySlice<UInt8>) {
            foundAttributeHandle = entryBytes.littleEndianUInt16(at: Field.foundAttributeHandle)
            groupEndHandle = entryBytes.littleEndianUInt16(at: Field.groupEndHandle)
        }

        public var encodedLength: Int { Field.groupEndHandle.upperBound }

        public func encode(into writer: inout ByteWriter) {
            writer.write(foundAttributeHandle)
            writer.write(groupEndHandle)
        }
    }

    @inlinable
    static var entryLengthField: ATTEntryLengthField { .absent(entryLength: HandlesInformation.Field.groupEndHandle.upperBound) }

    /// The list's bytes.
    public let handlesInformationBytes: ArraySlice<UInt8>

    /// The found ranges, decoded on access.
    public var handlesInformationList: ATTEntryList<HandlesInformation> { list }

    public init(_ entries: [HandlesInformation]) throws(ATTDecodingError) {
        self.init(list: try Self.list(of: entries))
    }

    @inlinable
    init(list: ATTEntryList<HandlesInformation>) { handlesInformationBytes = list.bytes }

    @inlinable
    var list: ATTEntryList<HandlesInformation> {
        ATTEntryList(unchecked: handlesInformationBytes, entryLength: HandlesInformation.Field.groupEndHandle.upperBound)
    }
}
