import SwiftATTCore

/// HCI_Set_Event_Mask: which events (page 1) the controller may send.
/// Core 5.4 Vol 4 Part E §7.3.1.
public struct SetEventMask: HCICommand, Hashable {
    public static let opcode = HCIOpcode(ogf: 0x03, ocf: 0x0001)

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

        public static let disconnectionComplete = Mask(rawValue: 1 << 4)
        public static let encryptionChange = Mask(rawValue: 1 << 7)
        public static let readRemoteVersionInformationComplete = Mask(rawValue: 1 << 11)
        public static let hardwareError = Mask(rawValue: 1 << 15)
        public static let dataBufferOverflow = Mask(rawValue: 1 << 25)
        public static let encryptionKeyRefreshComplete = Mask(rawValue: 1 << 47)
        public static let leMeta = Mask(rawValue: 1 << 61)
        /// The controller's value after Reset.
        public static let `default` = Mask(rawValue: 0x0000_1FFF_FFFF_FFFF)
    }

    public var eventMask: Mask

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
