import SwiftATTCore

/// L2CAP_CREDIT_BASED_CONNECTION_REQ: opens one to five channels in Enhanced Credit
/// Based Flow Control mode to the service at `spsm` ("ECFC"; Enhanced ATT opens its
/// bearers so). Core 5.4 Vol 3 Part A §4.25.
///
/// One MTU, MPS and credit grant cover every channel asked for; each channel has its own
/// Source CID. Any values decode; `validate()` checks them against §4.25.
public struct CreditBasedConnectionRequest: Sendable, Hashable {
    /// The signaling code that identifies this command.
    public static let code = LESignalingCode.creditBasedConnectionRequest
    /// How many channels one request may open.
    public static let sourceCIDCounts: ClosedRange<Int> = 1...5

    /// The service the channel connects to.
    public var spsm: SPSM
    /// The largest SDU the requester receives on the channels (its MTU).
    public var mtu: UInt16
    /// The largest K-frame payload the requester receives (its MPS).
    public var mps: UInt16
    /// The K-frames the requester lets the other side send before it grants more, per channel.
    public var initialCredits: UInt16
    /// The requester's ends of the channels, one to five; the response's Destination
    /// CIDs answer them in the same order.
    public var sourceCIDs: [UInt16]

    /// A command with these fields; `validate()` checks them against the spec's ranges.
    public init(spsm: SPSM, mtu: UInt16, mps: UInt16, initialCredits: UInt16, sourceCIDs: [UInt16]) {
        self.spsm = spsm
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
        self.sourceCIDs = sourceCIDs
    }

    /// Where the fields sit in the command's data.
    enum Field {
        static var spsm: Range<Int> { 0..<2 }
        static var mtu: Range<Int> { 2..<4 }
        static var mps: Range<Int> { 4..<6 }
        static var initialCredits: Range<Int> { 6..<8 }
        static var sourceCIDs: PartialRangeFrom<Int> { 8... }
    }

    /// Octets before the CID list.
    static var fixedLength: Int { Field.sourceCIDs.lowerBound }

    /// Decodes the command's data: the four fixed fields and one to five Source CIDs.
    /// No CID, more than five, or an odd octet left over is `invalidLength` (the answer
    /// to that is a response with `invalidParameters`).
    public init(parsing data: ArraySlice<UInt8>) throws(LESignalingDecodingError) {
        let count = try Self.code.requireCIDList(data, fixed: Self.fixedLength, counts: Self.sourceCIDCounts)
        spsm = SPSM(data.littleEndianUInt16(at: Field.spsm))
        mtu = data.littleEndianUInt16(at: Field.mtu)
        mps = data.littleEndianUInt16(at: Field.mps)
        initialCredits = data.littleEndianUInt16(at: Field.initialCredits)
        sourceCIDs = data.cids(at: Field.sourceCIDs.lowerBound, count: count)
    }

    /// Checks §4.25's ranges: first those that refuse every channel — SPSM
    /// (0x0001–0x00FF), MTU (≥ 64), MPS (64–65533) — then each Source CID (the LE dynamic
    /// range), which refuses only its own channel. So an error whose field is
    /// `.sourceCID` means the rest passed, and the receiver answers "some connections
    /// refused" with 0x0000 in place of each such CID.
    public func validate() throws(CreditBasedParameterError) {
        let mode = CreditBasedFlowControlMode.enhancedCreditBased
        try CreditBasedParameterError.check(spsm.rawValue, in: SPSM.validRange, .spsm, of: Self.code)
        try CreditBasedParameterError.check(mtu, in: mode.mtuRange, .mtu, of: Self.code)
        try CreditBasedParameterError.check(mps, in: mode.mpsRange, .mps, of: Self.code)
        for cid in sourceCIDs {
            try CreditBasedParameterError.check(cid, in: L2CAPChannelIdentifier.leDynamicRange, .sourceCID, of: Self.code)
        }
    }
}

extension CreditBasedConnectionRequest: ByteEncodable {
    /// The encoder writes whatever list it holds; a list of 1–5 CIDs is the caller's to keep.
    public var encodedLength: Int { Self.fixedLength + 2 * sourceCIDs.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(spsm.rawValue)
        writer.write(mtu)
        writer.write(mps)
        writer.write(initialCredits)
        for cid in sourceCIDs { writer.write(cid) }
    }
}
