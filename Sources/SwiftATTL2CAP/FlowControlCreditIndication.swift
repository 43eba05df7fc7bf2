import SwiftATTCore

/// L2CAP_FLOW_CONTROL_CREDIT_IND: grants the peer more K-frames on a credit-based
/// channel of either mode. Core 5.4 Vol 3 Part A §4.24.
///
/// `cid` is the sender's own end of the channel (its Source CID, where it receives). No
/// answer is sent. A grant that would take the receiver past 65535 outstanding credits
/// is a protocol error that ends the channel (§10.1): the channel state machine checks
/// that, as only it knows the count; `validate()` checks the fields alone.
public struct FlowControlCreditIndication: Sendable, Hashable {
    /// The signaling code that identifies this command.
    public static let code = LESignalingCode.flowControlCreditIndication

    /// The sender's end of the channel: its Source CID.
    public var cid: UInt16
    /// The K-frames granted, 1–65535.
    public var credits: UInt16

    /// A command with these fields; `validate()` checks them against the spec's ranges.
    public init(cid: UInt16, credits: UInt16) {
        self.cid = cid
        self.credits = credits
    }

    /// Where the fields sit in the command's data.
    enum Field {
        static var cid: Range<Int> { 0..<2 }
        static var credits: Range<Int> { 2..<4 }
        static var length: Int { 4 }
    }

    /// Decodes the command's data: exactly the CID and the credits.
    public init(parsing data: ArraySlice<UInt8>) throws(LESignalingDecodingError) {
        try Self.code.requireLength(data, Field.length)
        cid = data.littleEndianUInt16(at: Field.cid)
        credits = data.littleEndianUInt16(at: Field.credits)
    }

    /// Checks §4.24's ranges: the CID in the LE dynamic range and at least one credit.
    public func validate() throws(CreditBasedParameterError) {
        try CreditBasedParameterError.check(cid, in: L2CAPChannelIdentifier.leDynamicRange, .cid, of: Self.code)
        try CreditBasedParameterError.check(credits, in: CreditBasedFlowControlMode.creditIndicationRange, .credits, of: Self.code)
    }
}

extension FlowControlCreditIndication: ByteEncodable {
    public var encodedLength: Int { Field.length }

    public func encode(into writer: inout ByteWriter) {
        writer.write(cid)
        writer.write(credits)
    }
}
