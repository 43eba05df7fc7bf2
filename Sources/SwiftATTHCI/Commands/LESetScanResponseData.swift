import SwiftATTCore

/// HCI_LE_Set_Scan_Response_Data: the AD structures a legacy advertiser sends in scan
/// responses (at most 31 octets). Core 5.4 Vol 4 Part E §7.8.8.
public struct LESetScanResponseData: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0009) }
    /// Scan_Response_Data, at most 31 octets; a view into the parsed packet.
    public var scanResponseData: ArraySlice<UInt8>

    /// HCI_LE_Set_Scan_Response_Data with these parameters.
    public init(scanResponseData: ArraySlice<UInt8>) { self.scanResponseData = scanResponseData }

    public var parametersLength: Int { LegacyAdvertisingDataParameters.length }

    public func encodeParameters(into writer: inout ByteWriter) {
        LegacyAdvertisingDataParameters.encode(scanResponseData, into: &writer)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        scanResponseData = try LegacyAdvertisingDataParameters.parse(p, "LE Set Scan Response Data")
    }
}
