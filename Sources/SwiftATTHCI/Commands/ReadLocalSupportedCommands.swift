import SwiftATTCore

/// HCI_Read_Local_Supported_Commands: the bitmap of commands the controller supports.
/// Core 5.4 Vol 4 Part E §7.4.2.
public struct ReadLocalSupportedCommands: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x04, ocf: 0x0002) }
    public init() {}

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// Supported_Commands: which commands the controller takes.
        public var supportedCommands: HCISupportedCommands

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, supportedCommands: HCISupportedCommands) {
            self.status = status
            self.supportedCommands = supportedCommands
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(returnParameters, "Read Local Supported Commands return parameters", length: 65)
            status = HCIStatus(p.byte(at: 0))
            supportedCommands = HCISupportedCommands(octets: p.bytes(at: 1, count: 64))
        }

        public var encodedLength: Int { 65 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(supportedCommands.octets)
        }
    }
}
