import SwiftATTCore

/// HCI_Set_Event_Mask: which events (page 1) the controller may send.
/// Core 5.4 Vol 4 Part E §7.3.1.
public struct SetEventMask: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x03, ocf: 0x0001) }

    /// Event_Mask: bit n enables the event with code n + 1 (up to LE Meta, 0x3E).
    public struct Mask: OptionSet, Sendable, Hashable {
        public let rawValue: UInt64
        public init(rawValue: UInt64) { self.rawValue = rawValue }

        /// The mask enabling the events with these codes (0x01–0x40).
        public init(eventCodes: some Sequence<UInt8>) {
            var v: UInt64 = 0
            for code in eventCodes where (1...64).contains(code) { v |= 1 << UInt64(code - 1) }
            rawValue = v
        }

        /// Bit 4: Disconnection Complete (code 0x05).
        public static let disconnectionComplete = Mask(rawValue: 1 << 4)
        /// Bit 7: Encryption Change (code 0x08).
        public static let encryptionChange = Mask(rawValue: 1 << 7)
        /// Bit 11: Read Remote Version Information Complete (code 0x0C).
        public static let readRemoteVersionInformationComplete = Mask(rawValue: 1 << 11)
        /// Bit 15: Hardware Error (code 0x10).
        public static let hardwareError = Mask(rawValue: 1 << 15)
        /// Bit 25: Data Buffer Overflow (code 0x1A).
        public static let dataBufferOverflow = Mask(rawValue: 1 << 25)
        /// Bit 47: Encryption Key Refresh Complete (code 0x30).
        public static let encryptionKeyRefreshComplete = Mask(rawValue: 1 << 47)
        /// Bit 61: LE Meta (code 0x3E).
        public static let leMeta = Mask(rawValue: 1 << 61)
        /// The controller's value after Reset.
        public static let `default` = Mask(rawValue: 0x0000_1FFF_FFFF_FFFF)
    }

    /// Event_Mask: the events enabled.
    public var eventMask: Mask

    /// HCI_Set_Event_Mask with these parameters.
    public init(eventMask: Mask) { self.eventMask = eventMask }

    public var parametersLength: Int { 8 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(eventMask.rawValue)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "Set Event Mask parameters", length: 8)
        eventMask = Mask(rawValue: p.littleEndianUInt64(at: 0))
    }
}
