import SwiftATTCore

/// HCI_LE_Set_Scan_Enable: start or stop legacy scanning. Core 5.4 Vol 4 Part E §7.8.11.
public struct LESetScanEnable: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x000C) }
    /// LE_Scan_Enable: start (true) or stop.
    public var scanEnable: Bool
    /// Filter_Duplicates: report each advertiser once per scan (Bumble ignores it).
    public var filterDuplicates: Bool

    /// HCI_LE_Set_Scan_Enable with these parameters.
    public init(scanEnable: Bool, filterDuplicates: Bool = false) {
        self.scanEnable = scanEnable
        self.filterDuplicates = filterDuplicates
    }

    public var parametersLength: Int { 2 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(scanEnable ? UInt8(1) : 0)
        writer.write(filterDuplicates ? UInt8(1) : 0)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Set Scan Enable parameters", length: 2)
        scanEnable = try HCIField.decodeBool(p.byte(at: 0), "LE Set Scan Enable LE_Scan_Enable")
        filterDuplicates = try HCIField.decodeBool(p.byte(at: 1), "LE Set Scan Enable Filter_Duplicates")
    }
}
