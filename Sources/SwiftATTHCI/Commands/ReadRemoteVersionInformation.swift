import SwiftATTCore

/// HCI_Read_Remote_Version_Information: ask the peer for its LL version and maker;
/// answered by Command Status, then Read Remote Version Information Complete (Bumble never
/// answers: BENCH.md quirk 1). Core 5.4 Vol 4 Part E §7.1.23.
public struct ReadRemoteVersionInformation: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x01, ocf: 0x001D) }
    public static let completion = HCICommandCompletion.commandStatus
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16

    /// HCI_Read_Remote_Version_Information with these parameters.
    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }

    public var parametersLength: Int { 2 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(connectionHandle)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "Read Remote Version Information parameters", length: 2)
        connectionHandle = p.littleEndianUInt16(at: 0)
    }
}
