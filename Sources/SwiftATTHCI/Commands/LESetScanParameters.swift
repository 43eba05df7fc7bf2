import SwiftATTCore

/// HCI_LE_Set_Scan_Parameters: how a legacy scanner scans. Core 5.4 Vol 4 Part E §7.8.10.
public struct LESetScanParameters: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x000B) }
    /// LE_Scan_Type: passive (listen only) or active (send scan requests).
    public var scanType: LEScanType
    /// LE_Scan_Interval, in units of 0.625 ms (0x0004–0x4000: 2.5 ms–10.24 s).
    public var scanInterval: UInt16
    /// LE_Scan_Window, in units of 0.625 ms; at most the interval.
    public var scanWindow: UInt16
    /// Own_Address_Type: which of this controller's addresses goes in the packets.
    public var ownAddressType: LEOwnAddressType
    /// Scanning_Filter_Policy: which advertisements to report.
    public var scanningFilterPolicy: LEScanningFilterPolicy

    /// HCI_LE_Set_Scan_Parameters with these parameters.
    public init(scanType: LEScanType, scanInterval: UInt16, scanWindow: UInt16,
                ownAddressType: LEOwnAddressType = .random,
                scanningFilterPolicy: LEScanningFilterPolicy = .basicUnfiltered) {
        self.scanType = scanType
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
        self.ownAddressType = ownAddressType
        self.scanningFilterPolicy = scanningFilterPolicy
    }

    /// `scanInterval` in milliseconds.
    public var scanIntervalMilliseconds: Double { Double(scanInterval) * 0.625 }
    /// `scanWindow` in milliseconds.
    public var scanWindowMilliseconds: Double { Double(scanWindow) * 0.625 }

    public var parametersLength: Int { 7 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(scanType.rawValue)
        writer.write(scanInterval)
        writer.write(scanWindow)
        writer.write(ownAddressType.rawValue)
        writer.write(scanningFilterPolicy.rawValue)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Set Scan Parameters"
        try HCIWire.check(p, "\(what) parameters", length: 7)
        scanType = try HCIField.decode(LEScanType.self, p.byte(at: 0), "\(what) LE_Scan_Type")
        scanInterval = p.littleEndianUInt16(at: 1)
        scanWindow = p.littleEndianUInt16(at: 3)
        ownAddressType = try HCIField.decode(LEOwnAddressType.self, p.byte(at: 5), "\(what) Own_Address_Type")
        scanningFilterPolicy = try HCIField.decode(
            LEScanningFilterPolicy.self, p.byte(at: 6), "\(what) Scanning_Filter_Policy")
    }
}
