import SwiftATTCore

/// L2CAP_LE_CREDIT_BASED_CONNECTION_REQ: opens one channel in LE Credit Based Flow
/// Control mode to the service at `spsm`. Core 5.4 Vol 3 Part A §4.22.
///
/// The requester states its end of the channel: the CID it allocated, the largest SDU
/// (MTU) and K-frame payload (MPS) it can receive, and how many K-frames it grants the
/// peer to send before more credits. Any values decode; `validate()` checks them against
/// the ranges of §4.22, and its error names the refusal to send back.
public struct LECreditBasedConnectionRequest: Sendable, Hashable {
    /// The signaling code that identifies this command.
    public static let code = LESignalingCode.leCreditBasedConnectionRequest

    /// The service the channel connects to.
    public var spsm: SPSM
    /// The requester's end of the channel: where the peer sends K-frames.
    public var sourceCID: UInt16
    /// The largest SDU the requester receives on the channel (its MTU).
    public var mtu: UInt16
    /// The largest K-frame payload the requester receives (its MPS).
    public var mps: UInt16
    /// The K-frames the requester lets the other side send before it grants more, per channel.
    public var initialCredits: UInt16

    /// A command with these fields; `validate()` checks them against the spec's ranges.
    public init(spsm: SPSM, sourceCID: UInt16, mtu: UInt16, mps: UInt16, initialCredits: UInt16) {
        self.spsm = spsm
        self.sourceCID = sourceCID
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
    }

    /// Where the fields sit in the command's data.
    enum Field {
        static var spsm: Range<Int> { 0..<2 }
        static var sourceCID: Range<Int> { 2..<4 }
        static var mtu: Range<Int> { 4..<6 }
        static var mps: Range<Int> { 6..<8 }
        static var initialCredits: Range<Int> { 8..<10 }
        static var length: Int { 10 }
    }

    /// Decodes the command's data: exactly the five fields.
    public init(parsing data: ArraySlice<UInt8>) throws(LESignalingDecodingError) {
        try Self.code.requireLength(data, Field.length)
        spsm = SPSM(data.littleEndianUInt16(at: Field.spsm))
        sourceCID = data.littleEndianUInt16(at: Field.sourceCID)
        mtu = data.littleEndianUInt16(at: Field.mtu)
        mps = data.littleEndianUInt16(at: Field.mps)
        initialCredits = data.littleEndianUInt16(at: Field.initialCredits)
    }

    /// Checks the ranges of §4.22 in the order a receiver refuses them: SPSM (0x0001–
    /// 0x00FF), Source CID (the LE dynamic range), MTU (≥ 23), MPS (23–65533). Initial
    /// Credits may be anything, 0 included. `leCreditBasedConnectionResult` on the error
    /// is the answer to send.
    public func validate() throws(CreditBasedParameterError) {
        let mode = CreditBasedFlowControlMode.leCreditBased
        try CreditBasedParameterError.check(spsm.rawValue, in: SPSM.validRange, .spsm, of: Self.code)
        try CreditBasedParameterError.check(sourceCID, in: L2CAPChannelIdentifier.leDynamicRange, .sourceCID, of: Self.code)
        try CreditBasedParameterError.check(mtu, in: mode.mtuRange, .mtu, of: Self.code)
        try CreditBasedParameterError.check(mps, in: mode.mpsRange, .mps, of: Self.code)
    }
}

extension LECreditBasedConnectionRequest: ByteEncodable {
    public var encodedLength: Int { Field.length }

    public func encode(into writer: inout ByteWriter) {
        writer.write(spsm.rawValue)
        writer.write(sourceCID)
        writer.write(mtu)
        writer.write(mps)
        writer.write(initialCredits)
    }
}
