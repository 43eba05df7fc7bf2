import SwiftATTCore

/// L2CAP_CREDIT_BASED_RECONFIGURE_REQ: announces a new MTU and MPS for one to five of
/// the sender's Enhanced Credit Based channels, named by the sender's own ends of them
/// (the CIDs it gave as Source CIDs, which the receiver sends to). Core 5.4 Vol 3 Part A
/// §4.27; BlueZ and Zephyr look the channels up by their destination CID alike.
///
/// The MTU may only grow; the MPS may shrink on one channel at a time. Those rules need
/// the channels' current values and belong to the channel state machine; `validate()`
/// checks the ranges alone.
public struct CreditBasedReconfigureRequest: Sendable, Hashable {
    /// The signaling code that identifies this command.
    public static let code = LESignalingCode.creditBasedReconfigureRequest
    /// How many channels one request may reconfigure.
    public static let destinationCIDCounts: ClosedRange<Int> = 1...5

    /// The new MTU: the largest SDU the sender receives on each channel; it may only grow.
    public var mtu: UInt16
    /// The new MPS: the largest K-frame payload the sender receives.
    public var mps: UInt16
    /// The sender's ends of the channels: the receiver's destination CIDs for them.
    public var destinationCIDs: [UInt16]

    /// A request for these sizes on the channels named; `validate()` checks the ranges.
    public init(mtu: UInt16, mps: UInt16, destinationCIDs: [UInt16]) {
        self.mtu = mtu
        self.mps = mps
        self.destinationCIDs = destinationCIDs
    }

    /// Where the fields sit in the command's data.
    enum Field {
        static var mtu: Range<Int> { 0..<2 }
        static var mps: Range<Int> { 2..<4 }
        static var destinationCIDs: PartialRangeFrom<Int> { 4... }
    }

    /// Octets before the CID list.
    static var fixedLength: Int { Field.destinationCIDs.lowerBound }

    /// Decodes the command's data: MTU, MPS and one to five Destination CIDs.
    public init(parsing data: ArraySlice<UInt8>) throws(LESignalingDecodingError) {
        let count = try Self.code.requireCIDList(data, fixed: Self.fixedLength, counts: Self.destinationCIDCounts)
        mtu = data.littleEndianUInt16(at: Field.mtu)
        mps = data.littleEndianUInt16(at: Field.mps)
        destinationCIDs = data.cids(at: Field.destinationCIDs.lowerBound, count: count)
    }

    /// Checks §4.27's ranges: MTU ≥ 64, MPS 64–65533, each Destination CID in the LE
    /// dynamic range. `creditBasedReconfigureResult` on the error is the answer.
    public func validate() throws(CreditBasedParameterError) {
        let mode = CreditBasedFlowControlMode.enhancedCreditBased
        try CreditBasedParameterError.check(mtu, in: mode.mtuRange, .mtu, of: Self.code)
        try CreditBasedParameterError.check(mps, in: mode.mpsRange, .mps, of: Self.code)
        for cid in destinationCIDs {
            try CreditBasedParameterError.check(cid, in: L2CAPChannelIdentifier.leDynamicRange, .destinationCID, of: Self.code)
        }
    }
}

extension CreditBasedReconfigureRequest: ByteEncodable {
    public var encodedLength: Int { Self.fixedLength + 2 * destinationCIDs.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(mtu)
        writer.write(mps)
        for cid in destinationCIDs { writer.write(cid) }
    }
}
