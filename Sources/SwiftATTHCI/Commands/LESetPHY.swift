import SwiftATTCore

/// HCI_LE_Set_PHY: ask to change a connection's PHYs; answered by Command Status, then
/// LE PHY Update Complete (Bumble never answers: BENCH.md quirk 1).
/// Core 5.4 Vol 4 Part E §7.8.49.
public struct LESetPHY: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0032) }
    public static let completion = HCICommandCompletion.commandStatus

    /// All_PHYs: directions in which the host has no preference (the matching
    /// TX_PHYs/RX_PHYs is then ignored).
    public struct AllPHYs: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// No preference for the transmitter PHY.
        public static let noTxPreference = AllPHYs(rawValue: 1 << 0)
        /// No preference for the receiver PHY.
        public static let noRxPreference = AllPHYs(rawValue: 1 << 1)
        /// No preference either way.
        public static let all: AllPHYs = [.noTxPreference, .noRxPreference]
    }

    /// PHY_Options: the coding the host prefers when transmitting on LE Coded.
    public enum CodedPHYPreference: UInt16, Sendable, Hashable, CaseIterable {
        /// No preferred coding.
        case noPreference = 0
        /// S=2 coding (500 kb/s).
        case s2 = 1
        /// S=8 coding (125 kb/s).
        case s8 = 2
    }

    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// All_PHYs: for which direction the host has no preference.
    public var allPHYs: AllPHYs
    /// TX_PHYs: the PHYs the host prefers to transmit on.
    public var txPHYs: LEPHYs
    /// RX_PHYs: the PHYs the host prefers to receive on.
    public var rxPHYs: LEPHYs
    /// PHY_Options: the coding preferred on LE Coded.
    public var phyOptions: CodedPHYPreference

    /// HCI_LE_Set_PHY with these parameters.
    public init(connectionHandle: UInt16, allPHYs: AllPHYs = [], txPHYs: LEPHYs, rxPHYs: LEPHYs,
                phyOptions: CodedPHYPreference = .noPreference) {
        self.connectionHandle = connectionHandle
        self.allPHYs = allPHYs
        self.txPHYs = txPHYs
        self.rxPHYs = rxPHYs
        self.phyOptions = phyOptions
    }

    public var parametersLength: Int { 7 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(connectionHandle)
        writer.write(allPHYs.rawValue)
        writer.write(txPHYs.rawValue)
        writer.write(rxPHYs.rawValue)
        writer.write(phyOptions.rawValue)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Set PHY"
        try HCIWire.check(p, "\(what) parameters", length: 7)
        connectionHandle = p.littleEndianUInt16(at: 0)
        allPHYs = try HCIField.decodeBits(AllPHYs.self, p.byte(at: 2), known: .all, "\(what) All_PHYs")
        txPHYs = try HCIField.decodeBits(LEPHYs.self, p.byte(at: 3), known: .all, "\(what) TX_PHYs")
        rxPHYs = try HCIField.decodeBits(LEPHYs.self, p.byte(at: 4), known: .all, "\(what) RX_PHYs")
        phyOptions = try HCIField.decode(CodedPHYPreference.self, p.littleEndianUInt16(at: 5), "\(what) PHY_Options")
    }
}
