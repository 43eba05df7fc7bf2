import SwiftATTCore

/// HCI_LE_Set_Event_Mask: which LE Meta subevents the controller may send.
/// Core 5.4 Vol 4 Part E §7.8.1.
public struct LESetEventMask: HCICommand, Hashable {
    public static let opcode = HCIOpcode(ogf: 0x08, ocf: 0x0001)

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

        public static let connectionComplete = Mask(rawValue: 1 << 0)
        public static let advertisingReport = Mask(rawValue: 1 << 1)
        public static let connectionUpdateComplete = Mask(rawValue: 1 << 2)
        public static let readRemoteFeaturesComplete = Mask(rawValue: 1 << 3)
        public static let longTermKeyRequest = Mask(rawValue: 1 << 4)
        public static let remoteConnectionParameterRequest = Mask(rawValue: 1 << 5)
        public static let dataLengthChange = Mask(rawValue: 1 << 6)
        public static let enhancedConnectionComplete = Mask(rawValue: 1 << 9)
        public static let phyUpdateComplete = Mask(rawValue: 1 << 11)
        public static let extendedAdvertisingReport = Mask(rawValue: 1 << 12)
        public static let scanTimeout = Mask(rawValue: 1 << 16)
        public static let advertisingSetTerminated = Mask(rawValue: 1 << 17)
        public static let channelSelectionAlgorithm = Mask(rawValue: 1 << 19)
        /// LE Enhanced Connection Complete [v2], subevent 0x29.
        public static let enhancedConnectionCompleteV2 = Mask(rawValue: 1 << 40)
        /// The controller's value after Reset (the five Bluetooth 4.0 subevents).
        public static let `default` = Mask(rawValue: 0x1F)
    }

    public var eventMask: Mask

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
