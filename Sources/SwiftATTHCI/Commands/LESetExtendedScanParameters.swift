import SwiftATTCore

/// HCI_LE_Set_Extended_Scan_Parameters: how an extended scanner scans, per primary PHY.
/// Core 5.4 Vol 4 Part E §7.8.64.
///
/// Scanning_PHYs (bit 0 LE 1M, bit 2 LE Coded) says which PHYs follow, in that order;
/// here it is implied by which of `le1M` and `leCoded` are set.
public struct LESetExtendedScanParameters: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0041) }

    /// The scan parameters for one PHY.
    public struct PHYParameters: Sendable, Hashable {
        /// LE_Scan_Type: passive (listen only) or active (send scan requests).
        public var scanType: LEScanType
        /// Scan_Interval, in units of 0.625 ms (0x0004–0xFFFF).
        public var scanInterval: UInt16
        /// Scan_Window, in units of 0.625 ms; at most the interval.
        public var scanWindow: UInt16

        /// Scan parameters for one PHY.
        public init(scanType: LEScanType, scanInterval: UInt16, scanWindow: UInt16) {
            self.scanType = scanType
            self.scanInterval = scanInterval
            self.scanWindow = scanWindow
        }

        /// `scanInterval` in milliseconds.
        public var scanIntervalMilliseconds: Double { Double(scanInterval) * 0.625 }
        /// `scanWindow` in milliseconds.
        public var scanWindowMilliseconds: Double { Double(scanWindow) * 0.625 }

        init(_ p: borrowing ArraySlice<UInt8>, at offset: Int, _ what: String) throws(HCIDecodingError) {
            scanType = try HCIField.decode(LEScanType.self, p.byte(at: offset), "\(what) Scan_Type")
            scanInterval = p.littleEndianUInt16(at: offset + 1)
            scanWindow = p.littleEndianUInt16(at: offset + 3)
        }
    }

    /// Own_Address_Type: which of this controller's addresses goes in the packets.
    public var ownAddressType: LEOwnAddressType
    /// Scanning_Filter_Policy: which advertisements to report.
    public var scanningFilterPolicy: LEScanningFilterPolicy
    /// Scanning on the LE 1M primary advertising channels, if any.
    public var le1M: PHYParameters?
    /// Scanning on the LE Coded primary advertising channels, if any.
    public var leCoded: PHYParameters?

    /// HCI_LE_Set_Extended_Scan_Parameters with these parameters.
    public init(ownAddressType: LEOwnAddressType = .random, scanningFilterPolicy: LEScanningFilterPolicy = .basicUnfiltered,
                le1M: PHYParameters?, leCoded: PHYParameters? = nil) {
        self.ownAddressType = ownAddressType
        self.scanningFilterPolicy = scanningFilterPolicy
        self.le1M = le1M
        self.leCoded = leCoded
    }

    /// Scanning_PHYs as sent.
    public var scanningPHYs: LEPHYs {
        var phys: LEPHYs = []
        if le1M != nil { phys.insert(.le1M) }
        if leCoded != nil { phys.insert(.leCoded) }
        return phys
    }

    var entries: [PHYParameters] { [le1M, leCoded].compactMap { $0 } }

    public var parametersLength: Int { 3 + 5 * entries.count }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(ownAddressType.rawValue)
        writer.write(scanningFilterPolicy.rawValue)
        writer.write(scanningPHYs.rawValue)
        for e in entries {
            writer.write(e.scanType.rawValue)
            writer.write(e.scanInterval)
            writer.write(e.scanWindow)
        }
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Set Extended Scan Parameters"
        try HCIWire.check(p, "\(what) parameters", atLeast: 3)
        let phys = try HCIField.decodeBits(LEPHYs.self, p.byte(at: 2), known: [.le1M, .leCoded], "\(what) Scanning_PHYs")
        let count = phys.rawValue.nonzeroBitCount
        try HCIWire.check(p, "\(what) parameters (\(count) PHYs)", length: 3 + 5 * count)
        ownAddressType = try HCIField.decode(LEOwnAddressType.self, p.byte(at: 0), "\(what) Own_Address_Type")
        scanningFilterPolicy = try HCIField.decode(
            LEScanningFilterPolicy.self, p.byte(at: 1), "\(what) Scanning_Filter_Policy")
        var offset = 3
        le1M = nil
        leCoded = nil
        if phys.contains(.le1M) { le1M = try PHYParameters(p, at: offset, what); offset += 5 }
        if phys.contains(.leCoded) { leCoded = try PHYParameters(p, at: offset, what) }
    }
}
