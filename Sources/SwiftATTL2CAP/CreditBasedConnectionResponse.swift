import SwiftATTCore

/// L2CAP_CREDIT_BASED_CONNECTION_RSP: the answer to a Credit Based Connection Request,
/// one Destination CID per Source CID asked for, in the same order. Core 5.4 Vol 3
/// Part A §4.26.
///
/// A Destination CID of 0x0000 (`L2CAPChannelIdentifier.null`) marks a channel refused.
/// The list may be empty: a request too malformed to count its CIDs is answered with
/// `invalidParameters` and none, as Linux and Zephyr do.
public struct CreditBasedConnectionResponse: Sendable, Hashable {
    /// The signaling code that identifies this command.
    public static let code = LESignalingCode.creditBasedConnectionResponse
    /// How many Destination CIDs a response may carry.
    public static let destinationCIDCounts: ClosedRange<Int> = 0...5

    /// The largest SDU the responder receives on the channels (its MTU).
    public var mtu: UInt16
    /// The largest K-frame payload the responder receives (its MPS).
    public var mps: UInt16
    /// The K-frames the responder lets the other side send before it grants more, per channel.
    public var initialCredits: UInt16
    /// What became of the request: success, or why it was refused.
    public var result: CreditBasedConnectionResult
    /// The responder's ends of the channels, 0x0000 for each refused.
    public var destinationCIDs: [UInt16]

    /// A command with these fields; `validate()` checks them against the spec's ranges.
    public init(mtu: UInt16, mps: UInt16, initialCredits: UInt16, result: CreditBasedConnectionResult,
                destinationCIDs: [UInt16]) {
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
        self.result = result
        self.destinationCIDs = destinationCIDs
    }

    /// A refusal of all `count` channels: MTU, MPS and credits 0, every CID 0x0000.
    public static func refused(_ result: CreditBasedConnectionResult, count: Int) -> Self {
        Self(mtu: 0, mps: 0, initialCredits: 0, result: result,
             destinationCIDs: Array(repeating: L2CAPChannelIdentifier.null, count: count))
    }

    /// Where the fields sit in the command's data.
    enum Field {
        static var mtu: Range<Int> { 0..<2 }
        static var mps: Range<Int> { 2..<4 }
        static var initialCredits: Range<Int> { 4..<6 }
        static var result: Range<Int> { 6..<8 }
        static var destinationCIDs: PartialRangeFrom<Int> { 8... }
    }

    /// Octets before the CID list.
    static var fixedLength: Int { Field.destinationCIDs.lowerBound }

    /// Decodes the command's data: the four fixed fields, a Result §4.26 defines, and
    /// zero to five Destination CIDs.
    public init(parsing data: ArraySlice<UInt8>) throws(LESignalingDecodingError) {
        let count = try Self.code.requireCIDList(data, fixed: Self.fixedLength, counts: Self.destinationCIDCounts)
        let value = data.littleEndianUInt16(at: Field.result)
        guard let result = CreditBasedConnectionResult(rawValue: value) else {
            throw .reservedValue(code: Self.code, field: .result, value: value)
        }
        mtu = data.littleEndianUInt16(at: Field.mtu)
        mps = data.littleEndianUInt16(at: Field.mps)
        initialCredits = data.littleEndianUInt16(at: Field.initialCredits)
        self.result = result
        destinationCIDs = data.cids(at: Field.destinationCIDs.lowerBound, count: count)
    }

    /// Checks a response that opened channels (§4.26): MTU ≥ 64, MPS 64–65533, and each
    /// Destination CID 0x0000 or in the LE dynamic range. A refusal of all, or a pending
    /// answer, carries nothing to check.
    public func validate() throws(CreditBasedParameterError) {
        guard !result.refusesAll, !result.isPending else { return }
        let mode = CreditBasedFlowControlMode.enhancedCreditBased
        try CreditBasedParameterError.check(mtu, in: mode.mtuRange, .mtu, of: Self.code)
        try CreditBasedParameterError.check(mps, in: mode.mpsRange, .mps, of: Self.code)
        for cid in destinationCIDs where cid != L2CAPChannelIdentifier.null {
            try CreditBasedParameterError.check(cid, in: L2CAPChannelIdentifier.leDynamicRange, .destinationCID, of: Self.code)
        }
    }
}

extension CreditBasedConnectionResponse: ByteEncodable {
    public var encodedLength: Int { Self.fixedLength + 2 * destinationCIDs.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(mtu)
        writer.write(mps)
        writer.write(initialCredits)
        writer.write(result.rawValue)
        for cid in destinationCIDs { writer.write(cid) }
    }
}
