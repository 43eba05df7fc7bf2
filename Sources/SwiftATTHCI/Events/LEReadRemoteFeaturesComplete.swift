import SwiftATTCore

/// HCI_LE_Read_Remote_Features_Complete (LE Meta subevent 0x04): the peer's LE features.
/// Core 5.4 Vol 4 Part E §7.7.65.4.
public struct LEReadRemoteFeaturesComplete: LEMetaSubevent, Hashable {
    public static let subeventCode: UInt8 = 0x04
    /// Status: success, or why it failed.
    public var status: HCIStatus
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// LE_Features: the LE features supported.
    public var leFeatures: LEFeatures

    /// HCI_LE_Read_Remote_Features_Complete with these parameters, as a controller (an emulated
    /// one, a test) sends it.
    public init(status: HCIStatus = .success, connectionHandle: UInt16, leFeatures: LEFeatures) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.leFeatures = leFeatures
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Read Remote Features Complete", length: 11)
        status = HCIStatus(p.byte(at: 0))
        connectionHandle = p.littleEndianUInt16(at: 1)
        leFeatures = LEFeatures(rawValue: p.littleEndianUInt64(at: 3))
    }

    public var parametersLength: Int { 11 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(status.rawValue)
        writer.write(connectionHandle)
        writer.write(leFeatures.rawValue)
    }
}
