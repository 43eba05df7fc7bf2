import SwiftATTCore

/// HCI_LE_Set_Extended_Scan_Enable: start or stop extended scanning.
/// Core 5.4 Vol 4 Part E §7.8.65.
public struct LESetExtendedScanEnable: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0042) }

    /// Filter_Duplicates.
    public enum FilterDuplicates: UInt8, Sendable, Hashable, CaseIterable {
        /// Report every advertisement.
        case disabled = 0x00
        /// Report each advertiser once for the scan.
        case enabled = 0x01
        /// Enabled, forgetting what was seen at the start of each scan period.
        case enabledResetEachPeriod = 0x02
    }

    /// Enable: start (true) or stop.
    public var enable: Bool
    /// Filter_Duplicates: whether the controller drops repeated reports.
    public var filterDuplicates: FilterDuplicates
    /// Duration, in units of 10 ms; 0 scans until disabled.
    public var duration: UInt16
    /// Period, in units of 1.28 s; 0 scans once (continuously if `duration` is 0).
    public var period: UInt16

    /// HCI_LE_Set_Extended_Scan_Enable with these parameters.
    public init(enable: Bool, filterDuplicates: FilterDuplicates = .disabled, duration: UInt16 = 0, period: UInt16 = 0) {
        self.enable = enable
        self.filterDuplicates = filterDuplicates
        self.duration = duration
        self.period = period
    }

    /// `duration` in milliseconds; 0 means no limit.
    public var durationMilliseconds: Double { Double(duration) * 10 }
    /// `period` in milliseconds; 0 means no period.
    public var periodMilliseconds: Double { Double(period) * 1280 }

    public var parametersLength: Int { 6 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(enable ? UInt8(1) : 0)
        writer.write(filterDuplicates.rawValue)
        writer.write(duration)
        writer.write(period)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Set Extended Scan Enable"
        try HCIWire.check(p, "\(what) parameters", length: 6)
        enable = try HCIField.decodeBool(p.byte(at: 0), "\(what) Enable")
        filterDuplicates = try HCIField.decode(FilterDuplicates.self, p.byte(at: 1), "\(what) Filter_Duplicates")
        duration = p.littleEndianUInt16(at: 2)
        period = p.littleEndianUInt16(at: 4)
    }
}
