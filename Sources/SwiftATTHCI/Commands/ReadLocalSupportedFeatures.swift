import SwiftATTCore

/// HCI_Read_Local_Supported_Features: the controller's LMP features page 0 (bit 38 says
/// it supports LE at all). Core 5.4 Vol 4 Part E §7.4.3; bits in Vol 2 Part C §3.3.
public struct ReadLocalSupportedFeatures: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x04, ocf: 0x0003) }
    public init() {}

    /// LMP_Features page 0, bit n of octet n/8.
    public struct LMPFeatures: OptionSet, Sendable, Hashable {
        public let rawValue: UInt64
        public init(rawValue: UInt64) { self.rawValue = rawValue }

        /// Bit 37: BR/EDR Not Supported (an LE-only controller).
        public static let brEDRNotSupported = LMPFeatures(rawValue: 1 << 37)
        /// Bit 38: LE Supported (Controller).
        public static let leSupportedController = LMPFeatures(rawValue: 1 << 38)
        /// Bit 63: Extended Features: more feature pages exist.
        public static let extendedFeatures = LMPFeatures(rawValue: 1 << 63)
    }

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// LMP_Features: the controller's features, page 0.
        public var lmpFeatures: LMPFeatures

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, lmpFeatures: LMPFeatures) {
            self.status = status
            self.lmpFeatures = lmpFeatures
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(returnParameters, "Read Local Supported Features return parameters", length: 9)
            status = HCIStatus(p.byte(at: 0))
            lmpFeatures = LMPFeatures(rawValue: p.littleEndianUInt64(at: 1))
        }

        public var encodedLength: Int { 9 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(lmpFeatures.rawValue)
        }
    }
}
