import SwiftATTCore

/// L2CAP_DISCONNECTION_RSP: the channel is closed. It repeats the request's two CIDs
/// as the request sent them, so the requester matches it to its channel.
/// Core 5.4 Vol 3 Part A §4.7.
public struct DisconnectionResponse: Sendable, Hashable {
    /// The signaling code that identifies this command.
    public static let code = LESignalingCode.disconnectionResponse

    /// The channel's identifier at the device that received the request (the responder).
    public var destinationCID: UInt16
    /// The channel's identifier at the device that sent the request (the requester).
    public var sourceCID: UInt16

    /// The answer, echoing the request's CIDs.
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

extension DisconnectionResponse: ByteEncodable {
    public var encodedLength: Int { Field.length }

    public func encode(into writer: inout ByteWriter) {
        writer.write(destinationCID)
        writer.write(sourceCID)
    }
}
