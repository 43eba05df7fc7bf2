import SwiftATTCore

/// HCI_Read_Remote_Version_Information_Complete: the peer's LL version and maker.
/// Core 5.4 Vol 4 Part E §7.7.12.
public struct ReadRemoteVersionInformationComplete: HCIEventParameters, Hashable {
    public static let code: UInt8 = 0x0C
    /// Status: success, or why it failed.
    public var status: HCIStatus
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// Version: the peer's LMP/LL version (Assigned Numbers).
    public var version: UInt8
    /// Company_Identifier: the link layer's manufacturer.
    public var companyIdentifier: UInt16
    /// Subversion: the manufacturer's revision of the link layer.
    public var subversion: UInt16

    /// HCI_Read_Remote_Version_Information_Complete with these parameters, as a controller (an
    /// emulated one, a test) sends it.
    public init(status: HCIStatus = .success, connectionHandle: UInt16, version: UInt8,
                companyIdentifier: UInt16, subversion: UInt16) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.version = version
        self.companyIdentifier = companyIdentifier
        self.subversion = subversion
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "Read Remote Version Information Complete", length: 8)
        status = HCIStatus(p.byte(at: 0))
        connectionHandle = p.littleEndianUInt16(at: 1)
        version = p.byte(at: 3)
        companyIdentifier = p.littleEndianUInt16(at: 4)
        subversion = p.littleEndianUInt16(at: 6)
    }

    public var parametersLength: Int { 8 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(status.rawValue)
        writer.write(connectionHandle)
        writer.write(version)
        writer.write(companyIdentifier)
        writer.write(subversion)
    }
}
