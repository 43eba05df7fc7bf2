import SwiftATTCore

/// HCI_LE_Set_Event_Mask: which LE Meta subevents the controller may send.
/// Core 5.4 Vol 4 Part E §7.8.1.
public struct LESetEventMask: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0001) }

    /// LE_Event_Mask: bit n enables the subevent with code n + 1.
    public struct Mask: OptionSet, Sendable, Hashable {
        public let rawValue: UInt64
        public init(rawValue: UInt64) { self.rawValue = rawValue }

        /// The mask enabling the subevents with these codes (0x01–0x40).
        public init(subeventCodes: some Sequence<UInt8>) {
            var v: UInt64 = 0
            for code in subeventCodes where (1...64).contains(code) { v |= 1 << UInt64(code - 1) }
            rawValue = v
        }

        /// Bit 0: Connection Complete (code 0x01).
        public static let connectionComplete = Mask(rawValue: 1 << 0)
        /// Bit 1: Advertising Report (code 0x02).
        public static let advertisingReport = Mask(rawValue: 1 << 1)
        /// Bit 2: Connection Update Complete (code 0x03).
        public static let connectionUpdateComplete = Mask(rawValue: 1 << 2)
        /// Bit 3: Read Remote Features Complete (code 0x04).
        public static let readRemoteFeaturesComplete = Mask(rawValue: 1 << 3)
        /// Bit 4: Long Term Key Request (code 0x05).
        public static let longTermKeyRequest = Mask(rawValue: 1 << 4)
        /// Bit 5: Remote Connection Parameter Request (code 0x06).
        public static let remoteConnectionParameterRequest = Mask(rawValue: 1 << 5)
        /// Bit 6: Data Length Change (code 0x07).
        public static let dataLengthChange = Mask(rawValue: 1 << 6)
        /// Bit 9: Enhanced Connection Complete (code 0x0A).
        public static let enhancedConnectionComplete = Mask(rawValue: 1 << 9)
        /// Bit 11: PHY Update Complete (code 0x0C).
        public static let phyUpdateComplete = Mask(rawValue: 1 << 11)
        /// Bit 12: Extended Advertising Report (code 0x0D).
        public static let extendedAdvertisingReport = Mask(rawValue: 1 << 12)
        /// Bit 16: Scan Timeout (code 0x11).
        public static let scanTimeout = Mask(rawValue: 1 << 16)
        /// Bit 17: Advertising Set Terminated (code 0x12).
        public static let advertisingSetTerminated = Mask(rawValue: 1 << 17)
        /// Bit 19: Channel Selection Algorithm (code 0x14).
        public static let channelSelectionAlgorithm = Mask(rawValue: 1 << 19)
        /// LE Enhanced Connection Complete [v2], subevent 0x29.
        public static let enhancedConnectionCompleteV2 = Mask(rawValue: 1 << 40)
        /// The controller's value after Reset (the five Bluetooth 4.0 subevents).
        public static let `default` = Mask(rawValue: 0x1F)
    }

    /// LE_Event_Mask: the LE subevents enabled.
    public var eventMask: Mask

    /// HCI_LE_Set_Event_Mask with these parameters.
    public init(eventMask: Mask) { self.eventMask = eventMask }

    public var parametersLength: Int { 8 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(eventMask.rawValue)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Set Event Mask parameters", length: 8)
        eventMask = Mask(rawValue: p.littleEndianUInt64(at: 0))
    }
}
