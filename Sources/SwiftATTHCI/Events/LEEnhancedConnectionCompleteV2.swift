import SwiftATTCore

/// HCI_LE_Enhanced_Connection_Complete [v2] (LE Meta subevent 0x29): the v1 fields plus
/// the advertising set and periodic sync the connection came from.
/// Core 5.4 Vol 4 Part E §7.7.65.10.
public struct LEEnhancedConnectionCompleteV2: LEMetaSubevent, Hashable {
    public static let subeventCode: UInt8 = 0x29
    /// Every field v1 has, in the same order.
    public var connection: LEEnhancedConnectionComplete
    /// Advertising_Handle of the set that accepted the connection (0xFF: none).
    public var advertisingHandle: UInt8
    /// Sync_Handle of the periodic advertising train with responses (0xFFFF: none).
    public var syncHandle: UInt16

    /// The [v2] event: the [v1] fields, and the advertising set and sync handle (none by default).
    public init(connection: LEEnhancedConnectionComplete, advertisingHandle: UInt8 = 0xFF, syncHandle: UInt16 = 0xFFFF) {
        self.connection = connection
        self.advertisingHandle = advertisingHandle
        self.syncHandle = syncHandle
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Enhanced Connection Complete [v2]"
        try HCIWire.check(p, what, length: LEEnhancedConnectionComplete.length + 3)
        connection = try LEEnhancedConnectionComplete(fieldsOf: p, what)
        advertisingHandle = p.byte(at: 30)
        syncHandle = p.littleEndianUInt16(at: 31)
    }

    public var parametersLength: Int { LEEnhancedConnectionComplete.length + 3 }

    public func encodeParameters(into writer: inout ByteWriter) {
        connection.encodeParameters(into: &writer)
        writer.write(advertisingHandle)
        writer.write(syncHandle)
    }
}
