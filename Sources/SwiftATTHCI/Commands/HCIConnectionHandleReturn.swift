import SwiftATTCore

/// Return parameters that are a status and the connection handle the command named
/// (LE Set Data Length, LE Long Term Key Request Reply and Negative Reply, …).
public struct HCIConnectionHandleReturn: HCIReturnParameters, ByteEncodable, Hashable {
    public var status: HCIStatus
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16

    /// Return parameters as a controller returns them (an emulated one, a test).
    public init(status: HCIStatus, connectionHandle: UInt16) {
        self.status = status
        self.connectionHandle = connectionHandle
    }

    public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let p = try HCIWire.returnBlock(returnParameters, "connection handle return parameters", length: 3)
        status = HCIStatus(p.byte(at: 0))
        connectionHandle = p.littleEndianUInt16(at: 1)
    }

    public var encodedLength: Int { 3 }

    public func encode(into writer: inout ByteWriter) {
        writer.write(status.rawValue)
        writer.write(connectionHandle)
    }
}

extension HCIStatusReturn: ByteEncodable {
    public var encodedLength: Int { 1 }

    public func encode(into writer: inout ByteWriter) {
        writer.write(status.rawValue)
    }
}
