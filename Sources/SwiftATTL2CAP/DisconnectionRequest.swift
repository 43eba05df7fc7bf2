import SwiftATTCore

/// L2CAP_DISCONNECTION_REQ: asks the receiver to close a channel, named by the CIDs
/// each end knows it by. The receiver answers with a Disconnection Response carrying the
/// same two CIDs, or with Command Reject "invalid CID in request" when it has no such
/// channel. Core 5.4 Vol 3 Part A §4.6.
public struct DisconnectionRequest: Sendable, Hashable {
    /// The signaling code that identifies this command.
    public static let code = LESignalingCode.disconnectionRequest

    /// The channel's identifier at the device receiving the request.
    public var destinationCID: UInt16
    /// The channel's identifier at the device that sent the request.
    public var sourceCID: UInt16

    /// A request to close the channel both CIDs name.
    public init(destinationCID: UInt16, sourceCID: UInt16) {
        self.destinationCID = destinationCID
        self.sourceCID = sourceCID
    }

    /// Where the fields sit in the command's data.
    enum Field {
        static var destinationCID: Range<Int> { 0..<2 }
        static var sourceCID: Range<Int> { 2..<4 }
        static var length: Int { 4 }
    }

    /// Decodes the command's data: exactly the two CIDs.
    public init(parsing data: ArraySlice<UInt8>) throws(LESignalingDecodingError) {
        try Self.code.requireLength(data, Field.length)
        destinationCID = data.littleEndianUInt16(at: Field.destinationCID)
        sourceCID = data.littleEndianUInt16(at: Field.sourceCID)
    }
}

extension DisconnectionRequest: ByteEncodable {
    public var encodedLength: Int { Field.length }

    public func encode(into writer: inout ByteWriter) {
        writer.write(destinationCID)
        writer.write(sourceCID)
    }
}
