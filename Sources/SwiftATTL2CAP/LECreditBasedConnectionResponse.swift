import SwiftATTCore

/// L2CAP_LE_CREDIT_BASED_CONNECTION_RSP: the answer to an LE Credit Based Connection
/// Request. Core 5.4 Vol 3 Part A §4.23.
///
/// On success the responder states its end of the channel, as the request stated the
/// requester's; on a refusal those fields mean nothing (a refusal sends them as 0, and
/// `refused(_:)` builds one so).
public struct LECreditBasedConnectionResponse: Sendable, Hashable {
    /// The signaling code that identifies this command.
    public static let code = LESignalingCode.leCreditBasedConnectionResponse

    /// The responder's end of the channel: where the requester sends K-frames.
    public var destinationCID: UInt16
    /// The largest SDU the responder receives on the channel (its MTU).
    public var mtu: UInt16
    /// The largest K-frame payload the responder receives (its MPS).
    public var mps: UInt16
    /// The K-frames the responder lets the other side send before it grants more, per channel.
    public var initialCredits: UInt16
    /// What became of the request: success, or why it was refused.
    public var result: LECreditBasedConnectionResult

    /// A command with these fields; `validate()` checks them against the spec's ranges.
    public init(destinationCID: UInt16, mtu: UInt16, mps: UInt16, initialCredits: UInt16,
                result: LECreditBasedConnectionResult) {
        self.destinationCID = destinationCID
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
        self.result = result
    }

    /// A refusal: every field but the result 0.
    public static func refused(_ result: LECreditBasedConnectionResult) -> Self {
        Self(destinationCID: 0, mtu: 0, mps: 0, initialCredits: 0, result: result)
    }

    /// Where the fields sit in the command's data.
    enum Field {
        static var destinationCID: Range<Int> { 0..<2 }
        static var mtu: Range<Int> { 2..<4 }
        static var mps: Range<Int> { 4..<6 }
        static var initialCredits: Range<Int> { 6..<8 }
        static var result: Range<Int> { 8..<10 }
        static var length: Int { 10 }
    }

    /// Decodes the command's data: exactly the five fields, with a Result §4.23 defines.
    public init(parsing data: ArraySlice<UInt8>) throws(LESignalingDecodingError) {
        try Self.code.requireLength(data, Field.length)
        let value = data.littleEndianUInt16(at: Field.result)
        guard let result = LECreditBasedConnectionResult(rawValue: value) else {
            throw .reservedValue(code: Self.code, field: .result, value: value)
        }
        destinationCID = data.littleEndianUInt16(at: Field.destinationCID)
        mtu = data.littleEndianUInt16(at: Field.mtu)
        mps = data.littleEndianUInt16(at: Field.mps)
        initialCredits = data.littleEndianUInt16(at: Field.initialCredits)
        self.result = result
    }

    /// Checks a successful response's ranges (§4.23): Destination CID in the LE dynamic
    /// range, MTU ≥ 23, MPS 23–65533. A refusal's other fields are not checked: they
    /// carry nothing.
    public func validate() throws(CreditBasedParameterError) {
        guard result == .success else { return }
        let mode = CreditBasedFlowControlMode.leCreditBased
        try CreditBasedParameterError.check(destinationCID, in: L2CAPChannelIdentifier.leDynamicRange, .destinationCID, of: Self.code)
        try CreditBasedParameterError.check(mtu, in: mode.mtuRange, .mtu, of: Self.code)
        try CreditBasedParameterError.check(mps, in: mode.mpsRange, .mps, of: Self.code)
    }
}

extension LECreditBasedConnectionResponse: ByteEncodable {
    public var encodedLength: Int { Field.length }

    public func encode(into writer: inout ByteWriter) {
        writer.write(destinationCID)
        writer.write(mtu)
        writer.write(mps)
        writer.write(initialCredits)
        writer.write(result.rawValue)
    }
}
