import SwiftATTCore

/// HCI_LE_Read_Remote_Features: ask the peer for its LE features; answered by Command
/// Status, then LE Read Remote Features Complete. Core 5.4 Vol 4 Part E §7.8.21.
public struct LEReadRemoteFeatures: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0016) }
    public static let completion = HCICommandCompletion.commandStatus
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16

    /// HCI_LE_Read_Remote_Features with these parameters.
    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }

    public var parametersLength: Int { 2 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(connectionHandle)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Read Remote Features parameters", length: 2)
        connectionHandle = p.littleEndianUInt16(at: 0)
    }
}
